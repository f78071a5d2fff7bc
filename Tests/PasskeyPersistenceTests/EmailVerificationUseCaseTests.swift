import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `EmailVerificationUseCase` over `PostgresUnitOfWork`: the races the account's and the code's
/// row locks and the recipient's advisory lock decide (its branches are tested on the in-memory
/// store in PasskeyApplicationTests).
@Suite struct EmailVerificationUseCaseTests {
    static func useCase(_ pool: PostgresConnectionPool, sendsPerHour: Int = 5) -> EmailVerificationUseCase {
        var policy = PasskeyPolicy(passwordFailuresPerEmail: 100, passwordFailuresPerAddress: 100)
        policy.mail = MailPolicy(enabled: true, sendsPerHour: sendsPerHour)
        let repos = Repositories(pool: pool)
        return EmailVerificationUseCase(
            store: repos.store, accounts: repos.accounts, rateLimits: repos.rateLimits,
            maker: EmailCodeMaker(random: SystemRandomBytes(), digester: PaddedDigester()),
            composer: MailComposer(relyingPartyName: "Example"), policy: policy, clock: SystemClock(),
            gate: AttemptGate())
    }

    /// The code of the newest mail in the outbox (it stands on a line of its own).
    static func mailedCode(_ repos: Repositories) async throws -> String {
        let body = try #require(
            try await repos.rows("SELECT body FROM mail_outbox ORDER BY created_at DESC LIMIT 1").first?
                .decode(String.self, column: "body"))
        return try #require(body.split(separator: "\n").map(String.init).first { $0.count == 6 && Int($0) != nil })
    }

    @Test func ofConcurrentConfirmationsOfOneCodeExactlyOneWins() async throws {
        try await withTestDatabase(maximumConnections: 12) { _, pool in
            let repos = Repositories(pool: pool)
            let useCase = Self.useCase(pool)
            let account = try await repos.passwordAccount()
            let session = try await repos.signedIn(account)
            try await useCase.request(session: session, clientAddress: "192.0.2.1")
            let code = try await Self.mailedCode(repos)
            try await openConnections(10, of: pool)
            let outcomes = try await concurrently(Array(0..<10)) { index -> EmailFlowError? in
                do throws(EmailFlowError) {
                    _ = try await useCase.confirm(
                        session: session, code: code, clientAddress: "192.0.2.\(index)")
                    return nil
                } catch {
                    return error
                }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.filter { $0 == .alreadyVerified }.count == 9)
            #expect(try await repos.accounts.accountSummary(id: account.id)?.emailVerified == true)
            #expect(try await repos.count("SELECT count(*) FROM email_codes WHERE used_at IS NOT NULL") == 1)
            #expect(try await repos.count("SELECT count(*) FROM account_events WHERE kind = 'email.verified'") == 1)
        }
    }

    @Test func theSendingLimitHoldsForConcurrentIssuesFromTwoPools() async throws {
        try await withTestDatabase(maximumConnections: 6) { database, pool in
            let other = database.makePool(maximumConnections: 6)
            defer { other.close() }
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let session = try await repos.signedIn(account)
            try await openConnections(5, of: pool)
            try await openConnections(5, of: other)
            let useCases = [Self.useCase(pool, sendsPerHour: 3), Self.useCase(other, sendsPerHour: 3)]
            let outcomes = try await concurrently(Array(0..<10)) { index -> EmailFlowError? in
                do throws(EmailFlowError) {
                    try await useCases[index % 2].request(session: session, clientAddress: "192.0.2.1")
                    return nil
                } catch {
                    return error
                }
            }
            #expect(outcomes.filter { $0 == nil }.count == 3)
            #expect(outcomes.filter { if case .rateLimited = $0 { true } else { false } }.count == 7)
            #expect(try await repos.count("SELECT count(*) FROM email_codes") == 3)
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 3)
            // Of the three, only the newest is live: each voided the one before it.
            #expect(try await repos.count("SELECT count(*) FROM email_codes WHERE voided_at IS NULL") == 1)
        }
    }
}
