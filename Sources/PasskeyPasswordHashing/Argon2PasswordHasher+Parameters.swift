extension Argon2PasswordHasher {
    /// The Argon2id cost of new hashes (libsodium's `opslimit` is Argon2's `t`, `memlimit` its
    /// `m`; libsodium always uses one lane, `p=1`).
    package struct Parameters: Hashable, Sendable {
        /// Argon2 passes over memory (`t`).
        package let opsLimit: Int
        /// Memory per hash in KiB (`m`).
        package let memoryLimitKiB: Int

        /// OWASP's recommended minimum: m=19 MiB, t=2, p=1 (`$argon2id$v=19$m=19456,t=2,p=1$…`).
        package static let owasp = Parameters(opsLimit: 2, memoryLimitKiB: 19_456)

        /// Any cost libsodium accepts; production uses `.owasp` or stronger, tests may go lower.
        /// Traps on values libsodium would refuse (t < 1, m < 8 KiB or m > 4 GiB): a configuration bug.
        package init(opsLimit: Int, memoryLimitKiB: Int) {
            precondition(
                (1...Int(UInt32.max)).contains(opsLimit), "Argon2id opsLimit must be at least 1")
            precondition(
                (8...4_194_304).contains(memoryLimitKiB), "Argon2id memory must be 8 KiB to 4 GiB")
            self.opsLimit = opsLimit
            self.memoryLimitKiB = memoryLimitKiB
        }

        /// `memlimit` as libsodium takes it, in bytes.
        var memoryLimitBytes: Int { memoryLimitKiB * 1024 }
    }
}
