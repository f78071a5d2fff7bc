import Foundation
import PasskeyApplication
import PasskeyDomain
import Testing

@testable import PasskeyServer

// The OpenSSL adapters the composition root wires in for `RandomGenerator`, `SecretDigester`
// and `SessionTokenGenerator`: each does what its port promises, checked on published answers
// where there are some.

/// Lowercase hexadecimal, to compare digests with published vectors.
private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

@Suite struct OpenSSLRandomGeneratorTests {
    let random: any RandomGenerator = OpenSSLRandomGenerator()

    @Test(arguments: [1, 16, 32, 64, 1_000])
    func bytesHaveTheRequestedCount(count: Int) {
        #expect(random.bytes(count: count).count == count)
    }

    @Test func twoDrawsDiffer() {
        let first = random.bytes(count: 32)
        let second = random.bytes(count: 32)
        #expect(first != second)
        #expect(first != [UInt8](repeating: 0, count: 32))
    }

    @Test func uuidsFromItAreRandomVersion4() {
        let first = random.uuid()
        let second = random.uuid()
        #expect(first != second)
        let text = first.uuidString.lowercased()
        #expect(Array(text)[14] == "4")
        #expect("89ab".contains(Array(text)[19]))
    }
}

@Suite struct OpenSSLSecretDigesterTests {
    let digester: any SecretDigester = OpenSSLSecretDigester()

    // FIPS 180-2, appendix B (one block, two blocks), and the empty message.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ])
    func sha256MatchesThePublishedVectors(message: String, digest: String) {
        let computed = digester.sha256(Array(message.utf8))
        #expect(computed.count == 32)
        #expect(hex(computed) == digest)
    }

    @Test func equalBytesAreEqual() {
        let digest = digester.sha256(Array("abc".utf8))
        #expect(digester.constantTimeEquals(digest, digest))
        #expect(digester.constantTimeEquals(digest, Array(digest)))
        #expect(digester.constantTimeEquals([], []))
    }

    @Test(arguments: [0, 15, 31])
    func bytesThatDifferInOnePlaceAreNotEqual(index: Int) {
        let digest = digester.sha256(Array("abc".utf8))
        var other = digest
        other[index] ^= 0x01
        #expect(!digester.constantTimeEquals(digest, other))
        #expect(!digester.constantTimeEquals(other, digest))
    }

    @Test func bytesOfAnotherLengthAreNotEqual() {
        let digest = digester.sha256(Array("abc".utf8))
        #expect(!digester.constantTimeEquals(digest, Array(digest.dropLast())))
        #expect(!digester.constantTimeEquals(digest, digest + [0]))
        #expect(!digester.constantTimeEquals(digest, []))
    }
}

@Suite struct OpenSSLSessionTokenGeneratorTests {
    let tokens: any SessionTokenGenerator = OpenSSLSessionTokenGenerator()
    let digester = OpenSSLSecretDigester()

    private static let base64URLAlphabet = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test func aTokenIs32RandomBytesAsUnpaddedBase64URL() throws {
        let token = tokens.makeToken().token
        #expect(token.count == 43)
        #expect(token.allSatisfy { Self.base64URLAlphabet.contains($0) })
        let bytes = try #require(Base64URL.decode(token))
        #expect(bytes.count == 32)
    }

    @Test func twoTokensDiffer() {
        let first = tokens.makeToken()
        let second = tokens.makeToken()
        #expect(first.token != second.token)
        #expect(first.digest != second.digest)
    }

    @Test func theStoredDigestIsSHA256OfTheTokensBytes() throws {
        let made = tokens.makeToken()
        let bytes = try #require(Base64URL.decode(made.token))
        #expect(made.digest == digester.sha256(bytes))
        #expect(made.digest != digester.sha256(Array(made.token.utf8)))
    }

    @Test func aPresentedTokenHasTheDigestItWasStoredUnder() {
        let made = tokens.makeToken()
        #expect(tokens.digest(ofPresentedToken: made.token) == made.digest)
    }

    @Test func thirtyTwoZeroBytesHaveTheirKnownDigest() {
        let zeros = String(repeating: "A", count: 43)
        #expect(
            tokens.digest(ofPresentedToken: zeros).map(hex)
                == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925")
    }

    @Test func whatCannotBeATokenHasNoDigest() {
        let token = tokens.makeToken().token
        let valid = String(repeating: "A", count: 43)
        let cannotBe = [
            "",
            String(token.dropLast()),  // 42 characters
            token + "A",  // 44 characters
            token + "=",  // padded
            String(repeating: "A", count: 42) + "+",  // the standard alphabet
            String(repeating: "A", count: 42) + "/",
            String(repeating: "A", count: 42) + "B",  // non-zero leftover bits
            String(repeating: "A", count: 42) + ".",
            "é" + String(repeating: "A", count: 42),  // 43 characters, 44 bytes
            String(repeating: "A", count: 41) + "é",  // 42 characters, 43 bytes
            " " + String(valid.dropFirst()),
        ]
        for text in cannotBe {
            #expect(tokens.digest(ofPresentedToken: text) == nil, "\(text)")
        }
    }
}
