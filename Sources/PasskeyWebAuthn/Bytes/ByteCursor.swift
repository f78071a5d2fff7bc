/// A bounds-checked reader over a byte array: every read returns nil instead of trapping.
struct ByteCursor {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    /// The unread bytes.
    var rest: ArraySlice<UInt8> { bytes[offset...] }

    /// The next `count` bytes, or nil when fewer remain.
    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}
