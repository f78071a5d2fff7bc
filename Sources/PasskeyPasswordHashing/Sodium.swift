internal import CSodium

/// The only caller of libsodium: Argon2 hashing and verification of PHC strings.
///
/// Every function is synchronous and CPU-heavy (tens of milliseconds): call them only from a
/// `BlockingWorkPool` thread, never from the cooperative pool.
enum Sodium {
    /// `sodium_init()` exactly once (Swift initialises a `static let` once, thread-safely).
    private static let isReady: Bool = sodium_init() >= 0

    /// A new `$argon2id$v=19$m=…,t=…,p=1$salt$hash` string, or nil when libsodium refuses
    /// (out of memory, parameters out of range).
    static func argon2idHash(password: [UInt8], opsLimit: Int, memoryLimitBytes: Int) -> String? {
        guard isReady else { return nil }
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let status = withPassword(password) { pointer, count in
            output.withUnsafeMutableBufferPointer { out in
                crypto_pwhash_str_alg(
                    out.baseAddress!, pointer, UInt64(count), UInt64(opsLimit), memoryLimitBytes,
                    crypto_pwhash_ALG_ARGON2ID13)
            }
        }
        guard status == 0 else { return nil }
        return output.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// True when `password` matches the Argon2id or Argon2i PHC string `hash`.
    static func verify(password: [UInt8], against hash: String) -> Bool {
        guard isReady else { return false }
        return withPassword(password) { pointer, count in
            hash.withCString { crypto_pwhash_str_verify($0, pointer, UInt64(count)) == 0 }
        }
    }

    /// True unless `hash` is an Argon2id string with exactly these parameters.
    static func needsRehash(_ hash: String, opsLimit: Int, memoryLimitBytes: Int) -> Bool {
        hash.withCString { crypto_pwhash_str_needs_rehash($0, UInt64(opsLimit), memoryLimitBytes) != 0 }
    }

    /// Calls `body` with a pointer to the password's bytes (valid even when empty) and their count.
    private static func withPassword<Value>(
        _ password: [UInt8], _ body: (UnsafePointer<CChar>, Int) -> Value
    ) -> Value {
        let buffer = password.isEmpty ? [0] : password
        return buffer.withUnsafeBytes { raw in
            body(raw.bindMemory(to: CChar.self).baseAddress!, password.count)
        }
    }
}
