import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Every branch of password sign-in on in-memory ports (the end-to-end suites on PostgreSQL and
/// the real server are the truth; these make each branch cheap to reach).
@Suite struct PasswordAuthenticationUseCaseTests {
    private struct Fixture {
        let accounts = InMemoryAccountRepository()
        let sessions = InMemorySessionRepository()
        let limits = InMemoryRateLimitRepository()
        let hasher = ScriptedPasswordHasher()
        let clock = FixedClock()
        let tokens = SequentialTokenGenerator()
        let random = SequentialRandomGenerator()
        let policy = PasskeyPolicy(passwordFailuresPerEmail: 3, passwordFailuresPerAddress: 100)

        var useCase: PasswordAuthenticationUseCase {
            PasswordAuthenticationUseCase(
                accounts: accounts, sessions: sessions, rateLimits: limits, hasher: hasher,
                issuer: SessionIssuer(tokens: tokens, random: random, lifetime: 3600),
                policy: policy, clock: clock)
        }

        /// A password account whose stored hash is `hash`.
        func user(email: String = "taro@example.com", hash: String) async throws -> Account {
            let account = DomainFixtures.account()
            try await accounts.createPasswordAccount(
                account, email: DomainFixtures.email(email, accountID: account.id),
                password: PasswordCredential(
                    accountID: account.id, passwordHash: hash, createdAt: Date(), updatedAt: Date()))
            return account
        }

        func signIn(_ password: String, email: String = "taro@example.com") async throws(PasswordAuthenticationError)
            -> IssuedSession
        {
            try await useCase.execute(email: email, password: password, clientAddress: "192.0.2.1").session
        }

        /// The `sign-in.failed` events written.
        var failedSignIns: [AccountEvent] { accounts.events.filter { $0.kind == .signInFailed } }

        /// The error of a sign-in, nil when it succeeded.
        func failure(_ password: String, email: String = "taro@example.com") async -> PasswordAuthenticationError? {
            do {
                _ = try await signIn(password, email: email)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func theRightPasswordOpensAPasswordSessionAndGivesItsAttemptBack() async throws {
        let f = Fixture()
        let account = try await f.user(hash: "hash:secret password")
        let issued = try await f.signIn("secret password", email: "Taro@Example.com")
        #expect(issued.account.id == account.id)
        #expect(issued.method == .password)
        #expect(f.sessions.all.map(\.method) == [.password])
        #expect(f.limits.countedAttempts == 0)
        // Its sign-in event, written with the session: the session it created, from the client.
        let event = try #require(f.sessions.events.first)
        #expect(f.sessions.events.count == 1)
        #expect(event.activity == .signIn(.password, credentialID: nil))
        #expect(event.accountID == account.id)
        #expect(event.sessionID == f.sessions.all.first?.id)
        #expect(event.clientAddress == "192.0.2.1")
        #expect(f.failedSignIns.isEmpty)
    }

    @Test func aWrongPasswordStaysCountedAndTheLimitRefusesEvenTheRightOne() async throws {
        let f = Fixture()
        _ = try await f.user(hash: "hash:secret password")
        for _ in 0..<3 { #expect(await f.failure("wrong") == .invalidCredentials) }
        #expect(f.limits.countedAttempts == 3)
        // Each wrong password of the existing account: sign-in.failed (password), no session.
        #expect(f.failedSignIns.count == 3)
        #expect(f.failedSignIns.allSatisfy { $0.activity == .signInFailed(.password) && $0.sessionID == nil })
        #expect(f.sessions.events.isEmpty)
        guard case .rateLimited(let retryAfter) = await f.failure("secret password") else {
            Issue.record("the right password was checked while limited")
            return
        }
        #expect(retryAfter > 0)
        #expect(f.hasher.verifications == 3)
    }

    @Test func anUnknownEmailCostsADummyVerificationAndTheSameAnswer() async throws {
        let f = Fixture()
        #expect(await f.failure("whatever", email: "nobody@example.com") == .invalidCredentials)
        #expect(f.hasher.dummyVerifications == 1)
        #expect(f.limits.countedAttempts == 1)
        #expect(f.failedSignIns.isEmpty)  // an unknown account writes nothing
    }

    @Test func aFullHashingQueueIsBusyAndCountsNothing() async throws {
        let f = Fixture()
        _ = try await f.user(hash: "hash:secret password")
        f.hasher.setBusy(true)
        #expect(await f.failure("secret password") == .hashingBusy)
        #expect(await f.failure("x", email: "nobody@example.com") == .hashingBusy)
        #expect(f.limits.countedAttempts == 0)
        #expect(f.failedSignIns.isEmpty && f.sessions.events.isEmpty)  // nothing was tried
    }

    @Test func aLegacyHashIsReplacedAfterTheRightPassword() async throws {
        let f = Fixture()
        let account = try await f.user(hash: "legacy:old password")
        let done = try await f.useCase.execute(email: "taro@example.com", password: "old password", clientAddress: "")
        #expect(done.rehashFailure == nil)
        #expect(f.accounts.passwordHash(of: account.id) == "hash:old password")
    }

    /// The sign-in does not depend on the upgrade: the old hash stays, and the failure is
    /// returned for the caller to log.
    @Test func aRehashThatFailsStillSignsInAndSaysWhy() async throws {
        let f = Fixture()
        let account = try await f.user(hash: "legacy:old password")
        f.hasher.failHashes(with: .failed)
        let done = try await f.useCase.execute(email: "taro@example.com", password: "old password", clientAddress: "")
        #expect(done.rehashFailure == .failed)
        #expect(done.session.account.id == account.id)
        #expect(f.sessions.all.map(\.method) == [.password])
        #expect(f.accounts.passwordHash(of: account.id) == "legacy:old password")
    }

    @Test func aCurrentHashIsNotRehashed() async throws {
        let f = Fixture()
        _ = try await f.user(hash: "hash:secret password")
        f.hasher.failHashes(with: .failed)
        let done = try await f.useCase.execute(
            email: "taro@example.com", password: "secret password", clientAddress: "")
        #expect(done.rehashFailure == nil)
        #expect(f.hasher.hashes == 0)
    }

    @Test func malformedInputIsRefusedBeforeAnythingIsCounted() async throws {
        let f = Fixture()
        #expect(await f.failure("x", email: "not an email") == .invalidRequest(field: "email"))
        #expect(await f.failure("", email: "a@example.com") == .invalidRequest(field: "password"))
        #expect(f.limits.countedAttempts == 0)
    }

    @Test func repositoryErrorsBecomeUnavailableOrAnInternalFailureWithItsCause() async throws {
        let f = Fixture()
        f.limits.failNext(.unavailable)
        #expect(await f.failure("secret") == .unavailable)
        f.limits.failNext(.scripted("PostgresRateLimitRepository.beginAttempt"))
        #expect(
            await f.failure("secret") == .internalFailure(cause: .scripted("PostgresRateLimitRepository.beginAttempt")))
        _ = try await f.user(hash: "hash:secret")
        f.sessions.failNext(.unavailable)
        #expect(await f.failure("secret") == .unavailable)
    }
}
