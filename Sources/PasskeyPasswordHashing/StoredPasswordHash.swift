/// A stored password hash in one of the formats this server verifies, already checked against
/// the verification limits (parsing is cheap and happens before any work is queued).
enum StoredPasswordHash: Sendable {
    /// `$argon2id$v=19$m=…,t=…,p=…$salt$hash` (libsodium's, libargon2's and argon2-cffi's form).
    case argon2id(String)
    /// `$argon2i$v=19$…`: verifies, always rehashed to Argon2id.
    case argon2i(String)
    /// `$2a$`, `$2b$` or `$2y$` + two-digit cost + `$` + 53 bcrypt-base64 characters.
    case bcrypt(String)
    /// `$pbkdf2-sha256$…`: PBKDF2-HMAC-SHA256 with the decoded salt and expected hash.
    case pbkdf2SHA256(iterations: Int, salt: [UInt8], hash: [UInt8])

    /// The only PBKDF2-SHA256 hash length accepted: one SHA-256 block, as passlib writes.
    static let pbkdf2SHA256Length = 32

    /// No stored hash is longer than this (Argon2 strings from libsodium are under 128).
    static let maximumLength = 512

    /// The hash `text` describes, or nil when it is malformed, of an unknown kind, or costlier
    /// than `limits` allow.
    init?(parsing text: String, limits: Argon2PasswordHasher.VerificationLimits) {
        guard text.utf8.count <= Self.maximumLength, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count >= 2, fields[0].isEmpty else { return nil }
        switch fields[1] {
        case "argon2id", "argon2i":
            guard Self.argon2IsWithinLimits(fields, limits: limits) else { return nil }
            self = fields[1] == "argon2id" ? .argon2id(text) : .argon2i(text)
        case "2a", "2b", "2y":
            guard Self.bcryptIsWellFormed(fields, limits: limits) else { return nil }
            self = .bcrypt(text)
        case "pbkdf2-sha256":
            guard let parsed = Self.parsePBKDF2(fields, limits: limits) else { return nil }
            self = .pbkdf2SHA256(iterations: parsed.iterations, salt: parsed.salt, hash: parsed.hash)
        default:
            return nil
        }
    }

    /// `["", "argon2id", "v=19", "m=19456,t=2,p=1", salt, hash]` with m and t within limits;
    /// libsodium checks the rest (salt and hash lengths, p) itself.
    private static func argon2IsWithinLimits(
        _ fields: [Substring], limits: Argon2PasswordHasher.VerificationLimits
    ) -> Bool {
        guard fields.count == 6, fields[2] == "v=19" else { return false }
        let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard costs.count == 3,
            let memory = decimal(costs[0], after: "m="), let iterations = decimal(costs[1], after: "t="),
            decimal(costs[2], after: "p=") != nil
        else { return false }
        return memory <= limits.argon2MemoryKiB && iterations <= limits.argon2Iterations
            && !fields[4].isEmpty && !fields[5].isEmpty
    }

    /// `["", "2b", "10", "<22 salt><31 hash>"]` with a cost from 4 to the limit.
    private static func bcryptIsWellFormed(
        _ fields: [Substring], limits: Argon2PasswordHasher.VerificationLimits
    ) -> Bool {
        guard fields.count == 4, fields[2].utf8.count == 2, let cost = Int(fields[2]),
            cost >= 4, cost <= min(31, limits.bcryptCost), fields[3].utf8.count == 53
        else { return false }
        return fields[3].utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: false
            }
        }
    }

    /// `["", "pbkdf2-sha256", "29000" or "i=29000", salt, hash]`: passlib's form (bare rounds,
    /// ab64) or the PHC form (`i=`, standard base64), both unpadded. Salt 1–1024 bytes,
    /// iterations 1 to the limit, hash exactly 32 bytes: PBKDF2 output is a prefix of any longer
    /// output, so accepting shorter hashes would let a truncated hash verify.
    private static func parsePBKDF2(
        _ fields: [Substring], limits: Argon2PasswordHasher.VerificationLimits
    ) -> (iterations: Int, salt: [UInt8], hash: [UInt8])? {
        guard fields.count == 5 else { return nil }
        let rounds = fields[2].hasPrefix("i=") ? decimal(fields[2], after: "i=") : decimal(fields[2], after: "")
        guard let rounds, rounds >= 1, rounds <= limits.pbkdf2Iterations,
            let salt = PHCBase64.decode(fields[3]), (1...1024).contains(salt.count),
            let hash = PHCBase64.decode(fields[4]), hash.count == Self.pbkdf2SHA256Length
        else { return nil }
        return (rounds, salt, hash)
    }

    /// The value of `prefix` followed by 1–10 ASCII digits, or nil.
    private static func decimal(_ field: Substring, after prefix: String) -> Int? {
        guard field.hasPrefix(prefix) else { return nil }
        let digits = field.dropFirst(prefix.count)
        guard (1...10).contains(digits.utf8.count),
            digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(digits)
    }
}
