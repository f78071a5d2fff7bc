import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Recovery by email, branch by branch on the in-memory store: the request's limit and silence,
/// the sign-in's one use of a code, and the take-back of a never-verified account.
@Suite struct RecoveryEmailAuthenticationUseCaseTests {
    private struct Fixture {
        let store = InMemoryStore()
        let limits = InMemoryRateLimitRepository()
        let clock = FixedClock()
        let random = SequentialRandomGenerator()
        let account: Account
        var policy = PasskeyPolicy(passwordFailuresPerEmail: 2, recoverySessionLifetime: 900)

        init(mail: MailPolicy = MailPolicy(enabled: true, codeLifetime: 600, sendsPerHour: 2), verified: Bool = false) {
            policy.mail = mail
            account = store.addAccount(email: "hanako@example.com", verified: verified, passwordHash: "h")
        }

        var maker: EmailCodeMaker { EmailCodeMaker(random: random, digester: PlainDigester()) }
        var composer: MailComposer { MailComposer(relyingPartyName: "Example") }
        var request: RecoveryEmailRequestUseCase {
            RecoveryEmailRequestUseCase(
                store: store, limiter: AddressRateLimiter(repository: limits, limitPerMinute: 0), maker: maker,
                composer: composer, policy: policy, clock: clock)
        }
        var signIn: RecoveryEmailAuthenticationUseCase {
            RecoveryEmailAuthenticationUseCase(
                store: store, rateLimits: limits, maker: maker,
                issuer: SessionIssuer(tokens: SequentialTokenGenerator(), random: random, lifetime: 86_400),
                notifier: SecurityNotifier(policy: policy, random: random), policy: policy, clock: clock,
                gate: AttemptGate())
        }
        /// The code mails (notices have no code line).
        var codeMails: [OutgoingMail] { store.outbox.filter { $0.notAfter != nil } }
        var mailedCode: String? {
            codeMails.last?.body.split(separator: "\n").map(String.init).first { $0.count == 6 && Int($0) != nil }
        }

