/// A tiny CBOR encoder (definite lengths, shortest heads) for building authenticator output
/// in tests. Deliberately independent of the verifier's decoder.
package indirect enum SoftwareAuthenticatorCBOR: Sendable {
    case int(Int)
    case bytes([UInt8])
    case text(String)
    case array([SoftwareAuthenticatorCBOR])
    /// Entries in the given order (duplicates are allowed here, to build bad input).
    case map([(SoftwareAuthenticatorCBOR, SoftwareAuthenticatorCBOR)])
    case bool(Bool)
    case null

    /// The encoded bytes.
    package var encoded: [UInt8] {
        switch self {
        case .int(let value):
            value >= 0 ? Self.head(0, UInt64(value)) : Self.head(1, UInt64(-1 - value))
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text):
            Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items):
            Self.head(4, UInt64(items.count)) + items.flatMap(\.encoded)
        case .map(let entries):
            Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.0.encoded + $0.1.encoded }
        case .bool(let value):
            [value ? 0xf5 : 0xf4]
        case .null:
            [0xf6]
        }
    }

    /// A CBOR head with the shortest argument encoding.
    package static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24, UInt8(argument)]
        case 0x100..<0x10000: return [type | 25] + bigEndian(argument, count: 2)
        case 0x10000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, count: 4)
        default: return [type | 27] + bigEndian(argument, count: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
