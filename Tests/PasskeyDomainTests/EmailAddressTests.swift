import PasskeyDomain
import Testing

@Suite struct EmailAddressTests {
    @Test func trimsAndNormalisesForUniqueness() throws {
        let email = try #require(EmailAddress("  Taro.Yamada@Example.COM \n"))
        #expect(email.value == "Taro.Yamada@Example.COM")
        #expect(email.normalized == "taro.yamada@example.com")
    }

    @Test func normalisesToNFCBeforeLowercasing() throws {
        // "é" as e + combining acute (NFD) and as one code point (NFC) name the same mailbox.
        let decomposed = try #require(EmailAddress("Ame\u{0301}lie@example.com"))
        let composed = try #require(EmailAddress("am\u{00E9}lie@example.com"))
        #expect(decomposed.normalized == composed.normalized)
        #expect(decomposed == composed)
    }

    @Test(arguments: [
        "", "   ", "no-at-sign", "two@@example.com", "a@b@c", "@example.com", "user@", "us er@example.com",
        "user@exa\tmple.com", "user\u{0000}@example.com", "user\u{200B}@example.com",
        String(repeating: "a", count: 250) + "@b.cd",
    ])
    func refusesWhatTheContractRefuses(_ raw: String) {
        #expect(EmailAddress(raw) == nil)
    }

    @Test func countsTheAtSignInCodePointsNotCharacters() {
        // A combining mark or emoji modifier after "@" makes one Character of both; the contract
        // counts "@" code points: two of them are refused, one with a mark after it is accepted.
        #expect(EmailAddress("a@\u{0301}@example.com") == nil)
        #expect(EmailAddress("a@\u{1F3FB}@example.com") == nil)
        #expect(EmailAddress("a@\u{0301}example.com") != nil)
        #expect(EmailAddress("a@\u{1F3FB}example.com") != nil)
    }

    @Test func acceptsExactly254Characters() {
        let local = String(repeating: "a", count: 254 - "@example.com".count)
        #expect(EmailAddress(local + "@example.com") != nil)
        #expect(EmailAddress(local + "a@example.com") == nil)
    }
}
