import PasskeyApplication

/// A `SecretDigester` whose digest is the input zero-padded to 32 bytes: as long as a SHA-256,
/// which is what the tables check (`octet_length(code_digest) = 32`), and readable back like
/// `PlainDigester`'s. The inputs here (a recovery code's 16 characters; an email code's row ID
/// and 6 digits) are shorter than 32 bytes and of a fixed length each, so distinct secrets keep
/// distinct digests.
struct PaddedDigester: SecretDigester {
    func sha256(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count <= 32, "PaddedDigester takes at most 32 bytes")
        return bytes + Array(repeating: 0, count: 32 - bytes.count)
    }

    /// Plain equality: a fake needs no constant time.
    func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }
}
