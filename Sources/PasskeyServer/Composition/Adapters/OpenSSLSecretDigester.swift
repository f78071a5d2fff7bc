internal import PasskeyApplication
internal import PasskeyOpenSSL

/// SHA-256 and `CRYPTO_memcmp` through OpenSSL, for recovery codes and configured tokens.
struct OpenSSLSecretDigester: SecretDigester {
    func sha256(_ bytes: [UInt8]) -> [UInt8] { Digest.sha256(bytes) }

    func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool { ConstantTime.equals(a, b) }
}
