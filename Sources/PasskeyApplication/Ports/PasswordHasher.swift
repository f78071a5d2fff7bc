/// The outcome of checking a password against a stored hash.
package enum PasswordVerification: Hashable, Sendable {
    case mismatch
    /// The password is right; `needsRehash` when the stored hash is legacy (bcrypt, PBKDF2) or
    /// weaker than the current Argon2id parameters.
    case match(needsRehash: Bool)
}

/// Why a password could not be hashed or checked (never because of the password's content).
package enum PasswordHashingError: Error, Hashable, Sendable {
    /// Too many hashes are already waiting (`PASSWORD_HASH_QUEUE_LIMIT`): answer "busy" at once.
    case busy
    /// The hashing library failed, or the caller was cancelled while waiting.
    case failed
}

/// Hashes and verifies passwords (Argon2id, PHC strings) on a bounded set of threads with a
/// bounded queue, so a flood of password work never starves other requests. Verifications
/// (someone is signing in) go before new hashes (sign-ups).
package protocol PasswordHasher: Sendable {
    /// A new Argon2id PHC string for the password.
    func hash(_ password: String) async throws(PasswordHashingError) -> String

    /// Checks a password against a PHC string: Argon2id/Argon2i, bcrypt `$2a$`/`$2b$`/`$2y$`,
    /// or `$pbkdf2-sha256$`. An unparseable hash is a mismatch.
    func verify(_ password: String, against hash: String) async throws(PasswordHashingError) -> PasswordVerification

    /// Spends about the time of a real verification, for unknown emails (no account enumeration by timing).
    func verifyAgainstDummy(_ password: String) async throws(PasswordHashingError)
}

extension PasswordHashingError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .busy: "password hashing busy"
        case .failed: "password hashing failed"
        }
    }
}
