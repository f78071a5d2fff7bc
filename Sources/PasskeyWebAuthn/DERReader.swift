/// A minimal strict DER TLV reader for the few certificate extension values WebAuthn
/// inspects (AAGUID, Apple nonce). Definite short/long lengths only, bounds-checked.
struct DERReader {
    private var cursor: ByteCursor

    init(_ bytes: [UInt8]) { cursor = ByteCursor(bytes) }

    var isAtEnd: Bool { cursor.isAtEnd }

    /// The next element's tag and contents, or nil when malformed or truncated.
    mutating func next() -> (tag: UInt8, contents: [UInt8])? {
        guard let tag = cursor.take(1)?.first, let first = cursor.take(1)?.first else { return nil }
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7f)
            guard count >= 1, count <= 3, let bytes = cursor.take(count), bytes.first != 0 else { return nil }
            length = bytes.reduce(0) { $0 << 8 | Int($1) }
            guard length >= 0x80 else { return nil }  // DER: shortest form
        }
        guard let contents = cursor.take(length) else { return nil }
        return (tag, contents)
    }

    /// The contents of `bytes` when it is exactly one element with `tag`.
    static func single(_ bytes: [UInt8], tag: UInt8) -> [UInt8]? {
        var reader = DERReader(bytes)
        guard let element = reader.next(), element.tag == tag, reader.isAtEnd else { return nil }
        return element.contents
    }
}
