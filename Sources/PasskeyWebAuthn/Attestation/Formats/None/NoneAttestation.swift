internal import PasskeyApplication

/// `none` (WebAuthn L3 §8.7): attStmt must be the empty map.
enum NoneAttestation {
    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        guard case .map(let entries) = input.statement, entries.isEmpty else { throw .invalidAttestation }
        return AttestationResult(type: .none, trustPath: [])
    }
}
