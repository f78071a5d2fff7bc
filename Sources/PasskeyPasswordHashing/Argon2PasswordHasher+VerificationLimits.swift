extension Argon2PasswordHasher {
    /// The most work one verification may cost. A stored hash asking for more is a mismatch,
    /// checked before any hashing, so a corrupted or hostile hash (database row, import file)
    /// cannot tie up the pool or exhaust memory.
    package struct VerificationLimits: Hashable, Sendable {
        /// Largest Argon2 `m` accepted, in KiB (default 256 MiB).
        package var argon2MemoryKiB: Int
        /// Largest Argon2 `t` accepted (default 16).
        package var argon2Iterations: Int
        /// Largest bcrypt cost accepted (default 16, 2^16 rounds, a few seconds here).
        package var bcryptCost: Int
        /// Largest PBKDF2 iteration count accepted (default 10,000,000).
        package var pbkdf2Iterations: Int

        /// The defaults above.
        package static let standard = VerificationLimits(
            argon2MemoryKiB: 262_144, argon2Iterations: 16, bcryptCost: 16, pbkdf2Iterations: 10_000_000)

        package init(argon2MemoryKiB: Int, argon2Iterations: Int, bcryptCost: Int, pbkdf2Iterations: Int) {
            self.argon2MemoryKiB = argon2MemoryKiB
            self.argon2Iterations = argon2Iterations
            self.bcryptCost = bcryptCost
            self.pbkdf2Iterations = pbkdf2Iterations
        }

        /// These limits, raised where needed so that hashes made with `parameters` always verify.
        func accommodating(_ parameters: Parameters) -> VerificationLimits {
            var limits = self
            limits.argon2MemoryKiB = max(limits.argon2MemoryKiB, parameters.memoryLimitKiB)
            limits.argon2Iterations = max(limits.argon2Iterations, parameters.opsLimit)
            return limits
        }
    }
}
