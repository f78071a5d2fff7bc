internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// Bearer tokens: 32 bytes from OpenSSL's CSPRNG, base64url (43 characters); stored as SHA-256.
struct OpenSSLSessionTokenGenerator: SessionTokenGenerator {
    func makeToken() -> SessionToken {
        let bytes = SecureRandom.bytes(count: 32)
        return SessionToken(token: Base64URL.encode(bytes), digest: Digest.sha256(bytes))
    }

    func digest(ofPresentedToken token: String) -> [UInt8]? {
        // Our tokens are exactly 43 base64url characters; anything else cannot be one.
        guard token.utf8.count == 43, let bytes = Base64URL.decode(token), bytes.count == 32 else { return nil }
        return Digest.sha256(bytes)
    }
}
