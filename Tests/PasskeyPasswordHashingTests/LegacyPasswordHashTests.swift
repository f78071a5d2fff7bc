import PasskeyApplication
import PasskeyPasswordHashing
import Testing

/// bcrypt and PBKDF2-SHA256 hashes imported from older systems verify and ask for a rehash.
@Suite struct LegacyPasswordHashTests {
    let hasher = Argon2PasswordHasher(width: 1)

    @Test(arguments: PasswordHashVector.bcrypt + PasswordHashVector.pbkdf2)
    func legacyHashMatchesAndNeedsRehash(vector: PasswordHashVector) async throws {
        #expect(try await hasher.verify(vector.password, against: vector.hash) == .match(needsRehash: true))
    }

    @Test(arguments: PasswordHashVector.bcrypt + PasswordHashVector.pbkdf2)
    func legacyHashRejectsWrongPassword(vector: PasswordHashVector) async throws {
        #expect(try await hasher.verify("x" + vector.password, against: vector.hash) == .mismatch)
        #expect(try await hasher.verify("Correct horse battery staple", against: vector.hash) == .mismatch)
    }

    @Test func bcryptReadsOnlyTheFirst72Bytes() async throws {
        // bcrypt's own semantics: a password agreeing on the first 72 bytes matches.
        let vector = PasswordHashVector.bcrypt[3]
        let sharedPrefix = String(vector.password.prefix(72)) + "something else entirely"
        #expect(try await hasher.verify(sharedPrefix, against: vector.hash) == .match(needsRehash: true))
        #expect(try await hasher.verify(String(vector.password.prefix(71)), against: vector.hash) == .mismatch)
    }

    @Test func bcryptRefusesPasswordsWithNUL() async throws {
        let vector = PasswordHashVector.bcrypt[0]
        #expect(try await hasher.verify(vector.password + "\u{0}", against: vector.hash) == .mismatch)
    }

    @Test func otherCryptSchemesAreRefusedEvenWithTheRightPassword() async throws {
        let sha512crypt =
            "$6$rounds=1000$saltsaltsalt$DOX55tdk4w/JXx511/YvaeZ1Pex5i66k3kOPIJJSst9s2tqZkfdNW.F3krHA9DhjjP8nDJVsMZKYYrjJMnJRZ0"
        let md5crypt = "$1$saltsalt$BsXyQbZiQujHkdhwPwdol."
        #expect(try await hasher.verify(PasswordHashVector.staple, against: sha512crypt) == .mismatch)
        #expect(try await hasher.verify(PasswordHashVector.staple, against: md5crypt) == .mismatch)
    }

    @Test func verificationLimitsRefuseCostlierHashesBeforeHashing() async throws {
        let strict = Argon2PasswordHasher(
            parameters: .init(opsLimit: 1, memoryLimitKiB: 8192),
            limits: .init(argon2MemoryKiB: 8192, argon2Iterations: 1, bcryptCost: 3, pbkdf2Iterations: 999),
            width: 1)
        for vector in PasswordHashVector.all {
            #expect(try await strict.verify(vector.password, against: vector.hash) == .mismatch, "\(vector.name)")
        }
    }

    @Test func limitsNeverRefuseTheHashersOwnParameters() async throws {
        let hasher = Argon2PasswordHasher(
            parameters: .init(opsLimit: 3, memoryLimitKiB: 32_768),
            limits: .init(argon2MemoryKiB: 8, argon2Iterations: 1, bcryptCost: 4, pbkdf2Iterations: 1),
            width: 1)
        let hash = try await hasher.hash(PasswordHashVector.staple)
        #expect(try await hasher.verify(PasswordHashVector.staple, against: hash) == .match(needsRehash: false))
    }
}
