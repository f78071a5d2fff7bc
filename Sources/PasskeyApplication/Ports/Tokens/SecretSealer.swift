/// Secrets kept at rest under `DATA_ENCRYPTION_KEY` (the token signing keys; next, the webhook
/// secrets): sealed with an authenticated cipher, each box bound to what it belongs to
/// (`context`, e.g. a key's ID), so a box copied to another row does not open.
package protocol SecretSealer: Sendable {
    func seal(_ secret: [UInt8], context: String) throws(SecretSealingError) -> [UInt8]
    /// Nil when the box does not open: another key, another context, or any byte changed.
    func open(_ box: [UInt8], context: String) -> [UInt8]?
}

/// Sealing failed (the cryptographic library refused); `cause` is for the operator's log.
package struct SecretSealingError: Error, Hashable, Sendable {
    package let cause: String

    package init(cause: String) { self.cause = cause }
}
