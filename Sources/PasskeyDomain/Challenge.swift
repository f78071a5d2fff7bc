/// The random bytes a relying party asks an authenticator to sign. Compared byte for byte.
package struct Challenge: Hashable, Sendable {
    /// Challenges this server issues are 32 bytes (WebAuthn asks for at least 16).
    package static let length = 32
    package let bytes: [UInt8]
    package init(bytes: [UInt8]) { self.bytes = bytes }
}
