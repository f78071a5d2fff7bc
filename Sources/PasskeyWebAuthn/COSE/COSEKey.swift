package import PasskeyDomain
package import PasskeyOpenSSL

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053, RFC 8230),
/// with its OpenSSL counterpart. WebAuthn L3 §6.5.1.1: `alg` is required and must fit `kty`/`crv`.
package struct COSEKey: Sendable {
    /// The key's parameters, as transmitted.
    package enum Parameters: Sendable, Hashable {
        case ec2(curve: EllipticCurve, x: [UInt8], y: [UInt8])
        case okp(x: [UInt8])
        case rsa(modulus: [UInt8], exponent: [UInt8])
    }

    package let algorithm: COSEAlgorithm
    package let parameters: Parameters
    package let publicKey: PublicKey

    /// The RSA moduli accepted (bits): below is weak, above costs a verifier CPU an attacker chooses.
    package static let rsaModulusBits = 2048...4096
    /// The only RSA public exponent accepted (F4, big-endian, no leading zeros): a large exponent
    /// makes every verification slow.
    package static let rsaExponent: [UInt8] = [0x01, 0x00, 0x01]

    /// Decodes a COSE_Key from its CBOR bytes (which must contain exactly one map).
    package init(bytes: [UInt8]) throws(COSEKeyError) {
        guard let value = try? CBORDecoder().decode(bytes) else { throw .malformed }
        try self.init(value)
    }

    /// Interprets a decoded CBOR map as a COSE_Key.
    package init(_ value: CBORValue) throws(COSEKeyError) {
        guard case .map = value, let kty = value[int: 1]?.integer, let algValue = value[int: 3]?.integer else {
            throw .malformed
        }
        guard let algorithm = COSEAlgorithm(rawValue: algValue) else { throw .unsupportedAlgorithm }
        let parameters: Parameters
        switch kty {
        case 2:  // EC2
            guard let crv = value[int: -1]?.integer, case .bytes(let x)? = value[int: -2],
                case .bytes(let y)? = value[int: -3]
            else { throw .malformed }
            let curve: EllipticCurve
            switch crv {
            case 1: curve = .p256
            case 2: curve = .p384
            case 3: curve = .p521
            default: throw .unsupportedAlgorithm
            }
            parameters = .ec2(curve: curve, x: x, y: y)
        case 1:  // OKP
            guard value[int: -1]?.integer == 6 else {
                throw value[int: -1]?.integer == nil ? .malformed : .unsupportedAlgorithm
            }
            guard case .bytes(let x)? = value[int: -2] else { throw .malformed }
            parameters = .okp(x: x)
        case 3:  // RSA
            guard case .bytes(let n)? = value[int: -1], case .bytes(let e)? = value[int: -2] else { throw .malformed }
            // Checked on the bytes, before OpenSSL sees the key and before any signature is computed.
            guard Self.rsaModulusBits.contains(Self.bitLength(n)), Array(e.drop(while: { $0 == 0 })) == Self.rsaExponent
            else { throw .unsupportedAlgorithm }
            parameters = .rsa(modulus: n, exponent: e)
        default:
            throw .unsupportedAlgorithm
        }
        guard Self.algorithm(algorithm, fits: parameters) else { throw .malformed }
        self.algorithm = algorithm
        self.parameters = parameters
        self.publicKey = try Self.makePublicKey(parameters)
    }

    /// The signature scheme `alg` names (RFC 9053 §2, RFC 8230 §2, RFC 8812 §2).
    package var signatureScheme: SignatureScheme { Self.scheme(for: algorithm) }

    /// Verifies a signature made with this credential key.
    package func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        publicKey.verify(signature: signature, message: message, scheme: signatureScheme)
    }

    package static func scheme(for algorithm: COSEAlgorithm) -> SignatureScheme {
        switch algorithm {
        case .es256: .ecdsa(.sha256)
        case .es384: .ecdsa(.sha384)
        case .es512: .ecdsa(.sha512)
        case .edDSA: .ed25519
        case .ps256: .rsaPSS(.sha256)
        case .ps384: .rsaPSS(.sha384)
        case .ps512: .rsaPSS(.sha512)
        case .rs256: .rsaPKCS1(.sha256)
        case .rs384: .rsaPKCS1(.sha384)
        case .rs512: .rsaPKCS1(.sha512)
        case .rs1: .rsaPKCS1(.sha1)
        }
    }

    /// The message digest `alg` signs with; nil for EdDSA (no pre-hash). The TPM attestation
    /// hashes attToBeSigned with it (WebAuthn L3 §8.3.2 step 3).
    package static func digest(for algorithm: COSEAlgorithm) -> Digest.Algorithm? {
        switch scheme(for: algorithm) {
        case .ecdsa(let digest), .rsaPKCS1(let digest), .rsaPSS(let digest): digest
        case .ed25519: nil
        }
    }

    private static func algorithm(_ algorithm: COSEAlgorithm, fits parameters: Parameters) -> Bool {
        switch (algorithm, parameters) {
        case (.es256, .ec2(.p256, _, _)), (.es384, .ec2(.p384, _, _)), (.es512, .ec2(.p521, _, _)): true
        case (.edDSA, .okp): true
        case (.ps256, .rsa), (.ps384, .rsa), (.ps512, .rsa), (.rs256, .rsa), (.rs384, .rsa), (.rs512, .rsa),
            (.rs1, .rsa):
            true
        default: false
        }
    }

    /// The number of significant bits of a big-endian unsigned integer (leading zero bytes ignored).
    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first) * 8 - bytes[first].leadingZeroBitCount
    }

    private static func makePublicKey(_ parameters: Parameters) throws(COSEKeyError) -> PublicKey {
        do {
            switch parameters {
            case .ec2(let curve, let x, let y):
                return try PublicKey.ec(curve: curve, x: x, y: y)
            case .okp(let x):
                return try PublicKey.ed25519(raw: x)
            case .rsa(let n, let e):
                let key = try PublicKey.rsa(modulus: n, exponent: e)
                guard case .rsa(let bits) = key.kind, rsaModulusBits.contains(bits) else {
                    throw COSEKeyError.malformed
                }
                return key
            }
        } catch {
            throw .malformed
        }
    }
}
