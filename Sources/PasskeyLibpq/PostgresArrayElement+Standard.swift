extension UInt8: PostgresArrayElement {
    package static func acceptsArray(_ type: PostgresDataType) -> Bool { type == .bytea }

    /// `bytea` in hex output format (`\x0a1b…`).
    package static func decodeArray(postgresText text: UnsafeBufferPointer<UInt8>, column: String)
        throws(PostgresError) -> [UInt8]
    {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            throw [UInt8].malformed(column)
        }
        var out = [UInt8]()
        out.reserveCapacity((text.count - 2) / 2)
        var i = 2
        while i < text.count {
            guard let hi = nibble(text[i]), let lo = nibble(text[i + 1]) else { throw [UInt8].malformed(column) }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}

extension String: PostgresArrayElement {
    package static func acceptsArray(_ type: PostgresDataType) -> Bool { type == .textArray || type == .varcharArray }

    /// A one-dimensional array in text output format: `{}`, `{usb,nfc}`, `{"a b","x\"y",""}`.
    /// A NULL element, a nested array or explicit bounds (`[0:1]={…}`) throw.
    package static func decodeArray(postgresText text: UnsafeBufferPointer<UInt8>, column: String)
        throws(PostgresError) -> [String]
    {
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        let comma = UInt8(ascii: ",")
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        guard text.count >= 2, text[0] == open, text[text.count - 1] == close else { throw [String].malformed(column) }
        let end = text.count - 1
        guard end > 1 else { return [] }
        var elements: [String] = []
        var i = 1
        while true {
            var element: [UInt8] = []
            if text[i] == quote {
                i += 1
                while true {
                    guard i < end else { throw [String].malformed(column) }
                    if text[i] == quote { break }
                    if text[i] == backslash { i += 1 }
                    guard i < end else { throw [String].malformed(column) }
                    element.append(text[i])
                    i += 1
                }
                i += 1
            } else {
                let start = i
                while i < end, text[i] != comma {
                    guard text[i] != open, text[i] != quote else { throw [String].malformed(column) }
                    i += 1
                }
                element = Array(text[start..<i])
                guard !element.isEmpty else { throw [String].malformed(column) }
                if String(decoding: element, as: UTF8.self).uppercased() == "NULL" {
                    throw PostgresError(
                        kind: .decoding, column: column, diagnostic: "column \(column) has a NULL element")
                }
            }
            elements.append(String(decoding: element, as: UTF8.self))
            if i == end { return elements }
            guard text[i] == comma else { throw [String].malformed(column) }
            i += 1
        }
    }
}
