import PasskeyDomain
import Testing

/// `--issued-by NAME`: who at the support desk issued a code, bounded and printable, so it cannot
/// forge or hide anything in the operator's log line.
@Suite struct SupportAgentNameTests {
    @Test func aPrintableNameIsTrimmedAndKept() {
        #expect(SupportAgentName("  Mika (desk 3) ")?.value == "Mika (desk 3)")
        #expect(SupportAgentName("佐藤 美香")?.value == "佐藤 美香")
        #expect(SupportAgentName(String(repeating: "m", count: 64))?.value.count == 64)
    }

    @Test func emptyLongAndUnprintableNamesAreRefused() {
        for refused in [
            "", "   ", String(repeating: "m", count: 65), "Mika\nlevel=info", "Mika\tJun", "Mika\u{7}",
            "Mika\u{202E}nuJ", "Mi\u{200B}ka", "Mika\u{2028}", "Mika\u{E000}", "Mika\u{00A0}Jun", "Mika\u{0378}",
        ] {
            #expect(SupportAgentName(refused) == nil, "\(refused.unicodeScalars.map(\.value))")
        }
    }
}
