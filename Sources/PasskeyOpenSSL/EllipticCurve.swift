/// The NIST curves WebAuthn uses for ECDSA (COSE EC2 `crv` 1, 2, 3).
package enum EllipticCurve: Sendable, Hashable, CaseIterable {
    case p256, p384, p521

    /// OpenSSL's group name.
    var groupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        }
    }

    /// Bytes of one affine coordinate.
    package var coordinateLength: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// Maps OpenSSL's group names (both spellings) back to a curve.
    init?(groupName: String) {
        switch groupName {
        case "prime256v1", "P-256", "secp256r1": self = .p256
        case "secp384r1", "P-384": self = .p384
        case "secp521r1", "P-521": self = .p521
        default: return nil
        }
    }
}
