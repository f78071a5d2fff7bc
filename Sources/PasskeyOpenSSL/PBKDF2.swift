internal import COpenSSL

/// PBKDF2 (RFC 8018 §5.2) through OpenSSL's `PKCS5_PBKDF2_HMAC`, for verifying legacy
/// `$pbkdf2-sha256$` password hashes. New passwords use Argon2id, never this.
package enum PBKDF2 {
    /// The largest derived key this wrapper produces (two SHA-512 blocks; far beyond any PHC string).
    package static let maximumKeyLength = 128

    /// PBKDF2-HMAC-SHA256 of `password` and `salt` with `iterations` rounds, `keyLength` bytes long.
    ///
    /// Throws for an iteration count or key length outside `1...Int32.max` / `1...maximumKeyLength`
    /// (callers bound iterations far lower to avoid denial of service) or when OpenSSL fails.
    package static func sha256(
        password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int
    ) throws(OpenSSLError) -> [UInt8] {
        guard (1...Int(Int32.max)).contains(iterations), (1...maximumKeyLength).contains(keyLength),
            password.count <= Int(Int32.max), salt.count <= Int(Int32.max)
        else {
            throw OpenSSLError(operation: "PKCS5_PBKDF2_HMAC", diagnostics: ["argument out of range"])
        }
        // Empty arrays have no base address; OpenSSL reads nothing when the length is 0.
        let passwordBuffer = password.isEmpty ? [0] : password
        let saltBuffer = salt.isEmpty ? [0] : salt
        var output = [UInt8](repeating: 0, count: keyLength)
        let ok = passwordBuffer.withUnsafeBytes { pass in
            saltBuffer.withUnsafeBufferPointer { saltPointer in
                output.withUnsafeMutableBufferPointer { out in
                    PKCS5_PBKDF2_HMAC(
                        pass.bindMemory(to: CChar.self).baseAddress, Int32(password.count),
                        saltPointer.baseAddress, Int32(salt.count), Int32(iterations), EVP_sha256(),
                        Int32(keyLength), out.baseAddress)
                }
            }
        }
        guard ok == 1 else { throw OpenSSLError.capture("PKCS5_PBKDF2_HMAC") }
        return output
    }
}
