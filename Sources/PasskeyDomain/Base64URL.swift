/// base64url (RFC 4648 §5). Foundation on Linux has no base64url, hence this small codec.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes without padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            if index + 1 < bytes.count { output.append(alphabet[Int((b1 & 0x0f) << 2 | b2 >> 6)]) }
            if index + 2 < bytes.count { output.append(alphabet[Int(b2 & 0x3f)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url. With `lenient`, also accepts padding and the standard alphabet
    /// (`+`, `/`). Non-zero leftover bits and impossible lengths are refused.
    package static func decode(_ text: String, lenient: Bool = false) -> [UInt8]? {
        var symbols = Array(text.utf8)
        if lenient {
            while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        }
        guard symbols.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = sextet(symbol, lenient: lenient) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero (canonical encoding).
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static func sextet(_ symbol: UInt8, lenient: Bool) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        case UInt8(ascii: "+") where lenient: 62
        case UInt8(ascii: "/") where lenient: 63
        default: nil
        }
    }
}
