internal import PasskeyApplication
internal import PasskeyOpenSSL

/// SHA-256 through OpenSSL, for recovery codes.
struct OpenSSLSecretDigester: SecretDigester {
    func sha256(_ bytes: [UInt8]) -> [UInt8] { Digest.sha256(bytes) }
}
