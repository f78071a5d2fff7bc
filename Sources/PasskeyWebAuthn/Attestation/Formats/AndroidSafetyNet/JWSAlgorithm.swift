internal import PasskeyOpenSSL

/// The JWS `alg` values (RFC 7518 §3.1) accepted for a SafetyNet response signature.
enum JWSAlgorithm: String {
    case rs256 = "RS256"
    case rs384 = "RS384"
    case rs512 = "RS512"
    case ps256 = "PS256"
    case ps384 = "PS384"
    case ps512 = "PS512"
    case es256 = "ES256"
    case es384 = "ES384"
    case es512 = "ES512"

    var scheme: SignatureScheme {
        switch self {
        case .rs256: .rsaPKCS1(.sha256)
        case .rs384: .rsaPKCS1(.sha384)
        case .rs512: .rsaPKCS1(.sha512)
        case .ps256: .rsaPSS(.sha256)
        case .ps384: .rsaPSS(.sha384)
        case .ps512: .rsaPSS(.sha512)
        case .es256: .ecdsa(.sha256)
        case .es384: .ecdsa(.sha384)
        case .es512: .ecdsa(.sha512)
        }
    }

    /// JWS ECDSA signatures are the fixed-size R ‖ S (RFC 7518 §3.4), not DER: the length of one
    /// of them, or nil for RSA.
    var ecdsaCoordinateLength: Int? {
        switch self {
        case .es256: EllipticCurve.p256.coordinateLength
        case .es384: EllipticCurve.p384.coordinateLength
        case .es512: EllipticCurve.p521.coordinateLength
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: nil
        }
    }

    /// The signature in the form OpenSSL verifies: RSA as is, ECDSA re-encoded as an
    /// `Ecdsa-Sig-Value` DER SEQUENCE of two INTEGERs. Nil when an ECDSA signature has the wrong size.
    func opensslSignature(_ signature: [UInt8]) -> [UInt8]? {
        guard let length = ecdsaCoordinateLength else { return signature }
        guard signature.count == 2 * length else { return nil }
        let r = Self.derInteger(Array(signature.prefix(length)))
        let s = Self.derInteger(Array(signature.suffix(length)))
        return Self.derElement(tag: 0x30, r + s)
    }

    /// A non-negative big-endian integer as a minimal DER INTEGER.
    private static func derInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.first.map({ $0 & 0x80 != 0 }) ?? true { bytes.insert(0, at: 0) }
        return derElement(tag: 0x02, bytes)
    }

    /// Tag, definite length (short or one/two-byte long form), contents.
    private static func derElement(tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        let count = contents.count
        let length: [UInt8] =
            count < 0x80
            ? [UInt8(count)]
            : count <= 0xff ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xff)]
        return [tag] + length + contents
    }
}
