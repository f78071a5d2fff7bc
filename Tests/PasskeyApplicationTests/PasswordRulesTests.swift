import PasskeyApplication
import Testing

@Suite struct PasswordRulesTests {
    @Test func eightCharactersUpTo1024BytesNoCompositionRules() {
        #expect(!PasswordRules.isAcceptable("1234567"))
        #expect(PasswordRules.isAcceptable("12345678"))
        #expect(PasswordRules.isAcceptable("aaaaaaaa"))
        // Characters, not bytes, count for the minimum: 8 emoji are 8 characters.
        #expect(PasswordRules.isAcceptable(String(repeating: "🔑", count: 8)))
        #expect(PasswordRules.isAcceptable(String(repeating: "p", count: 1024)))
        #expect(!PasswordRules.isAcceptable(String(repeating: "p", count: 1025)))
        // 256 four-byte characters are exactly 1024 bytes; one more is over.
        #expect(PasswordRules.isAcceptable(String(repeating: "🔑", count: 256)))
        #expect(!PasswordRules.isAcceptable(String(repeating: "🔑", count: 257)))
    }
}
