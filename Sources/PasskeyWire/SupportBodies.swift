public import Foundation

/// (v4) `POST /v1/operator/accounts/{accountID}/lock`: why, for the user's eyes (1–200
/// characters).
public struct AccountLockRequestBody: Codable, Sendable, Hashable {
    public let reason: String

    public init(reason: String) { self.reason = reason }
}

/// (v4) OperatorAccount: an account as the support desk sees it (spec v4, "Support desk").
/// `lockedAt` and `lockReason` are present, null while the account is not locked.
public struct OperatorAccountResponseBody: Codable, Sendable, Hashable {
    public let accountID: String
    public let email: String
    public let emailVerified: Bool
    public let displayName: String
    public let createdAt: Date
    /// `password-only`, `password-and-passkey`, `passkey-only` or `none`.
    public let stage: String
    public let hasPassword: Bool
    public let passkeys: [PasskeyResponseBody]
    /// How many sessions are live.
    public let activeSessions: Int
    /// Unused codes of the user's own set.
    public let recoveryCodesRemaining: Int
    public let lockedAt: Date?
    public let lockReason: String?

    public init(
        accountID: String, email: String, emailVerified: Bool, displayName: String, createdAt: Date, stage: String,
        hasPassword: Bool, passkeys: [PasskeyResponseBody], activeSessions: Int, recoveryCodesRemaining: Int,
        lockedAt: Date?, lockReason: String?
    ) {
        self.accountID = accountID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.createdAt = createdAt
        self.stage = stage
        self.hasPassword = hasPassword
        self.passkeys = passkeys
        self.activeSessions = activeSessions
        self.recoveryCodesRemaining = recoveryCodesRemaining
        self.lockedAt = lockedAt
        self.lockReason = lockReason
    }

    enum CodingKeys: String, CodingKey {
        case accountID, email, emailVerified, displayName, createdAt, stage, hasPassword, passkeys, activeSessions
        case recoveryCodesRemaining, lockedAt, lockReason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accountID, forKey: .accountID)
        try container.encode(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(stage, forKey: .stage)
        try container.encode(hasPassword, forKey: .hasPassword)
        try container.encode(passkeys, forKey: .passkeys)
        try container.encode(activeSessions, forKey: .activeSessions)
        try container.encode(recoveryCodesRemaining, forKey: .recoveryCodesRemaining)
        try container.encode(lockedAt, forKey: .lockedAt)
        try container.encode(lockReason, forKey: .lockReason)
    }
}

/// (v4) `GET /v1/operator/accounts?email=`: the account with exactly this address, or none.
public struct OperatorAccountListResponseBody: Codable, Sendable, Hashable {
    public let accounts: [OperatorAccountResponseBody]

    public init(accounts: [OperatorAccountResponseBody]) { self.accounts = accounts }
}

/// (v4) `POST /v1/operator/accounts/{accountID}/recovery-code` → 201: the operator code, shown
/// only in this answer, to be read to the user.
public struct OperatorRecoveryCodeResponseBody: Codable, Sendable, Hashable {
    public let code: String
    public let expiresAt: Date

    public init(code: String, expiresAt: Date) {
        self.code = code
        self.expiresAt = expiresAt
    }
}
