/// The outcome of checking a password against a stored hash.
package enum PasswordVerification: Hashable, Sendable {
    case mismatch
    /// The password is right; `needsRehash` when the stored hash is legacy (bcrypt, PBKDF2) or
    /// weaker than the current Argon2id parameters.
    case match(needsRehash: Bool)
}

/// Why a password could not be hashed (never because of the password's content).
package enum PasswordHashingError: Error, Hashable, Sendable {
    case failed
}

/// Hashes and verifies passwords (Argon2id, PHC strings) on a bounded set of threads, so a
/// flood of password sign-ins never starves other requests.
package protocol PasswordHasher: Sendable {
    /// A new Argon2id PHC string for the password.
    func hash(_ password: String) async throws(PasswordHashingError) -> String

    /// Checks a password against a PHC string: Argon2id/Argon2i, bcrypt `$2a$`/`$2b$`/`$2y$`,
    /// or `$pbkdf2-sha256$`. An unparseable hash is a mismatch.
    func verify(_ password: String, against hash: String) async -> PasswordVerification

    /// Spends about the time of a real verification, for unknown emails (no account enumeration by timing).
    func verifyAgainstDummy(_ password: String) async
}
