/// A recovery code: 80 bits from the CSPRNG written as 16 Crockford base32 characters, shown in
/// groups of four for reading aloud (`7KQ4-M2XD-9TPA-WB3E`). Input is case-insensitive, hyphens
/// and spaces are ignored, and Crockford's look-alikes are read as the digits they resemble
/// (`O` → `0`, `I`/`L` → `1`). Only a digest of `canonical` is ever stored.
package struct RecoveryCode: Hashable, Sendable {
    /// Random bytes per code: 80 bits.
    package static let byteCount = 10
    /// Characters per code (5 bits each).
    package static let characterCount = 16

    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The 16 upper-case characters without separators: what the digest is taken of.
    package let canonical: String

    /// The code for 10 random bytes.
    package init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount, "a recovery code takes exactly 10 bytes")
        var bits = 0
        var buffer: UInt32 = 0
        var characters: [UInt8] = []
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                characters.append(Self.alphabet[Int(buffer >> UInt32(bits) & 0x1f)])
            }
        }
        canonical = String(decoding: characters, as: UTF8.self)
    }

    /// The code a person typed, or nil when it cannot be one (wrong length or characters).
    package init?(presented: String) {
        guard presented.utf8.count <= 64 else { return nil }
        var characters: [UInt8] = []
        for byte in presented.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: " "): continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"): characters.append(Self.canonicalCharacter(byte - 32))
            default: characters.append(Self.canonicalCharacter(byte))
            }
        }
        guard characters.count == Self.characterCount, characters.allSatisfy(Self.alphabet.contains) else {
            return nil
        }
        canonical = String(decoding: characters, as: UTF8.self)
    }

    /// `XXXX-XXXX-XXXX-XXXX`, for showing.
    package var formatted: String {
        let characters = Array(canonical)
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<$0 + 4]) }
            .joined(separator: "-")
    }

    /// Crockford's decoding of look-alike letters.
    private static func canonicalCharacter(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "O"): UInt8(ascii: "0")
        case UInt8(ascii: "I"), UInt8(ascii: "L"): UInt8(ascii: "1")
        default: byte
        }
    }
}

/// Who issued a recovery code.
package enum RecoveryCodeSource: String, Hashable, Sendable {
    /// One of the user's own set of 10.
    case user
    /// Issued by a support agent (`passkey-server recovery-code EMAIL`), valid 24 hours.
    case `operator`
}
