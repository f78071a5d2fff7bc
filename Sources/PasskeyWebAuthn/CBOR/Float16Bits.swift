/// IEEE 754 half-precision decoding (RFC 8949 Appendix D), without relying on `Float16`
/// (unavailable on some platforms).
enum Float16Bits {
    static func decode(_ bits: UInt16) -> Float {
        let exponent = Int((bits >> 10) & 0x1f)
        let mantissa = Float(bits & 0x3ff)
        let magnitude: Float
        switch exponent {
        case 0: magnitude = mantissa * 0x1p-24
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = (1 + mantissa / 1024) * Float(sign: .plus, exponent: exponent - 15, significand: 1)
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }
}
