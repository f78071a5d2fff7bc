import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Recovery by email, branch by branch on in-memory ports.
@Suite struct EmailSignInUseCaseTests {
    private struct Fixture {
        let codes = InMemoryEmailCodeRepository()
        let limits = InMemoryRateLimitRepository()
        let clock = FixedClock()
        let random = SequentialRandomGenerator()
        let account = DomainFixtures.account()
        var policy = PasskeyPolicy(passwordFailuresPerEmail: 2, recoverySessionLifetime: 900)

        init(mail: MailPolicy = MailPolicy(enabled: true, codeLifetime: 600, sendsPerHour: 2), verified: Bool = false) {
            policy.mail = mail
            codes.register(account, email: EmailAddress("hanako@example.com")!, verified: verified)
        }

        var maker: EmailCodeMaker { EmailCodeMaker(random: random, digester: PlainDigester()) }
        var composer: MailComposer { MailComposer(relyingPartyName: "Example") }
        var request: EmailRecoveryRequestUseCase {
            EmailRecoveryRequestUseCase(
                codes: codes, limiter: AddressRateLimiter(repository: limits, limitPerMinute: 0), maker: maker,
                composer: composer, policy: policy, clock: clock)
        }
        var signIn: EmailSignInUseCase {
            EmailSignInUseCase(
                codes: codes, rateLimits: limits, maker: maker,
                issuer: SessionIssuer(tokens: SequentialTokenGenerator(), random: random, lifetime: 86_400),
                notifier: SecurityNotifier(policy: policy, random: random), policy: policy, clock: clock,
                gate: AttemptGate())
        }
        var mailedCode: String? {
            codes.mails.last?.body.split(separator: "\n").map(String.init).first { $0.count == 6 && Int($0) != nil }
        }

        func failure(_ code: String, email: String = "hanako@example.com") async -> EmailSignInError? {
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
        try await f.request.execute(email: "Hanako@Example.com", clientAddress: "192.0.2.1")
        let code = try #require(f.mailedCode)
        let (issued, reclaimed) = try await f.signIn.execute(
            email: "hanako@example.com", code: code, origin: RequestOrigin(clientAddress: "192.0.2.1"),
            clientAddress: "192.0.2.1")
        #expect(issued.method == .email)
        #expect(issued.expiresAt == f.clock.now.addingTimeInterval(900))
        #expect(reclaimed)
        #expect(f.codes.reclaimed == [f.account.id])
        #expect(f.codes.address(of: f.account.id)?.verified == true)
        #expect(f.limits.countedAttempts == 0)
        #expect(await f.failure(code) == .invalidCredentials)  // used once
    }

    @Test func aVerifiedAddressIsNotReclaimed() async throws {
        let f = Fixture(verified: true)
        try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1")
        let code = try #require(f.mailedCode)
        let (_, reclaimed) = try await f.signIn.execute(
            email: "hanako@example.com", code: code, origin: RequestOrigin(clientAddress: "192.0.2.1"),
            clientAddress: "192.0.2.1")
        #expect(!reclaimed)
        #expect(f.codes.reclaimed.isEmpty)
    }

    @Test func unknownAddressesAndTheLimitMailNothingAndAnswerAlike() async throws {
        let f = Fixture()
        try await f.request.execute(email: "nobody@example.com", clientAddress: "192.0.2.1")
        #expect(f.codes.mails.isEmpty)
        for _ in 0..<4 { try await f.request.execute(email: "hanako@example.com", clientAddress: "192.0.2.1") }
        #expect(f.codes.mails.count == 2)
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
