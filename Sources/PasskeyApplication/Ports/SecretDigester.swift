/// SHA-256 of secrets that are stored or configured only as digests (recovery codes, the
/// metrics token), and their comparison.
package protocol SecretDigester: Sendable {
    func sha256(_ bytes: [UInt8]) -> [UInt8]

    /// Equality of two digests in time that depends on their length only.
    func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool
}
