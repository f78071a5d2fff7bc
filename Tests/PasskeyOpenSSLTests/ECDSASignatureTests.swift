import PasskeyOpenSSL
import Testing

/// P-256 keys as the token signer keeps them (DER, sealed at rest) and signatures as JWS carries
/// them (`r ‖ s`, RFC 7518 §3.4).
@Suite struct ECDSASignatureTests {
    @Test func aKeyRestoredFromDERSignsForTheSamePublicKey() throws {
        let key = try PrivateKey.generateEC(curve: .p256)
        let restored = try PrivateKey(der: try key.derEncoded())
        #expect(restored.publicKey.isSameKey(as: key.publicKey))
        let message = Array("header.payload".utf8)
        let signature = try restored.sign(message, scheme: .ecdsa(.sha256))
        #expect(key.publicKey.verify(signature: signature, message: message, scheme: .ecdsa(.sha256)))
        #expect(throws: OpenSSLError.self) { try PrivateKey(der: [0x30, 0x03, 0x02, 0x01, 0x01]) }
    }

    @Test func signaturesConvertBetweenDERAndRawBothWays() throws {
        let key = try PrivateKey.generateEC(curve: .p256)
        let message = Array("eyJhbGciOiJFUzI1NiJ9.e30".utf8)
        for _ in 0..<32 {
            let der = try key.sign(message, scheme: .ecdsa(.sha256))
            let raw = try #require(ECDSASignature.raw(fromDER: der, coordinateLength: 32))
            #expect(raw.count == 64)
            let back = try #require(ECDSASignature.der(fromRaw: raw))
            #expect(back == der)
            #expect(key.publicKey.verify(signature: back, message: message, scheme: .ecdsa(.sha256)))
        }
        #expect(ECDSASignature.raw(fromDER: [1, 2, 3], coordinateLength: 32) == nil)
        #expect(ECDSASignature.der(fromRaw: []) == nil)
        #expect(ECDSASignature.der(fromRaw: [1, 2, 3]) == nil)
    }
}
