import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `RecoveryAuthenticationUseCase` over `PostgresUnitOfWork`: one code, one sign-in, under a real
/// race (its branches are tested on the in-memory store in PasskeyApplicationTests).
@Suite struct RecoveryAuthenticationUseCaseTests {
    /// A recovery sign-in on `pool`. Each racer gets its own, with its own `AttemptGate`, as each
    /// server instance has: one gate would queue the uses of one code in the process, and the
    /// database's lock would not be what decides.
    static func useCase(_ repos: Repositories, clock: any WallClock) -> RecoveryAuthenticationUseCase {
        RecoveryAuthenticationUseCase(
            store: repos.store, rateLimits: repos.rateLimits, digester: PaddedDigester(),
            issuer: SessionIssuer(tokens: RandomSessionTokens(), random: SystemRandomBytes(), lifetime: 3600),
            policy: PasskeyPolicy(passwordFailuresPerEmail: 100, passwordFailuresPerAddress: 100), clock: clock,
            gate: AttemptGate())
    }

    /// Stores `code` as one of the account's own set, digested as the use case digests it.
    static func store(_ code: RecoveryCode, for account: Account, _ repos: Repositories) async throws {
        let stored = StoredRecoveryCode(
            id: UUID(), accountID: account.id, digest: PaddedDigester().sha256(Array(code.canonical.utf8)),
            source: .user, createdAt: Date(), expiresAt: nil)
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.recoveryCodes.insert([stored])
        }
    }

    static func redeem(
        _ useCase: RecoveryAuthenticationUseCase, email: String, code: String, from address: String = "192.0.2.1"
    ) async -> Result<RecoveryCodeSource, RecoveryAuthenticationError> {
        do {
            return .success(
                try await useCase.execute(email: email, code: code, clientAddress: address, origin: .example).source)
        } catch {
            return .failure(error)
        }
    }

    /// Of 16 concurrent uses of one code on 16 connections, exactly one signs in, and every loser
    /// learns from its locking read that the code was used just now: its attempt is forgiven and
    /// no failed sign-in is recorded (what a wrong code leaves behind). After the window, or with
    /// a wrong code, it is no such code.
    @Test func aCodeIsRedeemedOnceUnderARealRaceAndTheLosersSeeItUsedJustNow() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let clock = FixedClock(DomainFixtures.now())
            let account = try await repos.passwordAccount(email: "race@example.com")
            let code = RecoveryCode(bytes: SystemRandomBytes().bytes(count: RecoveryCode.byteCount))
            try await Self.store(code, for: account, repos)
            try await openConnections(16, of: pool)
            let outcomes = try await concurrently(Array(0..<16)) { index in
                await Self.redeem(
                    Self.useCase(repos, clock: clock), email: "race@example.com", code: code.formatted,
                    from: "192.0.2.\(index)")
            }
            #expect(outcomes.filter { $0 == .success(.user) }.count == 1)
            #expect(outcomes.filter { $0 == .failure(.invalidCredentials) }.count == 15)
            #expect(
                try await repos.count("SELECT count(*) FROM authentication_sessions WHERE method = 'recovery'") == 1)
            let failedSignIns: PostgresQuery = "SELECT count(*) FROM account_events WHERE kind = 'sign-in.failed'"
            #expect(try await repos.count(failedSignIns) == 0)
            #expect(try await repos.count("SELECT count(*) FROM password_failures") == 0)

            // Each of these finds no such code: its attempt stays counted and a failure is recorded.
            let useCase = Self.useCase(repos, clock: clock)
            clock.advance(by: RecoveryAuthenticationUseCase.recentUseWindow + 1)
            #expect(
                await Self.redeem(useCase, email: "race@example.com", code: code.formatted)
                    == .failure(.invalidCredentials))
            #expect(try await repos.count(failedSignIns) == 1)
            let wrong = RecoveryCode(bytes: SystemRandomBytes().bytes(count: RecoveryCode.byteCount))
            #expect(
                await Self.redeem(useCase, email: "race@example.com", code: wrong.formatted)
                    == .failure(.invalidCredentials))
            #expect(try await repos.count(failedSignIns) == 2)
            _ = try await repos.passwordAccount(email: "other@example.com")
            #expect(
                await Self.redeem(useCase, email: "other@example.com", code: code.formatted)
                    == .failure(.invalidCredentials))
            #expect(try await repos.count(failedSignIns) == 3)
            #expect(try await repos.count("SELECT count(*) FROM password_failures") == 3)
        }
    }
}
