/// Decodes the salt and hash fields of PHC-style strings: base64 without padding, where the
/// 62nd symbol may be `+` (standard, PHC) or `.` (passlib's "ab64"); `/` is the 63rd.
enum PHCBase64 {
    /// The bytes, or nil for any other character (including `=`) or an impossible length.
    /// Unused low bits of the last symbol are ignored, as Python's decoder does.
    static func decode(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = sextet(character) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // A lone trailing symbol (length ≡ 1 mod 4) carries fewer than 8 bits: not base64.
        guard bits < 6 else { return nil }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "."): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
