internal import PasskeyApplication
internal import PasskeyOpenSSL

extension StoredPasswordHash {
    /// bcrypt reads at most 72 bytes of the password; passing no more keeps libxcrypt's own
    /// 512-byte passphrase limit out of the way and gives the same result.
    static let bcryptPasswordBytes = 72

    /// Checks `password` (UTF-8 bytes) against this hash. Synchronous and CPU-heavy: runs on a
    /// `BlockingWorkPool` thread. Anything but current-parameter Argon2id needs a rehash.
    func verify(_ password: [UInt8], current: Argon2PasswordHasher.Parameters) -> PasswordVerification {
        switch self {
        case .argon2id(let text):
            guard Sodium.verify(password: password, against: text) else { return .mismatch }
            let stale = Sodium.needsRehash(
                text, opsLimit: current.opsLimit, memoryLimitBytes: current.memoryLimitBytes)
            return .match(needsRehash: stale)
        case .argon2i(let text):
            return Sodium.verify(password: password, against: text) ? .match(needsRehash: true) : .mismatch
        case .bcrypt(let text):
            let passphrase = Array(password.prefix(Self.bcryptPasswordBytes))
            guard let computed = Crypt.hash(passphrase: passphrase, setting: text) else { return .mismatch }
            // The whole output (setting + hash) against the whole stored string, in constant time.
            return ConstantTime.equals(Array(computed.utf8), Array(text.utf8))
                ? .match(needsRehash: true) : .mismatch
        case .pbkdf2SHA256(let iterations, let salt, let expected):
            guard
                let derived = try? PBKDF2.sha256(
                    password: password, salt: salt, iterations: iterations, keyLength: expected.count)
            else { return .mismatch }
            return ConstantTime.equals(derived, expected) ? .match(needsRehash: true) : .mismatch
        }
    }
}
