/// The attestation statement formats of the IANA registry (WebAuthn L3 §8).
package enum AttestationStatementFormat: String, Sendable, CaseIterable {
    case none
    case packed
    case fidoU2F = "fido-u2f"
    case apple
    case tpm
    case androidKey = "android-key"
    case androidSafetyNet = "android-safetynet"

    /// Formats whose verification procedure is implemented (the others are a later issue).
    package var isImplemented: Bool {
        switch self {
        case .none, .packed, .fidoU2F, .apple: true
        case .tpm, .androidKey, .androidSafetyNet: false
        }
    }
}
