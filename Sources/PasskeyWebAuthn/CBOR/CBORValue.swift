/// One decoded CBOR data item (RFC 8949), as far as WebAuthn needs them.
package indirect enum CBORValue: Hashable, Sendable {
    case unsigned(UInt64)
    /// A negative integer, stored as the CBOR argument `n` of the value `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Entries in encoded order; keys are unique (the decoder refuses duplicates).
    case map([CBORMapEntry])
    case tagged(UInt64, CBORValue)
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// The value as a Swift integer when it is a CBOR integer that fits.
    package var integer: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    /// The looked-up value of a map entry with this key (nil for non-maps or missing keys).
    package subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// Shorthand for integer keys (COSE labels).
    package subscript(int key: Int) -> CBORValue? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    /// Shorthand for text keys.
    package subscript(text key: String) -> CBORValue? { self[.text(key)] }
}
