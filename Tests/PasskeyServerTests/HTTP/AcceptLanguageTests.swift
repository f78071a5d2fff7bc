import PasskeyDomain
import Testing

@testable import PasskeyServer

/// The mail language from a sign-up's `Accept-Language`.
@Suite struct AcceptLanguageTests {
    @Test(arguments: [
        ("ja", MailLanguage.japanese), ("ja-JP,ja;q=0.9,en;q=0.8", .japanese), ("en;q=0.5, ja-JP", .japanese),
        ("en-US,en;q=0.9,ja;q=0.8", .english), ("en, ja", .english), ("ja, en", .japanese),
        ("fr, ja;q=0.1", .japanese), ("*, ja;q=0.5", .english), ("ja;q=0", .english), ("ja;q=abc, en", .english),
        ("", .english), ("de", .english), (";;;,,,", .english),
    ])
    func picksJapaneseOnlyWhenPreferredOverEnglish(header: String, expected: MailLanguage) {
        #expect(AcceptLanguage.mailLanguage(header) == expected)
    }

    @Test func missingAndOversizedHeadersAreEnglish() {
        #expect(AcceptLanguage.mailLanguage(nil) == .english)
        #expect(AcceptLanguage.mailLanguage("ja," + String(repeating: "x;q=0.1,", count: 200)) == .english)
        // Only the first 32 ranges are looked at.
        #expect(AcceptLanguage.mailLanguage(String(repeating: "de,", count: 40) + "ja") == .english)
    }
}
