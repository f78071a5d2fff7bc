import PasskeyApplication
import PasskeyPasswordHashing
import Testing

/// Argon2id hashing, verification and the rehash policy.
@Suite struct Argon2PasswordHasherTests {
    let hasher = Argon2PasswordHasher(width: 1)

    @Test func hashThenVerifyMatchesWithoutRehash() async throws {
        let hash = try await hasher.hash(PasswordHashVector.staple)
        #expect(try await hasher.verify(PasswordHashVector.staple, against: hash) == .match(needsRehash: false))
    }

    @Test func wrongPasswordIsAMismatch() async throws {
        let hash = try await hasher.hash(PasswordHashVector.staple)
        #expect(try await hasher.verify("correct horse battery stapler", against: hash) == .mismatch)
        #expect(try await hasher.verify("", against: hash) == .mismatch)
    }

    @Test func hashesAreSaltedPHCStringsWithOWASPParameters() async throws {
        let first = try await hasher.hash(PasswordHashVector.staple)
        let second = try await hasher.hash(PasswordHashVector.staple)
        #expect(first.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(first.split(separator: "$").count == 5)
        #expect(first != second)
    }

    @Test func configuredParametersAppearInThePHCString() async throws {
        let custom = Argon2PasswordHasher(parameters: .init(opsLimit: 3, memoryLimitKiB: 8192), width: 1)
        let hash = try await custom.hash("hunter2hunter2")
        #expect(hash.hasPrefix("$argon2id$v=19$m=8192,t=3,p=1$"))
        #expect(try await custom.verify("hunter2hunter2", against: hash) == .match(needsRehash: false))
    }

    /// Weaker hashes (and, with libsodium's policy, any cost other than the current one) verify
    /// and ask for a rehash.
    @Test(arguments: [(1, 19_456), (2, 8192), (1, 8192), (3, 19_456)])
    func hashWithOtherParametersNeedsRehash(opsLimit: Int, memoryLimitKiB: Int) async throws {
        let other = Argon2PasswordHasher(
            parameters: .init(opsLimit: opsLimit, memoryLimitKiB: memoryLimitKiB), width: 1)
        let hash = try await other.hash(PasswordHashVector.staple)
        #expect(try await hasher.verify(PasswordHashVector.staple, against: hash) == .match(needsRehash: true))
        #expect(try await hasher.verify("wrong password", against: hash) == .mismatch)
    }

    @Test func argon2idFromAnotherImplementationVerifies() async throws {
        let vector = PasswordHashVector.argon2idFromArgon2CFFI
        #expect(try await hasher.verify(vector.password, against: vector.hash) == .match(needsRehash: false))
        #expect(try await hasher.verify("wrong password", against: vector.hash) == .mismatch)
    }

    @Test func argon2iVerifiesAndNeedsRehash() async throws {
        let vector = PasswordHashVector.argon2iFromArgon2CFFI
        #expect(try await hasher.verify(vector.password, against: vector.hash) == .match(needsRehash: true))
        #expect(try await hasher.verify("wrong password", against: vector.hash) == .mismatch)
    }

    @Test func unicodeAndEmptyPasswordsRoundTrip() async throws {
        for password in ["p\u{E4}ssw\u{F6}rd \u{1F511}", "", "with\u{0}nul byte"] {
            let hash = try await hasher.hash(password)
            #expect(try await hasher.verify(password, against: hash) == .match(needsRehash: false))
        }
    }

    @Test func passwordOf1024BytesIsAcceptedAnd1025IsNot() async throws {
        let longest = String(repeating: "a", count: 1024)
        let hash = try await hasher.hash(longest)
        #expect(try await hasher.verify(longest, against: hash) == .match(needsRehash: false))
        #expect(try await hasher.verify(longest + "a", against: hash) == .mismatch)
        await #expect(throws: PasswordHashingError.failed) { try await hasher.hash(longest + "a") }
    }

    @Test func multiByteCharactersCountAsBytes() async throws {
        // 512 two-byte characters are 1024 bytes; one more character makes 1026.
        let longest = String(repeating: "\u{E9}", count: 512)
        let hash = try await hasher.hash(longest)
        #expect(try await hasher.verify(longest, against: hash) == .match(needsRehash: false))
        #expect(try await hasher.verify(longest + "\u{E9}", against: hash) == .mismatch)
    }

    @Test func dummyVerificationRunsAnArgon2VerificationOnThePool() async throws {
        let pool = BlockingWorkPool(width: 1)
        let hasher = Argon2PasswordHasher(parameters: .owasp, limits: .standard, pool: pool)
        try await hasher.verifyAgainstDummy(PasswordHashVector.staple)
        try await hasher.verifyAgainstDummy("")
        try await hasher.verifyAgainstDummy(String(repeating: "x", count: 5000))
        #expect(pool.metrics.completed == 3)
    }
}
