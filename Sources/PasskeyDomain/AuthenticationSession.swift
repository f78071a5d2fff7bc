package import Foundation

/// How a session was created; only password sessions may start a conditional upgrade.
package enum AuthenticationMethod: String, Hashable, Sendable {
    case password
    case passkey
    /// A recovery code (spec v2, issue 11).
    case recovery
    /// A code mailed to the account's address (spec v3, "Email sign-in is recovery").
    case email
}

/// A signed-in session. Only the SHA-256 digest of its bearer token is kept.
package struct AuthenticationSession: Hashable, Sendable {
    package let id: SessionID
    package let accountID: AccountID
    package let tokenDigest: [UInt8]
    package let method: AuthenticationMethod
    /// The passkey this session signed in with (`passkey` sessions only).
    package let credentialID: CredentialID?
    package let createdAt: Date
    package let expiresAt: Date
    package var revokedAt: Date?
    /// (v4) A passkey sign-in whose authenticator verified the user (UV = 1): the JWT's `amr`
    /// then says `mfa`. False for every other way in.
    package let userVerified: Bool

    package init(
        id: SessionID = SessionID(), accountID: AccountID, tokenDigest: [UInt8], method: AuthenticationMethod,
        credentialID: CredentialID? = nil, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil,
        userVerified: Bool = false
    ) {
        self.userVerified = userVerified
        self.id = id
        self.accountID = accountID
        self.tokenDigest = tokenDigest
        self.method = method
        self.credentialID = credentialID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// True when the session signed in no longer than `window` before `now` (spec v2: recent
    /// sign-in for sensitive changes).
    package func signedInRecently(now: Date, window: TimeInterval) -> Bool {
        now.timeIntervalSince(createdAt) <= window
    }
}
