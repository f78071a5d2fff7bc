import Foundation
import PasskeyApplication

/// A `SessionTokenGenerator` whose tokens are 32 random bytes in hex and whose digest is those
/// bytes: 32 bytes, as `authentication_sessions.token_digest` demands, and unique across
/// concurrent sign-ins (`SequentialTokenGenerator`'s digests are the short `token-N`).
struct RandomSessionTokens: SessionTokenGenerator {
    func makeToken() -> SessionToken {
        let bytes = SystemRandomBytes().bytes(count: 32)
        return SessionToken(token: bytes.map { String(format: "%02x", $0) }.joined(), digest: bytes)
    }

    func digest(ofPresentedToken token: String) -> [UInt8]? {
        let characters = Array(token.utf8)
        guard characters.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: characters[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
