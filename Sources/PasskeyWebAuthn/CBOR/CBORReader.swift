/// A bounds-checked cursor over CBOR input. Every read checks the remaining length.
struct CBORReader {
    private let bytes: ArraySlice<UInt8>
    /// Bytes consumed so far.
    private(set) var offset = 0

    init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated }
        let value = bytes[bytes.startIndex + offset]
        offset += 1
        return value
    }

    mutating func take(_ count: Int) throws(CBORError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw .truncated }
        let start = bytes.startIndex + offset
        offset += count
        return Array(bytes[start..<(start + count)])
    }

    /// A big-endian unsigned integer of `count` (≤ 8) bytes.
    mutating func bigEndian(_ count: Int) throws(CBORError) -> UInt64 {
        guard count <= remaining else { throw .truncated }
        var value: UInt64 = 0
        for _ in 0..<count { value = value << 8 | UInt64(try byte()) }
        return value
    }

    /// The argument of a major type 0–6 head (RFC 8949 §3).
    mutating func argument(info: UInt8) throws(CBORError) -> UInt64 {
        switch info {
        case 0...23: return UInt64(info)
        case 24: return try bigEndian(1)
        case 25: return try bigEndian(2)
        case 26: return try bigEndian(4)
        case 27: return try bigEndian(8)
        case 31: throw .indefiniteLength
        default: throw .reservedEncoding
        }
    }
}
