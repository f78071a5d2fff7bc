/// COSE algorithm identifiers a passkey may use (IANA COSE Algorithms registry).
package enum COSEAlgorithm: Int, Hashable, Sendable, CaseIterable {
    case es256 = -7
    case edDSA = -8
    case es384 = -35
    case es512 = -36
    case ps256 = -37
    case ps384 = -38
    case ps512 = -39
    case rs256 = -257
    case rs384 = -258
    case rs512 = -259
    case rs1 = -65535

    /// The name used in configuration (`PASSKEY_ALGORITHMS`).
    package var name: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        case .es384: "ES384"
        case .es512: "ES512"
        case .ps256: "PS256"
        case .ps384: "PS384"
        case .ps512: "PS512"
        case .rs256: "RS256"
        case .rs384: "RS384"
        case .rs512: "RS512"
        case .rs1: "RS1"
        }
    }

    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }
}
