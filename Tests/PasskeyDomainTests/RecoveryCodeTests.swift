import PasskeyDomain
import Testing

@Suite struct RecoveryCodeTests {
    @Test func tenBytesAreSixteenCrockfordCharactersInFourGroups() {
        let zero = RecoveryCode(bytes: Array(repeating: 0, count: 10))
        #expect(zero.canonical == "0000000000000000")
        #expect(zero.formatted == "0000-0000-0000-0000")
        let ones = RecoveryCode(bytes: Array(repeating: 0xff, count: 10))
        #expect(ones.canonical == "ZZZZZZZZZZZZZZZZ")
        // 0x00 0x44 0x32 0x14 0xC7 … : 5-bit groups 0, 1, 2, 3, 4, 5, 6, 7 (RFC 4648's test idea).
        let counting = RecoveryCode(bytes: [0x00, 0x44, 0x32, 0x14, 0xC7, 0x42, 0x54, 0xB6, 0x35, 0xCF])
        #expect(counting.canonical == "0123456789ABCDEF")
    }

    @Test func inputIgnoresCaseHyphensSpacesAndReadsLookAlikes() {
        let code = RecoveryCode(bytes: [0x00, 0x44, 0x32, 0x14, 0xC7, 0x42, 0x54, 0xB6, 0x35, 0xCF])
        #expect(RecoveryCode(presented: "0123-4567-89ab-cdef") == code)
        #expect(RecoveryCode(presented: " 0123 4567 89AB CDEF ") == code)
        #expect(RecoveryCode(presented: "O123-4567-89AB-CDEF") == code)
        #expect(RecoveryCode(presented: "0i23-4567-89AB-CDEF") == code)
        #expect(RecoveryCode(presented: "0L23-4567-89AB-CDEF") == code)
    }

    @Test func anythingElseIsNotACode() {
        for text in [
            "", "0123-4567-89AB-CDE", "0123-4567-89AB-CDEF0", "0123-4567-89AB-CDEU", "0123_4567_89AB_CDEF",
            "０123-4567-89AB-CDEF", String(repeating: "-", count: 100) + "0123456789ABCDEF",
        ] {
            #expect(RecoveryCode(presented: text) == nil, "\(text)")
        }
    }
}
