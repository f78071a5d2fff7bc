/// The family of a public key, as far as WebAuthn cares.
package enum PublicKeyKind: Sendable, Hashable {
    case ec(EllipticCurve)
    case ed25519
    case rsa(bits: Int)
    case other
}
