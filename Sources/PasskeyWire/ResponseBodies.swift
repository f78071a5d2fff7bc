public import Foundation

// The response bodies of the contract, shared by the server (which encodes them) and
// PasskeyClient (which decodes them).

/// Session = `{accessToken, tokenType, expiresAt, accountID, displayName, method}`.
public struct SessionResponseBody: Codable, Sendable, Hashable {
    public let accessToken: String
    public let tokenType: String
    public let expiresAt: Date
    public let accountID: String
    public let displayName: String
    /// `password`, `passkey` or `recovery` (spec v2), or `email` (v3): how this session signed in.
    public let method: String

    public init(
        accessToken: String, tokenType: String = "Bearer", expiresAt: Date, accountID: String, displayName: String,
        method: String
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.accountID = accountID
        self.displayName = displayName
        self.method = method
    }
}

/// `POST /v1/accounts` → 201.
public struct AccountCreatedResponseBody: Codable, Sendable, Hashable {
    public let accountID: String
    public let displayName: String

    public init(accountID: String, displayName: String) {
        self.accountID = accountID
        self.displayName = displayName
    }
}

/// RegistrationOptions.
public struct RegistrationOptionsResponseBody: Codable, Sendable {
    public let challengeID: String
    public let relyingPartyID: String
    public let relyingPartyName: String
    public let userID: String
    public let userName: String
    public let displayName: String
    public let challenge: String
    public let expiresAt: Date
    public let mode: String
    public let publicKey: CreationOptionsJSON

    public init(
        challengeID: String, relyingPartyID: String, relyingPartyName: String, userID: String, userName: String,
        displayName: String, challenge: String, expiresAt: Date, mode: String, publicKey: CreationOptionsJSON
    ) {
        self.challengeID = challengeID
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.userID = userID
        self.userName = userName
        self.displayName = displayName
        self.challenge = challenge
        self.expiresAt = expiresAt
        self.mode = mode
        self.publicKey = publicKey
    }
}

/// AccountRegistrationOptions.
public struct AccountRegistrationOptionsResponseBody: Codable, Sendable {
    public let registrationID: String
    public let relyingPartyID: String
    public let userID: String
    public let challenge: String
    public let expiresAt: Date
    public let publicKey: CreationOptionsJSON

    public init(
        registrationID: String, relyingPartyID: String, userID: String, challenge: String, expiresAt: Date,
        publicKey: CreationOptionsJSON
    ) {
        self.registrationID = registrationID
        self.relyingPartyID = relyingPartyID
        self.userID = userID
        self.challenge = challenge
        self.expiresAt = expiresAt
        self.publicKey = publicKey
    }
}

/// AuthenticationOptions.
public struct AuthenticationOptionsResponseBody: Codable, Sendable {
    public let challengeID: String
    public let relyingPartyID: String
    public let challenge: String
    public let expiresAt: Date
    public let publicKey: RequestOptionsJSON

    public init(
        challengeID: String, relyingPartyID: String, challenge: String, expiresAt: Date, publicKey: RequestOptionsJSON
    ) {
        self.challengeID = challengeID
        self.relyingPartyID = relyingPartyID
        self.challenge = challenge
        self.expiresAt = expiresAt
        self.publicKey = publicKey
    }
}

/// Passkey = `{credentialID, name, createdAt, lastUsedAt, backupEligible, backupState, transports, aaguid, attestationFormat}`.
public struct PasskeyResponseBody: Codable, Sendable, Hashable {
    public let credentialID: String
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date?
    public let backupEligible: Bool
    public let backupState: Bool
    public let transports: [String]
    public let aaguid: String
    public let attestationFormat: String

    public init(
        credentialID: String, name: String, createdAt: Date, lastUsedAt: Date?, backupEligible: Bool,
        backupState: Bool, transports: [String], aaguid: String, attestationFormat: String
    ) {
        self.credentialID = credentialID
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.transports = transports
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
    }

    enum CodingKeys: String, CodingKey {
        case credentialID, name, createdAt, lastUsedAt, backupEligible, backupState, transports, aaguid,
            attestationFormat
    }

    /// `lastUsedAt` is always present, `null` until the first sign-in.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(credentialID, forKey: .credentialID)
        try c.encode(name, forKey: .name)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastUsedAt, forKey: .lastUsedAt)
        try c.encode(backupEligible, forKey: .backupEligible)
        try c.encode(backupState, forKey: .backupState)
        try c.encode(transports, forKey: .transports)
        try c.encode(aaguid, forKey: .aaguid)
        try c.encode(attestationFormat, forKey: .attestationFormat)
    }
}

/// `GET /v1/account`.
public struct AccountResponseBody: Codable, Sendable, Hashable {
    public let accountID: String
    public let displayName: String
    public let email: String
    public let hasPassword: Bool
    public let passkeys: [PasskeyResponseBody]
    /// Unused codes of the user's own recovery set (spec v2).
    public let recoveryCodesRemaining: Int
    /// (v3) Whether the owner proved the address with a mailed code.
    public let emailVerified: Bool
    /// (v3) base64url of the 16 bytes the authenticators hold as `user.id` (for credential-manager
    /// signals).
    public let userHandle: String

    public init(
        accountID: String, displayName: String, email: String, hasPassword: Bool, passkeys: [PasskeyResponseBody],
        recoveryCodesRemaining: Int, emailVerified: Bool, userHandle: String
    ) {
        self.accountID = accountID
        self.displayName = displayName
        self.email = email
        self.hasPassword = hasPassword
        self.passkeys = passkeys
        self.recoveryCodesRemaining = recoveryCodesRemaining
        self.emailVerified = emailVerified
        self.userHandle = userHandle
    }
}

/// `POST /v1/account/recovery-codes` → 201: the only time the codes are shown.
public struct RecoveryCodesResponseBody: Codable, Sendable, Hashable {
    public let codes: [String]
    public let createdAt: Date

    public init(codes: [String], createdAt: Date) {
        self.codes = codes
        self.createdAt = createdAt
    }
}

/// SessionInfo, one entry of `GET /v1/account/sessions`: never a token or its digest.
public struct SessionInfoResponseBody: Codable, Sendable, Hashable {
    public let sessionID: String
    public let method: String
    public let createdAt: Date
    public let expiresAt: Date
    public let current: Bool
    public let credentialID: String?

    public init(
        sessionID: String, method: String, createdAt: Date, expiresAt: Date, current: Bool, credentialID: String?
    ) {
        self.sessionID = sessionID
        self.method = method
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.current = current
        self.credentialID = credentialID
    }
}
