package import Foundation
package import PasskeyDomain

/// Makes mailed codes and checks presented ones (spec v3, "Codes"): 6 digits from the CSPRNG,
/// uniform (rejection sampling, no modulo bias); at rest only the SHA-256 of the code row's ID
/// followed by the code, so equal codes of two rows never share a digest; compared in constant
/// time.
package struct EmailCodeMaker: Sendable {
    static let range: UInt32 = 1_000_000
    /// The largest multiple of `range` that fits in 32 bits: values at or above it are drawn again.
    static let acceptedBelow: UInt64 = (UInt64(UInt32.max) + 1) / UInt64(range) * UInt64(range)

    let random: any RandomGenerator
    let digester: any SecretDigester

    package init(random: any RandomGenerator, digester: any SecretDigester) {
        self.random = random
        self.digester = digester
    }

    /// A new code and the draft that stores its digest.
    package func make(purpose: EmailCodePurpose, now: Date, lifetime: TimeInterval) -> (
        code: String, draft: EmailCodeDraft
    ) {
        let code = newCode()
        let id = random.uuid()
        let draft = EmailCodeDraft(
            id: id, purpose: purpose, digest: digest(code: code, codeID: id), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime))
        return (code, draft)
    }

    /// Six decimal digits, each value equally likely.
    package func newCode() -> String {
        while true {
            let bytes = random.bytes(count: 4)
            let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard value < Self.acceptedBelow else { continue }
            let number = String(value % UInt64(Self.range))
            return String(repeating: "0", count: 6 - number.count) + number
        }
    }

    package func digest(code: String, codeID: UUID) -> [UInt8] {
        let id = codeID.uuid
        let idBytes = [
            id.0, id.1, id.2, id.3, id.4, id.5, id.6, id.7, id.8, id.9, id.10, id.11, id.12, id.13, id.14, id.15,
        ]
        return digester.sha256(idBytes + Array(code.utf8))
    }

    /// Whether `presented` (spaces ignored) is the code of a row with this ID and digest.
    package func matcher(presented: String) -> @Sendable (UUID, [UInt8]) -> Bool {
        let code = String(presented.filter { !$0.isWhitespace }.prefix(64))
        return { [self] id, stored in digester.constantTimeEquals(digest(code: code, codeID: id), stored) }
    }
}
