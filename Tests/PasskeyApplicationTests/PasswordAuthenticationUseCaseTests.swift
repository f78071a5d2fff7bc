import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Synchronization
import Testing

/// Every branch of password sign-in on in-memory ports (the end-to-end suites on PostgreSQL and
/// the real server are the truth; these make each branch cheap to reach).
@Suite struct PasswordAuthenticationUseCaseTests {
    private struct Fixture {
        let store = InMemoryStore()
        var accounts: InMemoryStore { store }
        var sessions: InMemoryStore { store }
        let limits = InMemoryRateLimitRepository()
        let hasher = ScriptedPasswordHasher()
        let clock = FixedClock()
        let tokens = SequentialTokenGenerator()
        let random = SequentialRandomGenerator()
        let policy = PasskeyPolicy(passwordFailuresPerEmail: 3, passwordFailuresPerAddress: 100)

        var useCase: PasswordAuthenticationUseCase {
            PasswordAuthenticationUseCase(
                accounts: store, sessions: store, failures: FailedSignInRecorder(store: store), rateLimits: limits,
                hasher: hasher,
                issuer: SessionIssuer(tokens: tokens, random: random, lifetime: 3600),
                policy: policy, clock: clock)
        }

        /// A password account whose stored hash is `hash`.
        func user(email: String = "taro@example.com", hash: String) async throws -> Account {
            store.addAccount(email: email, passwordHash: hash)
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

    /// Security round 4, finding 1: a password changed (or taken back) while the old one was
    /// being verified no longer signs in; no session, no `sign-in` event.
    @Test(arguments: [nil, "hash:new password"])
    func aPasswordReplacedOrRemovedDuringItsVerificationSignsNobodyIn(replacement: String?) async throws {
        for stored in ["hash:secret password", "legacy:secret password"] {
            let f = Fixture()
            let account = try await f.user(hash: stored)
            f.hasher.duringNextVerification { [store = f.store] in
                store.update { tables in
                    if let replacement {
                        tables.passwords[account.id]?.passwordHash = replacement
                    } else {
                        tables.passwords[account.id] = nil
                    }
                }
            }
            #expect(await f.failure("secret password") == .invalidCredentials, "\(stored)")
            #expect(f.store.tables.sessions.isEmpty)
            #expect(f.store.events.filter { $0.kind == .signIn }.isEmpty)
            #expect(f.store.passwordHash(of: account.id) == replacement, "an upgrade wrote over the change")
        }
    }

    /// Security round 4, finding 11: only a known address's failure wrote (its event), and its
    /// durable commit made that 401 measurably slower. It now commits without waiting for the disk.
    @Test func aKnownAddressesFailedSignInIsRecordedWithoutWaitingForTheDisk() async throws {
        let f = Fixture()
        _ = try await f.user(hash: "hash:secret password")
        #expect(await f.failure("wrong password") == .invalidCredentials)
        #expect(f.failedSignIns.count == 1)
        #expect(f.store.relaxedCommits == 1)
        #expect(await f.failure("wrong password", email: "nobody@example.com") == .invalidCredentials)
        #expect(f.store.relaxedCommits == 1)
    }

    @Test func theRightPasswordOpensAPasswordSessionAndGivesItsAttemptBack() async throws {
        let f = Fixture()
        let account = try await f.user(hash: "hash:secret password")
        let issued = try await f.signIn("secret password", email: "Taro@Example.com")
        #expect(issued.account.id == account.id)
        #expect(issued.method == .password)
        #expect(f.sessions.tables.sessions.values.map(\.method) == [.password])
        #expect(f.limits.countedAttempts == 0)
        // Its sign-in event, written with the session: the session it created, from the client.
        let event = try #require(f.sessions.events.first)
        #expect(f.sessions.events.count == 1)
        #expect(event.activity == .signIn(.password, credentialID: nil))
        #expect(event.accountID == account.id)
        #expect(event.sessionID == f.sessions.tables.sessions.values.first?.id)
        #expect(event.clientAddress == "192.0.2.1")
        #expect(f.failedSignIns.isEmpty)
    }

    /// (v4) A locked account: the right password is told apart (403) and changes nothing: no
    /// session, no event, no re-hash, the attempt given back; a wrong one is a 401 as always.
    @Test func aLockedAccountsRightPasswordIsAccountLockedAndChangesNothing() async throws {
        let f = Fixture()
        let account = try await f.user(hash: "legacy:secret password")
        f.store.update { $0.locks[account.id] = AccountLock(lockedAt: f.clock.now, reason: LockReason("x")!) }
        #expect(await f.failure("secret password") == .accountLocked)
        #expect(f.limits.countedAttempts == 0)
        #expect(f.sessions.tables.sessions.isEmpty)
        #expect(f.sessions.events.isEmpty)
        #expect(f.accounts.passwordHash(of: account.id) == "legacy:secret password", "no re-hash")
        #expect(await f.failure("wrong") == .invalidCredentials)
        #expect(f.failedSignIns.count == 1)
    }

    @Test func aWrongPasswordStaysCountedAndTheLimitRefusesEvenTheRightOne() async throws {
        let f = Fixture()
        _ = try await f.user(hash: "hash:secret password")
        for _ in 0..<3 { #expect(await f.failure("wrong") == .invalidCredentials) }
        #expect(f.limits.countedAttempts == 3)
        // Each wrong password of the existing account: sign-in.failed (password), no session.
        #expect(f.failedSignIns.count == 3)
        #expect(f.failedSignIns.allSatisfy { $0.activity == .signInFailed(.password) && $0.sessionID == nil })
        #expect(f.sessions.tables.sessions.isEmpty)
        #expect(f.sessions.events.count == 3)  // the failures only, no sign-in
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
        #expect(f.sessions.tables.sessions.values.map(\.method) == [.password])
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

    /// Security round 4, finding 6: writing a failed sign-in's event never changes the answer. When
    /// it fails, the answer is the same 401 as for an unknown address, and the cause is reported.
    @Test func aFailedSignInWhoseEventCannotBeWrittenIsStillA401AndTheCauseIsReported() async throws {
        let f = Fixture()
        _ = try await f.user(hash: "hash:secret password")
        let reported = Reported()
        let useCase = PasswordAuthenticationUseCase(
            accounts: f.store, sessions: f.store,
            failures: FailedSignInRecorder(store: f.store) { reported.append($0) }, rateLimits: f.limits,
            hasher: f.hasher, issuer: SessionIssuer(tokens: f.tokens, random: f.random, lifetime: 3600),
            policy: f.policy, clock: f.clock)
        // The account is read, then found again for its event, whose write fails.
        f.store.failNext(.scripted("record"), afterCalls: 2)
        await #expect(throws: PasswordAuthenticationError.invalidCredentials) {
            _ = try await useCase.execute(email: "taro@example.com", password: "wrong", clientAddress: "192.0.2.1")
        }
        #expect(reported.all == [.scripted("record")])
        #expect(f.failedSignIns.isEmpty)
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
        f.sessions.failNext(.unavailable, afterCalls: 1)  // the account is read; its session is not stored
        #expect(await f.failure("secret") == .unavailable)
        #expect(f.sessions.tables.sessions.isEmpty)
    }
}

/// Errors a test's reporter was handed.
private final class Reported: Sendable {
    private let errors = Mutex<[RepositoryError]>([])
    func append(_ error: RepositoryError) { errors.withLock { $0.append(error) } }
    var all: [RepositoryError] { errors.withLock { $0 } }
}
