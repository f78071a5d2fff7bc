internal import PasskeyOpenSSL

/// TPM_ALG_ID values (TCG Algorithm Registry, TPM 2.0 Part 2 §6.3) the TPM attestation needs.
enum TPMAlgorithm {
    static let rsa: UInt16 = 0x0001
    static let sha1: UInt16 = 0x0004
    static let sha256: UInt16 = 0x000b
    static let sha384: UInt16 = 0x000c
    static let sha512: UInt16 = 0x000d
    static let null: UInt16 = 0x0010
    static let ecdaa: UInt16 = 0x001a
    static let ecc: UInt16 = 0x0023

    /// The hash function of a TPM hash algorithm ID (a `nameAlg`), or nil.
    static func digest(_ id: UInt16) -> Digest.Algorithm? {
        switch id {
        case sha1: .sha1
        case sha256: .sha256
        case sha384: .sha384
        case sha512: .sha512
        default: nil
        }
    }

    /// TPM_ECC_CURVE (TPM 2.0 Part 2 §6.4) to the curves WebAuthn uses.
    static func curve(_ id: UInt16) -> EllipticCurve? {
        switch id {
        case 0x0003: .p256
        case 0x0004: .p384
        case 0x0005: .p521
        default: nil
        }
    }
}
