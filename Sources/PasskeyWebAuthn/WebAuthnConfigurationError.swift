/// A verifier configuration that cannot be used.
package enum WebAuthnConfigurationError: Error, Hashable, Sendable {
    /// A trust anchor is not a DER X.509 certificate (format key, or nil for all formats; index).
    case invalidTrustAnchor(format: String?, index: Int)
}
