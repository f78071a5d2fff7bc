import PasskeyApplication
import PasskeyCrypto
import Testing

/// The signing keys' private halves at rest: AES-256-GCM under `DATA_ENCRYPTION_KEY`, a fresh
/// nonce per box, bound to its context; any other key, context or byte does not open.
@Suite struct AESGCMSecretSealerTests {
    static let key = [UInt8](repeating: 0x42, count: 32)
    static let secret = Array("the private key's DER".utf8)

    @Test func aBoxOpensWithItsKeyAndContextOnly() throws {
        let sealer = try #require(AESGCMSecretSealer(key: Self.key))
        let box = try sealer.seal(Self.secret, context: "kid-1")
        #expect(sealer.open(box, context: "kid-1") == Self.secret)
        #expect(sealer.open(box, context: "kid-2") == nil)
        let other = try #require(AESGCMSecretSealer(key: [UInt8](repeating: 0x43, count: 32)))
        #expect(other.open(box, context: "kid-1") == nil)
        #expect(!box.windows(ofCount: Self.secret.count).contains(Self.secret[...]), "the secret is not in clear")
    }

    @Test func everyByteIsAuthenticated() throws {
        let sealer = try #require(AESGCMSecretSealer(key: Self.key))
        let box = try sealer.seal(Self.secret, context: "kid-1")
        for index in box.indices {
            var changed = box
            changed[index] ^= 0x01
            #expect(sealer.open(changed, context: "kid-1") == nil, "byte \(index)")
        }
        #expect(sealer.open(Array(box.dropLast()), context: "kid-1") == nil)
        #expect(sealer.open([], context: "kid-1") == nil)
    }

    @Test func eachSealHasAFreshNonce() throws {
        let sealer = try #require(AESGCMSecretSealer(key: Self.key))
        let boxes = try (0..<20).map { _ in try sealer.seal(Self.secret, context: "kid-1") }
        #expect(Set(boxes).count == boxes.count)
        #expect(Set(boxes.map { Array($0.prefix(12)) }).count == boxes.count)
    }

    @Test func onlyA32ByteKeyIsAccepted() {
        #expect(AESGCMSecretSealer(key: Array(repeating: 1, count: 31)) == nil)
        #expect(AESGCMSecretSealer(key: Array(repeating: 1, count: 33)) == nil)
        #expect(AESGCMSecretSealer(key: []) == nil)
    }
}

extension Array {
    fileprivate func windows(ofCount count: Int) -> [ArraySlice<Element>] {
        guard count > 0, count <= self.count else { return [] }
        return (0...(self.count - count)).map { self[$0..<($0 + count)] }
    }
}
