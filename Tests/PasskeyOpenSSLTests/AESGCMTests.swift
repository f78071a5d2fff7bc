import PasskeyOpenSSL
import Testing

/// AES-256-GCM as OpenSSL does it: the GCM specification's known answers, and a box that opens
/// only with its key and associated data, unchanged.
@Suite struct AESGCMTests {

    /// McGrew and Viega, "The Galois/Counter Mode of Operation", test cases 13 and 14 (AES-256,
    /// zero key and nonce): no plaintext, then one zero block.
    @Test func theSpecificationsKnownAnswers() throws {
        let key = [UInt8](repeating: 0, count: 32)
        let nonce = [UInt8](repeating: 0, count: 12)
        let empty = try AESGCM.seal([], key: key, nonce: nonce, associatedData: [])
        #expect(empty == nonce + bytes(hex: "530f8afbc74536b9a963b4f1c4cb738b"))
        let block = try AESGCM.seal([UInt8](repeating: 0, count: 16), key: key, nonce: nonce, associatedData: [])
        #expect(
            block == nonce + bytes(hex: "cea7403d4d606b6e074ec5d3baf39d18")
                + bytes(hex: "d0d1c8a799996bf0265b98b5d48ab919")
        )
        #expect(AESGCM.open(block, key: key) == [UInt8](repeating: 0, count: 16))
    }

    @Test func aBoxOpensOnlyWithItsKeyAndAssociatedDataUnchanged() throws {
        let key = SecureRandom.bytes(count: 32)
        let secret = Array("the private half of a signing key".utf8)
        let box = try AESGCM.seal(secret, key: key, associatedData: Array("kid-1".utf8))
        #expect(box.count == 12 + secret.count + 16)
        #expect(AESGCM.open(box, key: key, associatedData: Array("kid-1".utf8)) == secret)
        #expect(AESGCM.open(box, key: SecureRandom.bytes(count: 32), associatedData: Array("kid-1".utf8)) == nil)
        #expect(AESGCM.open(box, key: key, associatedData: Array("kid-2".utf8)) == nil)
        for index in [0, 12, box.count - 1] {
            var tampered = box
            tampered[index] ^= 0x01
            #expect(AESGCM.open(tampered, key: key, associatedData: Array("kid-1".utf8)) == nil, "byte \(index)")
        }
        #expect(AESGCM.open(Array(box.prefix(20)), key: key) == nil)
        #expect(AESGCM.open(box, key: Array(key.prefix(16))) == nil)
    }

    @Test func everySealDrawsAFreshNonce() throws {
        let key = SecureRandom.bytes(count: 32)
        let boxes = try (0..<64).map { _ in try AESGCM.seal([1, 2, 3], key: key) }
        #expect(Set(boxes.map { Array($0.prefix(12)) }).count == 64)
    }

    @Test func aKeyOfTheWrongLengthIsRefused() {
        #expect(throws: OpenSSLError.self) { try AESGCM.seal([1], key: [UInt8](repeating: 0, count: 16)) }
    }
}
