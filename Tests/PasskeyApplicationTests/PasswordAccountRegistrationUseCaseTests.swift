import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Password sign-up: validation, then the sign-up limit (before any hashing), then the hash and
/// the account.
@Suite struct PasswordAccountRegistrationUseCaseTests {
    private struct Fixture {
        let accounts = InMemoryStore()
        let hasher = ScriptedPasswordHasher()
        let limits = InMemoryRateLimitRepository()
        let clock = FixedClock()
        var signupLimit = 2

        var useCase: PasswordAccountRegistrationUseCase {
            PasswordAccountRegistrationUseCase(
                store: accounts, hasher: hasher,
                limiter: AddressRateLimiter(
                    repository: limits, limitPerMinute: 300, signupLimit: signupLimit, signupWindowSeconds: 900),
                clock: clock)
        }

        func register(
            email: String = "kenji@example.com", displayName: String = "Kenji", password: String = "correct horse"
        ) async throws(PasswordAccountRegistrationError) -> Account {
            try await useCase.execute(
                email: email, displayName: displayName, password: password, clientAddress: "192.0.2.50")
        }
    }

    @Test func anAccountIsCreatedWithTheHashOfItsPassword() async throws {
        let f = Fixture()
        let account = try await f.register(email: " Kenji@Example.com ", displayName: " Kenji Ito ")
        #expect(account.displayName.value == "Kenji Ito")
        #expect(account.createdAt == f.clock.now)
        #expect(f.accounts.passwordHash(of: account.id) == "hash:correct horse")
        let summary = try #require(try await f.accounts.accountSummary(id: account.id))
        #expect(summary.email.value == "Kenji@Example.com")
        #expect(summary.hasPassword)
        #expect(f.limits.hits(on: "signup:192.0.2.50") == 1)
        #expect(f.accounts.events.map(\.activity) == [.accountCreated(.password)])
        #expect(f.accounts.outbox.isEmpty)  // mail off: no verification code
    }

    @Test(arguments: [
        ("kenji", "Kenji", "email"), ("kenji@example.com", "", "displayName"),
        ("kenji@example.com", String(repeating: "k", count: 65), "displayName"),
    ])
    func aMalformedFieldIsRefusedBeforeCountingOrHashing(email: String, displayName: String, field: String)
        async throws
    {
        let f = Fixture()
        await #expect(throws: PasswordAccountRegistrationError.invalidRequest(field: field)) {
            try await f.register(email: email, displayName: displayName)
        }
        #expect(f.limits.hits(on: "signup:192.0.2.50") == 0)
        #expect(f.hasher.hashes == 0)
    }

    @Test(arguments: ["1234567", String(repeating: "ü", count: 513)])
    func aTooShortOrTooLongPasswordIsWeak(password: String) async throws {
        let f = Fixture()
        await #expect(throws: PasswordAccountRegistrationError.weakPassword) {
            try await f.register(password: password)
        }
        #expect(f.limits.hits(on: "signup:192.0.2.50") == 0)
        #expect(f.hasher.hashes == 0)
    }

    @Test func theLongestAndShortestAcceptablePasswordsAreAccepted() async throws {
        var f = Fixture()
        f.signupLimit = 0
        _ = try await f.register(email: "a@example.com", password: "12345678")
        _ = try await f.register(email: "b@example.com", password: String(repeating: "ü", count: 512))
        #expect(f.hasher.hashes == 2)
    }

    @Test func theSignupLimitRefusesBeforeHashing() async throws {
        let f = Fixture()
        _ = try await f.register(email: "a@example.com")
        _ = try await f.register(email: "b@example.com")
        await #expect(throws: PasswordAccountRegistrationError.rateLimited(retryAfter: 900)) {
            try await f.register(email: "c@example.com")
        }
        #expect(f.hasher.hashes == 2)
    }

    @Test func noSignupLimitCountsNothing() async throws {
        var f = Fixture()
        f.signupLimit = 0
        f.limits.failNext(.unavailable)  // would surface if the limiter asked the repository
        for index in 0..<3 { _ = try await f.register(email: "user\(index)@example.com") }
        #expect(f.limits.hits(on: "signup:192.0.2.50") == 0)
    }

    @Test func aTakenEmailIsAConflict() async throws {
        let f = Fixture()
        _ = try await f.register(email: "kenji@example.com")
        await #expect(throws: PasswordAccountRegistrationError.emailTaken) {
            try await f.register(email: "KENJI@example.com", displayName: "Another Kenji")
        }
    }

    @Test func aFullOrFailingHasherIsBusyOrAnInternalFailure() async throws {
        let f = Fixture()
        f.hasher.setBusy(true)
        await #expect(throws: PasswordAccountRegistrationError.hashingBusy) { try await f.register() }
        f.hasher.setFailing(true)
        await #expect(
            throws: PasswordAccountRegistrationError.internalFailure(cause: FailureCause(PasswordHashingError.failed))
        ) {
            try await f.register()
        }
        #expect(try await f.accounts.passwordAccount(normalizedEmail: "kenji@example.com") == nil)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        var f = Fixture()
        f.signupLimit = 100
        f.limits.failNext(.unavailable)
        await #expect(throws: PasswordAccountRegistrationError.unavailable) { try await f.register() }
        f.limits.failNext(.scripted("countHit"))
        await #expect(throws: PasswordAccountRegistrationError.internalFailure(cause: .scripted("countHit"))) {
            try await f.register()
        }
        let failures: [(RepositoryError, PasswordAccountRegistrationError)] = [
            (.unavailable, .unavailable),
            (.scripted("insert"), .internalFailure(cause: .scripted("insert"))),
            (
                .conflict(.credentialExists),
                .internalFailure(cause: FailureCause(RepositoryError.conflict(.credentialExists)))
            ),
        ]
        for (failure, expected) in failures {
            // After the account row: the transaction rolls back whatever it wrote.
            f.accounts.failNext(failure, afterCalls: 1)
            await #expect(throws: expected) { try await f.register() }
        }
        #expect(try await f.accounts.passwordAccount(normalizedEmail: "kenji@example.com") == nil)
    }
}
