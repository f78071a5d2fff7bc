import PasskeyApplication
import PasskeyWebAuthn

/// How the vectors' `expected.error` codes map to our failure reasons, and the decisions
/// documented in docs/webauthn.md.
enum VectorExpectation {
    /// Vectors that chain only to a root the shipped `TrustAnchors/` folder leaves out on purpose
    /// (the Android software attestation root: no hardware assurance).
    static let untrustedWithShippedAnchors: Set<String> = ["android-key-es256-software-keystore"]

    /// Vectors whose outcome we decided differently from py_webauthn (see docs/webauthn.md).
    /// Token Binding is gone from WebAuthn L3: the member is ignored, so the response verifies.
    static let acceptedDespiteExpectation: Set<String> = ["fido-u2f-yubico-tokenbinding-not-supported"]

    /// The reasons acceptable for one vector error code.
    static func reasons(for code: String) -> Set<CredentialVerificationFailure> {
        switch code {
        case "wrong-origin": [.originMismatch]
        case "wrong-rp-id-hash": [.rpIdHashMismatch]
        case "challenge-mismatch": [.challengeMismatch]
        case "wrong-type": [.typeMismatch]
        // Clearing UP in an assertion also breaks its signature: both are valid (README).
        case "up-not-set": [.userPresentFlagNotSet, .signatureInvalid]
        case "uv-not-set": [.userVerifiedFlagNotSet]
        case "bad-signature": [.signatureInvalid]
        case "bad-attestation-signature", "bad-attestation": [.invalidAttestation]
        case "unsupported-alg": [.unsupportedAlgorithm]
        case "unsupported-attestation-format": [.unsupportedAttestationFormat]
        case "sign-count-not-increased": [.signCountRegressed]
        case "malformed": [.malformedAuthenticatorData, .malformedAttestationObject]
        default: []
        }
    }
}
