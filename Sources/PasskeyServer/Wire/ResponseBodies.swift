internal import Foundation

/// Session = `{accessToken, tokenType, expiresAt, accountID, displayName}`.
struct SessionResponseBody: Encodable {
    let accessToken: String
    let tokenType = "Bearer"
    let expiresAt: Date
    let accountID: String
    let displayName: String
    /// `password`, `passkey` or `recovery`: how this session signed in (spec v2).
    let method: String
}

/// `POST /v1/accounts` → 201.
struct AccountCreatedResponseBody: Encodable {
    let accountID: String
    let displayName: String
}

/// RegistrationOptions.
struct RegistrationOptionsResponseBody: Encodable {
    let challengeID: String
    let relyingPartyID: String
    let relyingPartyName: String
    let userID: String
    let userName: String
    let displayName: String
    let challenge: String
    let expiresAt: Date
    let mode: String
    let publicKey: CreationOptionsJSON
}

/// AccountRegistrationOptions.
struct AccountRegistrationOptionsResponseBody: Encodable {
    let registrationID: String
    let relyingPartyID: String
    let userID: String
    let challenge: String
    let expiresAt: Date
    let publicKey: CreationOptionsJSON
}

/// AuthenticationOptions.
struct AuthenticationOptionsResponseBody: Encodable {
    let challengeID: String
    let relyingPartyID: String
    let challenge: String
    let expiresAt: Date
    let publicKey: RequestOptionsJSON
}

/// Passkey = `{credentialID, name, createdAt, lastUsedAt, backupEligible, backupState, transports, aaguid, attestationFormat}`.
struct PasskeyResponseBody: Encodable {
    let credentialID: String
    let name: String
    let createdAt: Date
    let lastUsedAt: Date?
    let backupEligible: Bool
    let backupState: Bool
    let transports: [String]
    let aaguid: String
    let attestationFormat: String

    enum CodingKeys: String, CodingKey {
        case credentialID, name, createdAt, lastUsedAt, backupEligible, backupState, transports, aaguid,
            attestationFormat
    }

    /// `lastUsedAt` is always present, `null` until the first sign-in.
    func encode(to encoder: any Encoder) throws {
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
struct AccountResponseBody: Encodable {
    let accountID: String
    let displayName: String
    let email: String
    let hasPassword: Bool
    let passkeys: [PasskeyResponseBody]
    /// Unused codes of the user's own recovery set (spec v2).
    let recoveryCodesRemaining: Int
}

/// `POST /v1/account/recovery-codes` → 201: the only time the codes are shown.
struct RecoveryCodesResponseBody: Encodable {
    let codes: [String]
    let createdAt: Date
}

/// One entry of `GET /v1/account/sessions`: never a token or its digest.
struct SessionInfoResponseBody: Encodable {
    let sessionID: String
    let method: String
    let createdAt: Date
    let expiresAt: Date
    let current: Bool
    let credentialID: String?
}
