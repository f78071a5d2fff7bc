package import Foundation

/// How a session was created; only password sessions may start a conditional upgrade.
package enum AuthenticationMethod: String, Hashable, Sendable {
    case password
    case passkey
}

/// A signed-in session. Only the SHA-256 digest of its bearer token is kept.
package struct AuthenticationSession: Hashable, Sendable {
    package let id: SessionID
    package let accountID: AccountID
    package let tokenDigest: [UInt8]
    package let method: AuthenticationMethod
    package let createdAt: Date
    package let expiresAt: Date
    package var revokedAt: Date?

    package init(
        id: SessionID = SessionID(), accountID: AccountID, tokenDigest: [UInt8], method: AuthenticationMethod,
        createdAt: Date, expiresAt: Date, revokedAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.tokenDigest = tokenDigest
        self.method = method
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }
}
