/// How a signature is computed: the key family and the message digest.
package enum SignatureScheme: Sendable, Hashable {
    /// ECDSA with a DER-encoded `Ecdsa-Sig-Value` (what WebAuthn transmits).
    case ecdsa(Digest.Algorithm)
    /// Pure Ed25519 (no pre-hash).
    case ed25519
    /// RSASSA-PKCS1-v1_5.
    case rsaPKCS1(Digest.Algorithm)
    /// RSASSA-PSS with MGF1 of the same digest and a salt as long as the digest (RFC 8230).
    case rsaPSS(Digest.Algorithm)

    var digest: Digest.Algorithm? {
        switch self {
        case .ecdsa(let d), .rsaPKCS1(let d), .rsaPSS(let d): d
        case .ed25519: nil
        }
    }
}
