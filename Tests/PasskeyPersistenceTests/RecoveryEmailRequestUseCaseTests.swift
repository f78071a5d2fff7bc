import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `RecoveryEmailRequestUseCase` over `PostgresUnitOfWork`: what a sign-in code request writes,
/// and the sending limit under concurrency (its branches are tested on the in-memory store in
/// PasskeyApplicationTests).
@Suite struct RecoveryEmailRequestUseCaseTests {
    static func useCase(_ pool: PostgresConnectionPool, sendsPerHour: Int = 5) -> RecoveryEmailRequestUseCase {
        var policy = PasskeyPolicy()
        policy.mail = MailPolicy(enabled: true, sendsPerHour: sendsPerHour)
        let repos = Repositories(pool: pool)
        return RecoveryEmailRequestUseCase(
            store: repos.store, limiter: AddressRateLimiter(repository: repos.rateLimits, limitPerMinute: 0),
            maker: EmailCodeMaker(random: SystemRandomBytes(), digester: PaddedDigester()),
            composer: MailComposer(relyingPartyName: "Example"), policy: policy, clock: SystemClock())
    }

    @Test func aSignInCodeRequestForAnUnknownAddressWritesNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let useCase = Self.useCase(pool)
            _ = try await repos.passwordAccount(email: "known@example.com")
            for address in ["nobody@example.com", "Known@Example.com"] {
                try await useCase.execute(email: address, clientAddress: "192.0.2.1")
            }
            #expect(try await repos.count("SELECT count(*) FROM email_codes") == 1)
            #expect(
                try await repos.count("SELECT count(*) FROM mail_outbox WHERE recipient = 'known@example.com'") == 1)
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 1)
        }
    }

    /// The sign-in request counts the hour's codes under the recipient's advisory lock, before it
    /// finds (and locks) the account: only that lock keeps concurrent requests from two pools
    /// within the limit.
    @Test func theSendingLimitHoldsForConcurrentSignInCodeRequestsFromTwoPools() async throws {
        try await withTestDatabase(maximumConnections: 6) { database, pool in
            let other = database.makePool(maximumConnections: 6)
            defer { other.close() }
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "limited@example.com")
            try await openConnections(5, of: pool)
            try await openConnections(5, of: other)
            let useCases = [Self.useCase(pool, sendsPerHour: 3), Self.useCase(other, sendsPerHour: 3)]
            _ = try await concurrently(Array(0..<10)) { index in
                try await useCases[index % 2].execute(email: "limited@example.com", clientAddress: "192.0.2.\(index)")
            }
            #expect(try await repos.count("SELECT count(*) FROM email_codes") == 3)
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 3)
            #expect(try await repos.count("SELECT count(*) FROM email_codes WHERE voided_at IS NULL") == 1)
        }
    }
}
