package import Foundation
package import PasskeyDomain

/// A registration response as the client sent it (raw bytes, decoded from base64url).
package struct RegistrationResponse: Sendable {
    package var credentialID: [UInt8]
    package var clientDataJSON: [UInt8]
    package var attestationObject: [UInt8]
    package var transports: [String]

    package init(credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String] = [])
    {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}

/// What the relying party expects of one registration ceremony.
package struct RegistrationExpectation: Sendable {
    package var challenge: Challenge
    /// False only for conditional create (Automatic Passkey Upgrade).
    package var requireUserPresence: Bool
    package var requireUserVerification: Bool
    /// When certificates are checked (normally now; captured vectors use their own instant).
    package var verificationTime: Date

    package init(challenge: Challenge, requireUserPresence: Bool, requireUserVerification: Bool, verificationTime: Date)
    {
        self.challenge = challenge
        self.requireUserPresence = requireUserPresence
        self.requireUserVerification = requireUserVerification
        self.verificationTime = verificationTime
    }
}

/// A registration that passed every check of WebAuthn L3 §7.1.
package struct VerifiedRegistration: Hashable, Sendable {
    package let credentialID: CredentialID
    /// The COSE_Key exactly as it stood in the authenticator data.
    package let publicKey: [UInt8]
    package let algorithm: COSEAlgorithm
    package let signCount: UInt32
    package let aaguid: AAGUID
    package let userPresent: Bool
    package let userVerified: Bool
    package let backupEligible: Bool
    package let backupState: Bool
    package let attestationFormat: String
    package let attestationType: AttestationType

    package init(
        credentialID: CredentialID, publicKey: [UInt8], algorithm: COSEAlgorithm, signCount: UInt32, aaguid: AAGUID,
        userPresent: Bool, userVerified: Bool, backupEligible: Bool, backupState: Bool, attestationFormat: String,
        attestationType: AttestationType
    ) {
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.userPresent = userPresent
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.attestationFormat = attestationFormat
        self.attestationType = attestationType
    }
}

/// An authentication (assertion) response as the client sent it.
package struct AuthenticationResponse: Sendable {
    package var credentialID: CredentialID
    package var clientDataJSON: [UInt8]
    package var authenticatorData: [UInt8]
    package var signature: [UInt8]
    /// Nil when the client sent none (refused: this server identifies the account by it).
    package var userHandle: [UInt8]?

    package init(
        credentialID: CredentialID, clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]?
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// What the relying party expects of one sign-in, with the stored state of the credential.
package struct AuthenticationExpectation: Sendable {
    package var challenge: Challenge
    package var requireUserVerification: Bool
    /// The stored COSE_Key.
    package var publicKey: [UInt8]
    package var storedSignCount: UInt32
    /// BE as recorded at registration; nil when unknown (offline verification of a captured assertion).
    package var storedBackupEligible: Bool?
    /// The owner's user handle; nil skips the comparison (offline verification only).
    package var expectedUserHandle: UserHandle?
    /// Whether a missing userHandle is refused (`userHandleMissing`). The server always requires it.
    package var requireUserHandle: Bool

    package init(
        challenge: Challenge, requireUserVerification: Bool, publicKey: [UInt8], storedSignCount: UInt32,
        storedBackupEligible: Bool?, expectedUserHandle: UserHandle?, requireUserHandle: Bool
    ) {
        self.challenge = challenge
        self.requireUserVerification = requireUserVerification
        self.publicKey = publicKey
        self.storedSignCount = storedSignCount
        self.storedBackupEligible = storedBackupEligible
        self.expectedUserHandle = expectedUserHandle
        self.requireUserHandle = requireUserHandle
    }
}

/// An assertion that passed every check of WebAuthn L3 §7.2.
package struct VerifiedAuthentication: Hashable, Sendable {
    package let algorithm: COSEAlgorithm
    package let signCount: UInt32
    package let userPresent: Bool
    package let userVerified: Bool
    package let backupEligible: Bool
    package let backupState: Bool
    /// A synced (BE = 1) credential whose counter did not increase: accepted, but logged and counted.
    package let cloneWarning: Bool

    package init(
        algorithm: COSEAlgorithm, signCount: UInt32, userPresent: Bool, userVerified: Bool, backupEligible: Bool,
        backupState: Bool, cloneWarning: Bool
    ) {
        self.algorithm = algorithm
        self.signCount = signCount
        self.userPresent = userPresent
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.cloneWarning = cloneWarning
    }
}

/// Verifies WebAuthn registration and authentication responses (WebAuthn L3 §7.1, §7.2)
/// for one relying party configuration (RP ID, origins, algorithms, attestation policy).
package protocol CredentialVerifier: Sendable {
    func verifyRegistration(_ response: RegistrationResponse, expectation: RegistrationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedRegistration

    func verifyAuthentication(_ response: AuthenticationResponse, expectation: AuthenticationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedAuthentication
}
