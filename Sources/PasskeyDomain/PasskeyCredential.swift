package import Foundation

/// A registered passkey (WebAuthn public key credential) belonging to an account.
package struct PasskeyCredential: Hashable, Sendable {
    package let id: CredentialID
    package let accountID: AccountID
    /// The credential public key exactly as the authenticator encoded it (COSE_Key).
    package let publicKey: [UInt8]
    package let algorithm: Int
    package var signCount: UInt32
    package let aaguid: AAGUID
    package let transports: [String]
    package let backupEligible: Bool
    package var backupState: Bool
    /// The attestation statement format (`none`, `packed`, `apple`, …).
    package let attestationFormat: String
    package let attestationType: AttestationType
    /// `credProps.rk` when the client reported it.
    package let residentKey: Bool?
    /// Whether the user was verified at registration (recorded for `USER_VERIFICATION=preferred`).
    package let userVerified: Bool
    package var name: PasskeyName
    package let createdAt: Date
    package var lastUsedAt: Date?

    package init(
        id: CredentialID, accountID: AccountID, publicKey: [UInt8], algorithm: Int, signCount: UInt32,
        aaguid: AAGUID, transports: [String], backupEligible: Bool, backupState: Bool,
        attestationFormat: String, attestationType: AttestationType, residentKey: Bool?,
        userVerified: Bool, name: PasskeyName, createdAt: Date, lastUsedAt: Date?
    ) {
        self.id = id
        self.accountID = accountID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.transports = transports
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.attestationFormat = attestationFormat
        self.attestationType = attestationType
        self.residentKey = residentKey
        self.userVerified = userVerified
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