        func failure(_ code: String, email: String = "hanako@example.com") async -> RecoveryEmailAuthenticationError? {
            do {
                _ = try await signIn.execute(
                    email: email, code: code, origin: RequestOrigin(clientAddress: "192.0.2.1"),
                    clientAddress: "192.0.2.1")
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aCodeOpensAShortEmailSessionAndTakesANeverVerifiedAccountBack() async throws {
        let f = Fixture()
        f.store.add(DomainFixtures.passkey(accountID: f.account.id))
        f.store.add(
            StoredRecoveryCode(
                id: UUID(), accountID: f.account.id, digest: [1], source: .user, createdAt: f.clock.now,
                expiresAt: nil))
        let squatter = f.store.signIn(f.account, at: f.clock.now)
        try await f.request.execute(email: "Hanako@Example.com", clientAddress: "192.0.2.1")
        let code = try #require(f.mailedCode)
        let signedIn = try await f.signIn.execute(
            email: "hanako@example.com", code: code, origin: RequestOrigin(clientAddress: "192.0.2.1"),
            clientAddress: "192.0.2.1")
        let (issued, reclaimed) = (signedIn.session, signedIn.reclaimed)
        #expect(issued.method == .email)
        #expect(issued.expiresAt == f.clock.now.addingTimeInterval(900))
        #expect(reclaimed)
        // What the squatter set up is gone, and its session ended; the new session lives.
        let tables = f.store.tables
        #expect(tables.passwords[f.account.id] == nil)
        #expect(tables.passkeys.isEmpty && tables.recoveryCodes.isEmpty)
        #expect(tables.sessions[squatter.id]?.revokedAt == f.clock.now)
        #expect(tables.sessions.values.filter { $0.revokedAt == nil }.map(\.method) == [.email])
        #expect(tables.emails[f.account.id]?.verifiedAt == f.clock.now)
        #expect(f.store.events.map(\.kind) == [.accountReclaimed, .signIn])
        #expect(f.limits.countedAttempts == 0)
        #expect(await f.failure(code) == .invalidCredentials)  // used once
    }

    /// (v4) A locked account still gets its code; the right code is 403 and stays unused, and
    /// nothing is taken back; the same code signs in once the account is unlocked.
    @Test func aLockedAccountsRightCodeIsAccountLockedAndLeftUnused() async throws {
        let f = Fixture()
        f.store.add(DomainFixtures.passkey(accountID: f.account.id))
        f.store.update { $0.locks[f.account.id] = AccountLock(lockedAt: f.clock.now, reason: LockReason("x")!) }
        try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1")
        let code = try #require(f.mailedCode, "a locked account still gets its code")
        #expect(await f.failure(code) == .accountLocked)
        #expect(f.store.tables.passwords[f.account.id] != nil, "nothing taken back")
        #expect(f.store.tables.passkeys.count == 1)
        #expect(f.store.tables.sessions.isEmpty)
        #expect(f.store.events.isEmpty)
        #expect(f.limits.countedAttempts == 0)
        f.store.update { $0.locks[f.account.id] = nil }
        #expect(await f.failure(code) == nil, "the code was not used up")
    }

    @Test func aVerifiedAddressIsNotReclaimedAndGetsTheNotice() async throws {
        let f = Fixture(verified: true)
        try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1")
        let code = try #require(f.mailedCode)
        let signedIn = try await f.signIn.execute(
            email: "hanako@example.com", code: code, origin: RequestOrigin(clientAddress: "192.0.2.1"),
            clientAddress: "192.0.2.1")
        let reclaimed = signedIn.reclaimed
        #expect(!reclaimed)
        #expect(f.store.tables.passwords[f.account.id] != nil)
        #expect(f.store.events.map(\.kind) == [.signIn])
        #expect(f.store.outbox.count == 2)  // the code, then the recovery sign-in notice
    }

    @Test func unknownAddressesAndTheLimitMailNothingAndAnswerAlike() async throws {
        let f = Fixture()
        try await f.request.execute(email: "nobody@example.com", clientAddress: "192.0.2.1")
        #expect(f.store.outbox.isEmpty)
        for _ in 0..<4 { try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1") }
        #expect(f.codeMails.count == 2)
        // A new code voids the earlier one.
        #expect(f.store.tables.emailCodes.filter { $0.voidedAt == nil }.count == 1)
    }

    @Test func wrongCodesAreFailedSignInsOfTheAccountAndVoidTheCodeAtTheLimit() async throws {
        var f = Fixture()
        f.policy.passwordFailuresPerEmail = 100
        try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1")
        let code = try #require(f.mailedCode)
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 { #expect(await f.failure(wrong) == .invalidCredentials) }
        #expect(await f.failure(code) == .invalidCredentials)  // void after 5 wrong tries
        #expect(f.store.events.map(\.kind) == Array(repeating: .signInFailed, count: 6))
        #expect(await f.failure(wrong, email: "nobody@example.com") == .invalidCredentials)
        #expect(f.store.events.count == 6)  // an unknown address records nothing
    }

    @Test func failuresCountAndAreLimited() async throws {
        let f = Fixture()
        #expect(await f.failure("123456") == .invalidCredentials)
        #expect(await f.failure("123456", email: "nobody@example.com") == .invalidCredentials)
        #expect(await f.failure("123456") == .invalidCredentials)
        if case .rateLimited = await f.failure("123456") {} else { Issue.record("not limited") }
        #expect(await f.failure("123456", email: "bad") == .invalidRequest(field: "email"))
    }

    @Test func withMailOffNothingRuns() async throws {
        let f = Fixture(mail: .off)
        #expect(await f.failure("123456") == .mailUnavailable)
        await #expect(throws: EmailFlowError.mailUnavailable) {
            try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1")
        }
    }
}
