/// The attestation statement formats of the IANA registry (WebAuthn L3 §8).
package enum AttestationStatementFormat: String, Sendable, CaseIterable {
    case none
    case packed
    case fidoU2F = "fido-u2f"
    case apple
    case tpm
    case androidKey = "android-key"
    case androidSafetyNet = "android-safetynet"
}
