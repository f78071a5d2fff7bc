/// A WebAuthn credential ID: 1 to 1023 raw bytes (WebAuthn L3 §7.1 step 19 limits it).
package struct CredentialID: Hashable, Sendable {
    /// The longest credential ID the contract accepts.
    package static let maximumLength = 1023

    package let bytes: [UInt8]

    package init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else { return nil }
        self.bytes = bytes
    }
}
