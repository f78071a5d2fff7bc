internal import PasskeyOpenSSL

/// `pubArea` of a TPM attestation statement: a TPMT_PUBLIC (TPM 2.0 Part 2 §12.2.4) of an RSA
/// or ECC key, parsed exactly (WebAuthn L3 §8.3).
package struct TPMTPublic {
    /// The public key in `parameters` and `unique`.
    enum Key: Equatable {
        /// Modulus as in `unique` (big-endian) and the public exponent (0 in the structure means 2^16 + 1).
        case rsa(modulus: [UInt8], exponent: UInt32)
        case ecc(curve: EllipticCurve, x: [UInt8], y: [UInt8])
    }

    /// Largest pubArea accepted: a 4096-bit RSA key with a full policy digest is about 600 bytes.
    static let maximumLength = 2048
    static let maximumDigestLength = 64
    static let maximumRSAModulusLength = 512
    static let maximumECCParameterLength = 66

    let type: UInt16
    /// The hash algorithm of the object's Name.
    let nameAlgorithm: UInt16
    let objectAttributes: UInt32
    let key: Key
    /// The bytes parsed, which the Name hashes.
    let rawBytes: [UInt8]

    /// Parses pubArea; nil unless it is a complete RSA or ECC TPMT_PUBLIC without trailing bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength else { return nil }
        var reader = TPMReader(bytes)
        guard let type = reader.uint16(), let nameAlgorithm = reader.uint16(),
            let objectAttributes = reader.uint32(),
            reader.sized(maximum: Self.maximumDigestLength) != nil,  // authPolicy
            Self.skipSymmetric(&reader)
        else { return nil }
        let key: Key
        switch type {
        case TPMAlgorithm.rsa:
            // TPMS_RSA_PARMS (§12.2.3.5): symmetric, scheme, keyBits, exponent; unique: TPM2B_PUBLIC_KEY_RSA.
            guard Self.skipScheme(&reader), let keyBits = reader.uint16(), let exponent = reader.uint32(),
                let modulus = reader.sized(maximum: Self.maximumRSAModulusLength),
                modulus.count * 8 == Int(keyBits)
            else { return nil }
            key = .rsa(modulus: modulus, exponent: exponent == 0 ? 65537 : exponent)
        case TPMAlgorithm.ecc:
            // TPMS_ECC_PARMS (§12.2.3.6): symmetric, scheme, curveID, kdf; unique: TPMS_ECC_POINT.
            guard Self.skipScheme(&reader), let curveID = reader.uint16(), let curve = TPMAlgorithm.curve(curveID),
                Self.skipScheme(&reader),
                let x = reader.sized(maximum: Self.maximumECCParameterLength),
                let y = reader.sized(maximum: Self.maximumECCParameterLength)
            else { return nil }
            key = .ecc(curve: curve, x: x, y: y)
        default:
            return nil
        }
        guard reader.isAtEnd else { return nil }
        self.type = type
        self.nameAlgorithm = nameAlgorithm
        self.objectAttributes = objectAttributes
        self.key = key
        self.rawBytes = bytes
    }

    /// The object's Name (TPM 2.0 Part 1 §16): nameAlg ‖ H_nameAlg(pubArea); nil for an unknown nameAlg.
    var name: [UInt8]? {
        guard let digest = TPMAlgorithm.digest(nameAlgorithm) else { return nil }
        return [UInt8(nameAlgorithm >> 8), UInt8(nameAlgorithm & 0xff)] + Digest.hash(digest, rawBytes)
    }

    /// TPMT_SYM_DEF_OBJECT: algorithm, then keyBits and mode unless TPM_ALG_NULL.
    private static func skipSymmetric(_ reader: inout TPMReader) -> Bool {
        guard let algorithm = reader.uint16() else { return false }
        if algorithm == TPMAlgorithm.null { return true }
        return reader.uint16() != nil && reader.uint16() != nil
    }

    /// TPMT_RSA_SCHEME, TPMT_ECC_SCHEME or TPMT_KDF_SCHEME: scheme, then its hashAlg unless
    /// TPM_ALG_NULL (ECDAA also carries a count).
    private static func skipScheme(_ reader: inout TPMReader) -> Bool {
        guard let scheme = reader.uint16() else { return false }
        if scheme == TPMAlgorithm.null { return true }
        guard reader.uint16() != nil else { return false }
        return scheme != TPMAlgorithm.ecdaa || reader.uint16() != nil
    }
}
