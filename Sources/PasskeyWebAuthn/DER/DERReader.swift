/// A minimal strict DER reader (X.690 §8, §10) for the certificate extension values and
/// attestation structures WebAuthn inspects (AAGUID, Apple nonce, TPM SAN and EKU, Android
/// KeyDescription). Definite lengths in shortest form only (at most 3 length bytes), tag
/// numbers below 2^21 in shortest form, every read bounds-checked: malformed input gives nil.
struct DERReader {
    /// Most elements `elements(_:)` returns, so that hostile input cannot make huge arrays.
    static let maximumElementCount = 256

    private var cursor: ByteCursor

    init(_ bytes: [UInt8]) { cursor = ByteCursor(bytes) }

    var isAtEnd: Bool { cursor.isAtEnd }

    /// The next element, or nil when malformed or truncated.
    mutating func nextElement() -> DERElement? {
        guard let identifier = cursor.take(1)?.first else { return nil }
        var number = UInt32(identifier & 0x1f)
        if number == 0x1f {
            // High-tag-number form (X.690 §8.1.2.4): base-128, no leading 0x80 group, ≤ 3 groups.
            number = 0
            var groups = 0
            while true {
                guard groups < 3, let byte = cursor.take(1)?.first else { return nil }
                if groups == 0 && byte == 0x80 { return nil }
                number = number << 7 | UInt32(byte & 0x7f)
                groups += 1
                if byte & 0x80 == 0 { break }
            }
            guard number >= 0x1f else { return nil }
        }
        guard let length = readLength(), let contents = cursor.take(length) else { return nil }
        return DERElement(identifier: identifier, tagNumber: number, contents: contents)
    }

    /// The next element's identifier byte and contents (low tag numbers only).
    mutating func next() -> (tag: UInt8, contents: [UInt8])? {
        guard let element = nextElement(), element.tagNumber < 0x1f else { return nil }
        return (element.identifier, element.contents)
    }

    private mutating func readLength() -> Int? {
        guard let first = cursor.take(1)?.first else { return nil }
        if first < 0x80 { return Int(first) }
        let count = Int(first & 0x7f)
        guard count >= 1, count <= 3, let bytes = cursor.take(count), bytes.first != 0 else { return nil }
        let length = bytes.reduce(0) { $0 << 8 | Int($1) }
        return length >= 0x80 ? length : nil  // DER: shortest form
    }

    /// The contents of `bytes` when it is exactly one element with identifier `tag`.
    static func single(_ bytes: [UInt8], tag: UInt8) -> [UInt8]? {
        var reader = DERReader(bytes)
        guard let element = reader.next(), element.tag == tag, reader.isAtEnd else { return nil }
        return element.contents
    }

    /// Every element of `bytes` in order (e.g. the contents of a SEQUENCE), or nil when one is
    /// malformed or there are more than `maximumElementCount`.
    static func elements(_ bytes: [UInt8]) -> [DERElement]? {
        var reader = DERReader(bytes)
        var elements: [DERElement] = []
        while !reader.isAtEnd {
            guard elements.count < maximumElementCount, let element = reader.nextElement() else { return nil }
            elements.append(element)
        }
        return elements
    }
}
