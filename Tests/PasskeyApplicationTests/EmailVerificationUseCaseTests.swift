import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Proving the current address, branch by branch on the in-memory store.
@Suite struct EmailVerificationUseCaseTests {
    private struct Fixture {
        let store = InMemoryStore()
        let limits = InMemoryRateLimitRepository()
        let clock = FixedClock()
        let random = SequentialRandomGenerator()
        let account = DomainFixtures.account()
        let email = EmailAddress("hanako@example.com")!
        var policy = PasskeyPolicy(passwordFailuresPerEmail: 50)

        init(mail: MailPolicy = MailPolicy(enabled: true, codeLifetime: 600, sendsPerHour: 3)) {
            policy.mail = mail
        }

        func setUp() async throws {
            store.addAccount(account, email: email.value, passwordHash: "$argon2id$x")
        }

        var maker: EmailCodeMaker { EmailCodeMaker(random: random, digester: PlainDigester()) }
        var verification: EmailVerificationUseCase {
            EmailVerificationUseCase(
                store: store, accounts: store, rateLimits: limits, maker: maker,
                composer: MailComposer(relyingPartyName: "Example"), policy: policy, clock: clock, gate: AttemptGate())
        }
        var session: ActiveSession {
            .signedIn(account, at: clock.now, in: store)
        }

        /// The code of the newest mail.
        var mailedCode: String? {
            store.outbox.last?.body.split(separator: "\n").map(String.init).first { $0.count == 6 && Int($0) != nil }
        }

        func confirm(_ code: String) async -> EmailFlowError? {
            do {
                _ = try await verification.confirm(session: session, code: code, clientAddress: "192.0.2.1")
                return nil
            } catch {
                return error
            }
        }

        func request() async -> EmailFlowError? {
            do {
                try await verification.request(session: session, clientAddress: "192.0.2.1")
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aMailedCodeVerifiesOnceAndGivesItsAttemptBack() async throws {
        let f = Fixture()
        try await f.setUp()
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        #expect(f.store.outbox.last?.notAfter == f.clock.now.addingTimeInterval(600))
        #expect(await f.confirm(code) == nil)
        #expect(f.store.tables.emails[f.account.id]?.verifiedAt == f.clock.now)
        #expect(f.store.events.map(\.activity) == [.emailVerified])
        #expect(f.limits.countedAttempts == 0)
        #expect(await f.confirm(code) == .alreadyVerified)
        #expect(await f.request() == .alreadyVerified)
    }

    @Test func aNewCodeVoidsTheEarlierOne() async throws {
        let f = Fixture()
        try await f.setUp()
        #expect(await f.request() == nil)
        let first = try #require(f.mailedCode)
        #expect(await f.request() == nil)
        let second = try #require(f.mailedCode)
        #expect(first != second)
        #expect(await f.confirm(first) == .invalidCode)
        #expect(await f.confirm(second) == nil)
    }

    @Test func theFifthWrongTryVoidsTheCodeAndEachCounts() async throws {
        let f = Fixture()
        try await f.setUp()
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        for _ in 0..<5 { #expect(await f.confirm("000000") == .invalidCode) }
        #expect(f.limits.countedAttempts == 5)
        #expect(await f.confirm(code) == .invalidCode)
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let f = Fixture()
        try await f.setUp()
        #expect(await f.request() == nil)
        let code = try #require(f.mailedCode)
        f.clock.advance(by: 601)
        #expect(await f.confirm(code) == .invalidCode)
    }

    @Test func theSendingLimitAnswersRetryAfterUntilTheHourIsOver() async throws {
        let f = Fixture()
        try await f.setUp()
        for _ in 0..<3 { #expect(await f.request() == nil) }
        f.clock.advance(by: 600)
        #expect(await f.request() == .rateLimited(retryAfter: 3000))
        f.clock.advance(by: 3000)
        #expect(await f.request() == nil)
    }

    @Test func withMailOffNothingRuns() async throws {
        let f = Fixture(mail: .off)
        try await f.setUp()
        #expect(await f.request() == .mailUnavailable)
        #expect(await f.confirm("123456") == .mailUnavailable)
        #expect(f.store.tables.emailCodes.isEmpty)
    }
}
