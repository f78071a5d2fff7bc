import PasskeyDomain
import Testing

@Suite struct BoundedNameTests {
    @Test func trimsAndCountsCodePoints() throws {
        #expect(BoundedName("  Taro  ")?.value == "Taro")
        // 64 code points are fine even when they are 4 bytes each in UTF-8.
        #expect(BoundedName(String(repeating: "🔑", count: 64)) != nil)
        #expect(BoundedName(String(repeating: "🔑", count: 65)) == nil)
        #expect(BoundedName(String(repeating: "x", count: 64)) != nil)
    }

    @Test(arguments: ["", "   ", "tab\there", "line\nbreak", "bell\u{07}", "del\u{7F}"])
    func refusesEmptyAndControlCharacters(_ raw: String) {
        #expect(BoundedName(raw) == nil)
    }
}
