internal import PasskeyApplication
internal import PasskeyOpenSSL

/// The `x5c` member of an attestation statement: a non-empty array of DER certificates,
/// attestation certificate first (WebAuthn L3 §8.2, §8.6, §8.8).
enum X5CChain {
    /// Longest chain accepted.
    static let maximumLength = 8

    /// Parses `x5c`; nil when absent, `invalidAttestation` when present but not usable.
    static func parse(_ statement: CBORValue) throws(CredentialVerificationFailure) -> [Certificate]? {
        guard let value = statement[text: "x5c"] else { return nil }
        guard case .array(let items) = value, !items.isEmpty, items.count <= maximumLength else {
            throw .invalidAttestation
        }
        var certificates: [Certificate] = []
        for item in items {
            guard case .bytes(let der) = item, let certificate = try? Certificate(der: der) else {
                throw .invalidAttestation
            }
            certificates.append(certificate)
        }
        return certificates
    }
}
