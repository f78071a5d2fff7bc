package import PasskeyApplication
internal import PasskeyOpenSSL
internal import Synchronization

/// `PasswordHasher` on libsodium's Argon2id (PHC strings), verifying legacy bcrypt (libxcrypt)
/// and PBKDF2-SHA256 (OpenSSL) hashes too. All hashing runs on a `BlockingWorkPool`.
package final class Argon2PasswordHasher: PasswordHasher {
    /// Longer passwords are refused (the spec's limit; callers validate it first).
    package static let maximumPasswordBytes = 1024

    /// The cost of new hashes; Argon2id hashes with any other cost verify with `needsRehash`.
    package let parameters: Parameters
    /// The most work one verification may cost (raised to cover `parameters` if lower).
    package let limits: VerificationLimits
    private let pool: BlockingWorkPool
    /// An Argon2id hash of a random password, made on first use with `parameters`.
    private let dummyHash = Mutex<String?>(nil)

    /// A hasher with its own pool of `width` threads, where at most `waitingLimit` verifications
    /// and `waitingLimit` new hashes may wait (`PASSWORD_HASH_QUEUE_LIMIT`).
    package convenience init(
        parameters: Parameters = .owasp, limits: VerificationLimits = .standard,
        width: Int = BlockingWorkPool.defaultWidth, waitingLimit: Int = 64
    ) {
        self.init(
            parameters: parameters, limits: limits,
            pool: BlockingWorkPool(width: width, waitingLimit: waitingLimit, name: "password-hashing"))
    }

    /// The load of the hashing threads and their queue (for `/metrics`).
    package var metrics: BlockingWorkPool.Metrics { pool.metrics }

    /// A hasher running its work on `pool` (which may be shared with other blocking work).
    package init(parameters: Parameters, limits: VerificationLimits, pool: BlockingWorkPool) {
        self.parameters = parameters
        self.limits = limits.accommodating(parameters)
        self.pool = pool
    }

    /// A new `$argon2id$v=19$m=…,t=…,p=1$…` string, at `bulk` priority. Throws `.busy` when the
    /// queue of new hashes is full, `.failed` when libsodium fails (memory), the task is cancelled
    /// while waiting for a thread, or the password exceeds 1024 bytes (which callers reject first).
    package func hash(_ password: String) async throws(PasswordHashingError) -> String {
        let bytes = Array(password.utf8)
        guard bytes.count <= Self.maximumPasswordBytes else { throw .failed }
        let parameters = self.parameters
        let hash: String?
        do {
            hash = try await pool.run(priority: .bulk) {
                Sodium.argon2idHash(
                    password: bytes, opsLimit: parameters.opsLimit, memoryLimitBytes: parameters.memoryLimitBytes)
            }
        } catch {
            throw error == .full ? .busy : .failed
        }
        guard let hash else { throw .failed }
        return hash
    }

    /// Checks `password` against a stored Argon2id/Argon2i, bcrypt or PBKDF2-SHA256 hash, at
    /// `interactive` priority. Malformed, unknown, over-limit hashes and passwords over 1024
    /// bytes are mismatches, as is a verification whose task is cancelled before it started.
    /// Throws `.busy` when the queue of verifications is full.
    package func verify(_ password: String, against hash: String) async throws(PasswordHashingError)
        -> PasswordVerification
    {
        let bytes = Array(password.utf8)
        guard bytes.count <= Self.maximumPasswordBytes,
            let stored = StoredPasswordHash(parsing: hash, limits: limits)
        else { return .mismatch }
        let parameters = self.parameters
        do {
            return try await pool.run(priority: .interactive) { stored.verify(bytes, current: parameters) }
        } catch {
            if error == .full { throw .busy }
            return .mismatch
        }
    }

    /// Verifies `password` against a fixed Argon2id hash with the current parameters, so that
    /// an unknown email costs what a wrong password costs. The first call also makes that hash.
    /// Throws `.busy` like `verify`, so an unknown email is answered like a known one then too.
    package func verifyAgainstDummy(_ password: String) async throws(PasswordHashingError) {
        let bytes = Array(password.utf8.prefix(Self.maximumPasswordBytes))
        do {
            try await pool.run(priority: .interactive) { [self] in
                guard let dummy = dummyOrMake() else { return }
                _ = Sodium.verify(password: bytes, against: dummy)
            }
        } catch {
            if error == .full { throw .busy }
        }
    }

    /// The dummy hash, made on first use (on a pool thread: the lock is never held across an `await`).
    private func dummyOrMake() -> String? {
        dummyHash.withLock { dummy in
            if let dummy { return dummy }
            dummy = Sodium.argon2idHash(
                password: SecureRandom.bytes(count: 32), opsLimit: parameters.opsLimit,
                memoryLimitBytes: parameters.memoryLimitBytes)
            return dummy
        }
    }
}
