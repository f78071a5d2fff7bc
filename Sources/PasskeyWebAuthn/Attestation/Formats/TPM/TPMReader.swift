/// Reads the big-endian TPM 2.0 wire format (TPM 2.0 Part 2 "Structures"): fixed-size
/// integers and TPM2B sized buffers, bounds-checked (every read returns nil instead of trapping).
struct TPMReader {
    private var cursor: ByteCursor

    init(_ bytes: [UInt8]) { cursor = ByteCursor(bytes) }

    var isAtEnd: Bool { cursor.isAtEnd }

    mutating func uint8() -> UInt8? { cursor.take(1)?.first }

    mutating func uint16() -> UInt16? {
        guard let bytes = cursor.take(2) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func uint32() -> UInt32? {
        guard let bytes = cursor.take(4) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() -> UInt64? {
        guard let bytes = cursor.take(8) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A TPM2B_* buffer: UINT16 size, then that many bytes; nil when longer than `maximum`
    /// (the size of the union the TPM2B wraps) or truncated.
    mutating func sized(maximum: Int) -> [UInt8]? {
        guard let size = uint16(), Int(size) <= maximum else { return nil }
        return cursor.take(Int(size))
    }
}
