import PasskeyOpenSSL
import Testing

/// HMAC-SHA256 against RFC 4231's test cases.
@Suite struct HMACSHA256Tests {

    @Test func rfc4231Cases() throws {
        // Test case 1 and test case 2.
        #expect(
            try HMACSHA256.code(for: Array("Hi There".utf8), key: Array(repeating: 0x0b, count: 20))
                == bytes(hex: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
        #expect(
            try HMACSHA256.code(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
                == bytes(hex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
        // Test case 6: a key longer than the block is hashed first.
        #expect(
            try HMACSHA256.code(
                for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                key: Array(repeating: 0xaa, count: 131))
                == bytes(hex: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"))
        #expect(try HMACSHA256.code(for: [], key: []).count == 32)
    }
}
