import PasskeyDomain
import PasskeyWebAuthn
import Testing

@Suite struct CBORDecoderTests {
    let decoder = CBORDecoder()

    @Test func decodesIntegersStringsAndMaps() throws {
        // {1: 2, 3: -7, "k": h'0102', "t": [true, null]}
        let bytes: [UInt8] = [0xa4, 0x01, 0x02, 0x03, 0x26, 0x61, 0x6b, 0x42, 0x01, 0x02, 0x61, 0x74, 0x82, 0xf5, 0xf6]
        let value = try decoder.decode(bytes)
        #expect(value[int: 1] == .unsigned(2))
        #expect(value[int: 3]?.integer == -7)
        #expect(value[text: "k"] == .bytes([1, 2]))
        #expect(value[text: "t"] == .array([.bool(true), .null]))
    }

    @Test func decodesLongHeadsAndFloats() throws {
        #expect(try decoder.decode([0x1b, 0, 0, 0, 1, 0, 0, 0, 0]) == .unsigned(1 << 32))
        #expect(try decoder.decode([0x39, 0x01, 0x00]).integer == -257)
        #expect(try decoder.decode([0xf9, 0x3c, 0x00]) == .float(1.0))
        #expect(try decoder.decode([0xfa, 0x3f, 0xc0, 0x00, 0x00]) == .float(1.5))
    }

    @Test(arguments: [
        [UInt8]([0x5f, 0x41, 0x00, 0xff]),  // indefinite byte string
        [0x7f, 0x61, 0x61, 0xff],  // indefinite text string
        [0x9f, 0x01, 0xff],  // indefinite array
        [0xbf, 0x01, 0x02, 0xff],  // indefinite map
    ])
    func refusesIndefiniteLengths(_ bytes: [UInt8]) {
        #expect(throws: CBORError.indefiniteLength) { try decoder.decode(bytes) }
    }

    @Test func refusesDuplicateMapKeys() {
        #expect(throws: CBORError.duplicateMapKey) { try decoder.decode([0xa2, 0x01, 0x02, 0x01, 0x03]) }
        #expect(throws: CBORError.duplicateMapKey) {
            try decoder.decode([0xa2, 0x61, 0x61, 0x00, 0x61, 0x61, 0x01])
        }
    }

    @Test func refusesTrailingBytes() {
        #expect(throws: CBORError.trailingBytes) { try decoder.decode([0x01, 0x02]) }
    }

    @Test func reportsBytesUsedByAPrefix() throws {
        let (value, used) = try decoder.decodePrefix([0xa1, 0x01, 0x02, 0xff, 0xee][...])
        #expect(value[int: 1] == .unsigned(2))
        #expect(used == 3)
    }

    @Test func refusesLengthsBeyondTheInputBeforeAllocating() {
        // A byte string claiming 4 GiB, an array and a map claiming 2^64-1 items.
        #expect(throws: CBORError.lengthTooLarge) { try decoder.decode([0x5a, 0xff, 0xff, 0xff, 0xff]) }
        #expect(throws: CBORError.lengthTooLarge) {
            try decoder.decode([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
        }
        #expect(throws: CBORError.lengthTooLarge) {
            try decoder.decode([0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
        }
        #expect(throws: CBORError.truncated) { try decoder.decode([0x45, 0x01, 0x02]) }
        #expect(throws: CBORError.lengthTooLarge) {
            try CBORDecoder(maximumStringLength: 2).decode([0x43, 0x01, 0x02, 0x03])
        }
    }

    @Test func limitsNestingDepth() {
        let deep = [UInt8](repeating: 0x81, count: 17) + [0x00]
        #expect(throws: CBORError.tooDeep) { try decoder.decode(deep) }
        let allowed = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect(throws: Never.self) { try decoder.decode(allowed) }
    }

    @Test func refusesTruncatedHeadsAndReservedEncodings() {
        #expect(throws: CBORError.truncated) { try decoder.decode([]) }
        #expect(throws: CBORError.truncated) { try decoder.decode([0x19, 0x01]) }
        #expect(throws: CBORError.reservedEncoding) { try decoder.decode([0x1c]) }
        #expect(throws: CBORError.unsupportedSimpleValue) { try decoder.decode([0xf8, 0x20]) }
        #expect(throws: CBORError.invalidUTF8) { try decoder.decode([0x62, 0xc3, 0x28]) }
    }

    @Test func base64URLRoundTripsAndRefusesNonCanonicalInput() {
        for length in 0..<8 {
            let bytes = (0..<length).map { UInt8($0 * 37 & 0xff) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("AB") == nil)  // leftover bits set
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AA==") == nil)
        #expect(Base64URL.decode("AA==", lenient: true) == [0])
        #expect(Base64URL.decode("+/8", lenient: true) == [0xfb, 0xff])
    }
}
