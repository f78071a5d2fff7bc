/// SHA-256 of secrets that are stored only as digests (recovery codes).
package protocol SecretDigester: Sendable {
    func sha256(_ bytes: [UInt8]) -> [UInt8]
}
