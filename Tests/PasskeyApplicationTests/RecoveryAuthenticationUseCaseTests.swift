import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Recovery sign-in branch by branch on in-memory ports.
@Suite struct RecoveryAuthenticationUseCaseTests {
    private struct Fixture {
        let codes = InMemoryStore()
        let limits = InMemoryRateLimitRepository()
        let clock = FixedClock()
        let tokens = SequentialTokenGenerator()
        let random = SequentialRandomGenerator()
        let account: Account
        let policy = PasskeyPolicy(passwordFailuresPerEmail: 2, recoverySessionLifetime: 900)

        var useCase: RecoveryAuthenticationUseCase {
            RecoveryAuthenticationUseCase(
                store: codes, rateLimits: limits, digester: PlainDigester(),
                issuer: SessionIssuer(tokens: tokens, random: random, lifetime: 86_400), policy: policy,
                clock: clock, gate: AttemptGate())
        }

        init() { account = codes.addAccount(email: "hanako@example.com") }

        /// The sessions the sign-ins created.
        var sessions: [AuthenticationSession] { Array(codes.tables.sessions.values) }

        /// Stores a code of `source` (expiring like an operator's when `expiresIn` is given).
        func store(_ code: RecoveryCode, source: RecoveryCodeSource = .user, expiresIn: TimeInterval? = nil)
            async throws
        {
            let stored = StoredRecoveryCode(
                id: UUID(), accountID: account.id, digest: Array(code.canonical.utf8), source: source,
                createdAt: clock.now, expiresAt: expiresIn.map { clock.now.addingTimeInterval($0) })
            codes.add(stored)
        }

        /// The events of `kind` the repository wrote.
        func events(_ kind: AccountActivity.Kind) -> [AccountEvent] { codes.events.filter { $0.kind == kind } }

        func failure(_ code: String, email: String = "Hanako@Example.com") async -> RecoveryAuthenticationError? {
            do {
                _ = try await useCase.execute(email: email, code: code, clientAddress: "192.0.2.1", origin: .example)
                return nil
            } catch {
                return error
            }
        }
    }

    private static let code = RecoveryCode(bytes: Array(0..<10))

    @Test func aCodeOpensAShortRecoverySessionOnceAndGivesItsAttemptBack() async throws {
        let f = Fixture()
        try await f.store(Self.code)
        let done = try await f.useCase.execute(
            email: "hanako@example.com", code: Self.code.formatted.lowercased(), clientAddress: "192.0.2.1",
            origin: .example)
        let (issued, source) = (done.session, done.source)
        #expect(issued.method == .recovery)
        #expect(issued.expiresAt == f.clock.now.addingTimeInterval(900))
        #expect(source == .user)
        #expect(f.sessions.map(\.method) == [.recovery])
        #expect(f.limits.countedAttempts == 0)
        #expect(await f.failure(Self.code.formatted) == .invalidCredentials)
        // sign-in (recovery) with the session it created; the double submit is no failure.
        let signIns = f.events(.signIn)
        #expect(signIns.map(\.activity) == [.signIn(.recovery, credentialID: nil)])
        #expect(signIns.first?.sessionID == f.sessions.first?.id)
        #expect(signIns.first?.accountID == f.account.id)
        #expect(signIns.first?.clientAddress == RequestOrigin.example.clientAddress)
        #expect(f.events(.signInFailed).isEmpty)
    }

    @Test func failuresCountAgainstThePasswordBudget() async throws {
        let f = Fixture()
        try await f.store(Self.code)
        let wrong = RecoveryCode(bytes: Array(repeating: 9, count: 10)).formatted
        #expect(await f.failure(wrong) == .invalidCredentials)
        #expect(await f.failure(wrong, email: "nobody@example.com") == .invalidCredentials)
        #expect(await f.failure(wrong) == .invalidCredentials)
        guard case .rateLimited = await f.failure(Self.code.formatted) else {
            Issue.record("the right code was checked while limited")
            return
        }
        // The two wrong codes of the account; not the unknown address, not the limited attempt.
        #expect(f.events(.signInFailed).map(\.activity) == [.signInFailed(.recovery), .signInFailed(.recovery)])
        #expect(f.events(.signInFailed).allSatisfy { $0.accountID == f.account.id && $0.sessionID == nil })
        #expect(f.events(.signIn).isEmpty)
    }

    /// A use that finds the code consumed just now (a double submit that lost the race) answers
    /// like any used code but is not counted; once the window has passed, it counts again.
    @Test func aUseOfACodeConsumedJustNowIsRefusedButNotCounted() async throws {
        let f = Fixture()
        try await f.store(Self.code)
        _ = try await f.useCase.execute(
            email: "hanako@example.com", code: Self.code.formatted, clientAddress: "192.0.2.1", origin: .example)
        for _ in 0..<3 { #expect(await f.failure(Self.code.formatted) == .invalidCredentials) }
        #expect(f.limits.countedAttempts == 0)
        f.clock.advance(by: RecoveryAuthenticationUseCase.recentUseWindow + 1)
        #expect(await f.failure(Self.code.formatted) == .invalidCredentials)
        #expect(f.limits.countedAttempts == 1)
    }

    /// Thirty uses of one code at once, with a budget of 2: one session, 29 used-code answers,
    /// none refused by the others' attempts in flight, nothing left counted.
    @Test func aBurstOfOneCodeIsOneSessionAndNoCountedFailure() async throws {
        let f = Fixture()
        try await f.store(Self.code)
        let useCase = f.useCase
        let outcomes = await withTaskGroup(of: RecoveryAuthenticationError?.self) { group in
            for _ in 0..<30 {
                group.addTask { () async -> RecoveryAuthenticationError? in
                    do throws(RecoveryAuthenticationError) {
                        _ = try await useCase.execute(
                            email: "hanako@example.com", code: Self.code.formatted, clientAddress: "192.0.2.1",
                            origin: .example)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [RecoveryAuthenticationError?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.filter { $0 == .invalidCredentials }.count == 29)
        #expect(f.limits.countedAttempts == 0)
        #expect(f.sessions.count == 1)
    }

    @Test func anExpiredOperatorCodeIsRefused() async throws {
        let f = Fixture()
        try await f.store(Self.code, source: .operator, expiresIn: 60)
        f.clock.advance(by: 61)
        #expect(await f.failure(Self.code.formatted) == .invalidCredentials)
    }

    @Test func whatCannotBeACodeIsAnInvalidRequestAndCountsNothing() async throws {
        let f = Fixture()
        #expect(await f.failure("1234") == .invalidRequest(field: "code"))
        #expect(await f.failure(Self.code.formatted, email: "no at sign") == .invalidRequest(field: "email"))
        #expect(f.limits.countedAttempts == 0)
    }

    @Test func repositoryErrorsAreUnavailableOrInternal() async throws {
        let f = Fixture()
        f.codes.failNext(.unavailable)
        #expect(await f.failure(Self.code.formatted) == .unavailable)
        f.limits.failNext(.scripted("boom"))
        #expect(await f.failure(Self.code.formatted) == .internalFailure(cause: .scripted("boom")))
    }
}
