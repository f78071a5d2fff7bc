package import Foundation
package import PasskeyDomain

/// The signing keys as every instance reads them (`signing_keys`).
package protocol SigningKeyRepository: Sendable {
    /// Every key that is not revoked, and every revoked one too when `includingRevoked` (for
    /// `keys list`).
    func keys(includingRevoked: Bool) async throws(RepositoryError) -> [SigningKey]
}

/// What introspection and minting need of a live session, in one statement: the session and
/// the account's stage now (nil when the session has ended, expired or never was).
package struct LiveSessionFacts: Hashable, Sendable {
    package let sessionID: SessionID
    package let accountID: AccountID
    package let method: AuthenticationMethod
    package let userVerified: Bool
    package let createdAt: Date
    package let expiresAt: Date
    package let stage: MigrationStage

    package init(
        sessionID: SessionID, accountID: AccountID, method: AuthenticationMethod, userVerified: Bool,
        createdAt: Date, expiresAt: Date, stage: MigrationStage
    ) {
        self.sessionID = sessionID
        self.accountID = accountID
        self.method = method
        self.userVerified = userVerified
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.stage = stage
    }
}

/// Sessions as the tokens' use cases read them: one indexed lookup each.
package protocol TokenSessionRepository: Sendable {
    /// The live session whose bearer token has this digest.
    func liveSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> LiveSessionFacts?

    /// The live session `id` of `accountID`, provided key `keyID` is not revoked (a JWT's
    /// session and key, checked in one statement).
    func liveSession(_ id: SessionID, of accountID: AccountID, signedWith keyID: SigningKeyID, now: Date)
        async throws(RepositoryError) -> LiveSessionFacts?
}
