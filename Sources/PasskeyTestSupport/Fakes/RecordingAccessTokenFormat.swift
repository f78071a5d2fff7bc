package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// An `AccessTokenFormat` for the use cases' unit tests, without cryptography: key pair *n* has
/// the private key 32 bytes of *n* and the public coordinates the same bytes; a token is
/// `jws.N`, remembered with its claims, key ID and "signature" (the private key that made it),
/// which verifies when it equals the public key's `x`. `forge` makes a token whose signature
/// is wrong, as an attacker's would be.
package final class RecordingAccessTokenFormat: AccessTokenFormat {
    private struct State {
        var keyPairs: UInt8 = 0
        var tokens: [String: ParsedAccessToken] = [:]
        var signatureChecks = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many signatures were checked (one per token naming a published key).
    package var signatureChecks: Int { state.withLock { $0.signatureChecks } }

    package func makeKeyPair() throws(AccessTokenFormatError)
        -> (publicKey: ECPublicKeyCoordinates, privateKey: [UInt8])
    {
        let n = state.withLock { state -> UInt8 in
            state.keyPairs &+= 1
            return state.keyPairs
        }
        let bytes = [UInt8](repeating: n, count: 32)
        return (ECPublicKeyCoordinates(x: bytes, y: bytes), bytes)
    }

    package func sign(_ claims: AccessTokenClaims, keyID id: SigningKeyID, privateKey: [UInt8])
        throws(AccessTokenFormatError) -> String
    {
        remember(claims, keyID: id, signature: privateKey)
    }

    /// A token for `claims` under key `id` whose signature no key verifies.
    package func forge(_ claims: AccessTokenClaims, keyID id: SigningKeyID) -> String {
        remember(claims, keyID: id, signature: [UInt8](repeating: 0xEE, count: 32))
    }

    package func looksSigned(_ token: String) -> Bool { token.hasPrefix("jws.") }

    package func parse(_ token: String) -> ParsedAccessToken? { state.withLock { $0.tokens[token] } }

    package func verifySignature(of parsed: ParsedAccessToken, with publicKey: ECPublicKeyCoordinates) -> Bool {
        state.withLock { $0.signatureChecks += 1 }
        return parsed.signature == publicKey.x
    }

    /// The claims a token was made with.
    package func claims(of token: String) -> AccessTokenClaims? { parse(token)?.claims }

    private func remember(_ claims: AccessTokenClaims, keyID id: SigningKeyID, signature: [UInt8]) -> String {
        state.withLock { state in
            let token = "jws.\(state.tokens.count + 1)"
            state.tokens[token] = ParsedAccessToken(
                keyID: id, claims: claims, signingInput: Array(token.utf8), signature: signature)
            return token
        }
    }
}

/// A `SecretSealer` without cryptography: a box is the sealer's name, the context and the
/// secret, so it opens only with a sealer of the same name and the same context (what
/// `DATA_ENCRYPTION_KEY` and the key's ID do for the real one).
package struct LabelledSecretSealer: SecretSealer {
    let name: String

    package init(name: String = "data-key-1") { self.name = name }

    package func seal(_ secret: [UInt8], context: String) throws(SecretSealingError) -> [UInt8] {
        label(context) + secret
    }

    package func open(_ box: [UInt8], context: String) -> [UInt8]? {
        let label = label(context)
        guard box.starts(with: label) else { return nil }
        return Array(box.dropFirst(label.count))
    }

    private func label(_ context: String) -> [UInt8] { Array("\(name)|\(context)|".utf8) }
}
