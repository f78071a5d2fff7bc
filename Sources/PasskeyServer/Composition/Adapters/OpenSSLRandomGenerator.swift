internal import PasskeyApplication
internal import PasskeyOpenSSL

/// Challenges and IDs from OpenSSL's CSPRNG.
struct OpenSSLRandomGenerator: RandomGenerator {
    func bytes(count: Int) -> [UInt8] { SecureRandom.bytes(count: count) }
}
