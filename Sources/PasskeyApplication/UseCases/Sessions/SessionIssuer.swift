package import Foundation
package import PasskeyDomain

/// Builds sessions: a fresh token, its digest, and the expiry from policy.
package struct SessionIssuer: Sendable {
    let tokens: any SessionTokenGenerator
    let random: any RandomGenerator
    let lifetime: TimeInterval

    package init(tokens: any SessionTokenGenerator, random: any RandomGenerator, lifetime: TimeInterval) {
        self.tokens = tokens
        self.random = random
        self.lifetime = lifetime
    }

    /// A session whose token exists before its account is known (recovery sign-in: the account
    /// comes out of the same transaction that consumes the code).
    package func prepare(method: AuthenticationMethod, now: Date, lifetime: TimeInterval? = nil) -> PreparedSession {
        PreparedSession(
            token: tokens.makeToken(), id: SessionID(random.uuid()), method: method, createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime ?? self.lifetime))
    }

    /// The session to store and the session to return, for `account` at `now`; `credentialID`
    /// is the passkey a `passkey` session signed in with, `userVerified` whether its
    /// authenticator verified the user.
    package func make(
        for account: Account, method: AuthenticationMethod, credentialID: CredentialID? = nil,
        userVerified: Bool = false, now: Date, lifetime: TimeInterval? = nil
    ) -> (stored: AuthenticationSession, issued: IssuedSession) {
        let token = tokens.makeToken()
        let stored = AuthenticationSession(
            id: SessionID(random.uuid()), accountID: account.id, tokenDigest: token.digest, method: method,
            credentialID: credentialID, createdAt: now, expiresAt: now.addingTimeInterval(lifetime ?? self.lifetime),
            userVerified: userVerified)
        return (
            stored,
            IssuedSession(accessToken: token.token, expiresAt: stored.expiresAt, account: account, method: method)
        )
    }
}
