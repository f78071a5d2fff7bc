/// Why a registration or authentication response was refused. The raw value is the
/// contract's `reason` (registration bodies and every ceremony log line).
package enum CredentialVerificationFailure: String, Error, Hashable, Sendable, CaseIterable {
    case userPresentFlagNotSet
    case userVerifiedFlagNotSet
    case originMismatch
    case crossOriginNotAllowed
    case topOriginNotAllowed
    case rpIdHashMismatch
    case challengeMismatch
    case typeMismatch
    case backupStateWithoutEligibility
    case attestedCredentialDataMissing
    case credentialIdTooLong
    case credentialIdMismatch
    case unsupportedAlgorithm
    case unsupportedAttestationFormat
    case invalidAttestation
    case untrustedAttestation
    case malformedAttestationObject
    case malformedAuthenticatorData
    case malformedClientData
    // Authentication only (logged, answered as `authentication-failed`).
    case signatureInvalid
    case signCountRegressed
    case userHandleMismatch
    case userHandleMissing
    case backupEligibilityChanged

    /// The `reason` string of the contract.
    package var reason: String { rawValue }
}
