import PasskeyDomain
import Testing

/// (v4) A lock's reason is shown to the account's owner and sent in webhooks: 1–200 code points
/// (what the column's CHECK counts), trimmed, and nothing invisible that could hide or reorder
/// what the owner reads.
@Suite struct LockReasonTests {
    @Test func aVisibleReasonIsTrimmedAndKept() {
        #expect(LockReason("  Calls from an impostor ")?.value == "Calls from an impostor")
        #expect(LockReason("本人確認ができない電話が続いたため")?.value == "本人確認ができない電話が続いたため")
        #expect(LockReason(String(repeating: "r", count: 200))?.value.unicodeScalars.count == 200)
        #expect(LockReason(String(repeating: "😀", count: 200)) != nil, "200 emoji are 200 code points")
        #expect(LockReason("Family 👨\u{200D}👩\u{200D}👧 asked") != nil, "emoji sequences keep their joiner")
        #expect(LockReason("Reason: <img src=x onerror=alert(1)>") != nil, "text, shown as text")
    }

    @Test func emptyLongAndInvisibleReasonsAreRefused() {
        for refused in [
            "", "  ", String(repeating: "r", count: 201), "a\nb", "a\tb", "a\u{7}",
            "Locked \u{202E}reversed", "Lo\u{200B}cked", "a\u{2066}b\u{2069}", "Lo\u{2028}cked", "a\u{E000}",
            "a\u{0378}", "a\u{FEFF}",
        ] {
            #expect(LockReason(refused) == nil, "\(refused.unicodeScalars.map(\.value))")
        }
    }

    /// Read back from the database, a reason is checked for its bounds only: a row written under
    /// an earlier rule must not make the account unreadable, and so impossible to unlock.
    @Test func aStoredReasonIsReadWithItsBoundsOnly() {
        #expect(LockReason(stored: "Lo\u{200B}cked")?.value == "Lo\u{200B}cked")
        #expect(LockReason(stored: "a\u{0378}") != nil)
        #expect(LockReason(stored: "") == nil)
        #expect(LockReason(stored: String(repeating: "r", count: 201)) == nil)
        #expect(LockReason(stored: "a\u{7}b") == nil, "control characters never passed any rule")
    }
}
