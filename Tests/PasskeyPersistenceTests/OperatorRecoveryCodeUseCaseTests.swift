import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `OperatorRecoveryCodeUseCase` over `PostgresUnitOfWork`: one operator code live at a time,
/// however many are issued at once (its branches are tested on the in-memory store in
/// PasskeyApplicationTests).
@Suite struct OperatorRecoveryCodeUseCaseTests {
    private static let agent = SupportAgentName("Desk 3 (Mika)")!

    static func digest(_ code: String) throws -> [UInt8] {
        PaddedDigester().sha256(Array(try #require(RecoveryCode(presented: code)).canonical.utf8))
    }

    /// Issuing voids the earlier unused operator codes (not the user's set, not used ones), and of
    /// 8 concurrent issuings exactly one operator code stays live.
    @Test func oneOperatorCodeIsLiveAtATimeEvenWhenIssuedConcurrently() async throws {
        try await withTestDatabase(maximumConnections: 8) { _, pool in
            let repos = Repositories(pool: pool)
            let clock = SystemClock()
            let issuing = OperatorRecoveryCodeUseCase(
                store: repos.store, random: SystemRandomBytes(), digester: PaddedDigester(), policy: PasskeyPolicy(),
                clock: clock)
            let redeeming = RecoveryAuthenticationUseCaseTests.useCase(repos, clock: clock)
            let account = try await repos.passwordAccount(email: "desk@example.com")
            let own = RecoveryCode(bytes: SystemRandomBytes().bytes(count: RecoveryCode.byteCount))
            try await RecoveryAuthenticationUseCaseTests.store(own, for: account, repos)

            let first = try await issuing.execute(email: "Desk@Example.com", issuedBy: Self.agent)
            #expect(first.accountID == account.id)
            #expect(
                await RecoveryAuthenticationUseCaseTests.redeem(redeeming, email: "desk@example.com", code: first.code)
                    == .success(.operator))
            let second = try await issuing.execute(email: "desk@example.com", issuedBy: Self.agent)
            let concurrent = try await concurrently(Array(0..<8)) { _ in
                try await issuing.execute(email: "desk@example.com", issuedBy: Self.agent)
            }
            #expect(concurrent.allSatisfy { $0.accountID == account.id })

            let rows = try await repos.rows(
                """
                SELECT source, used_at IS NOT NULL AS used, code_digest
                FROM recovery_codes WHERE account_id = \(account.id.uuid)
                """)
            let codes = try rows.rows.map { row throws(PostgresError) in
                (
                    source: try row.decode(String.self, column: "source"),
                    used: try row.decode(Bool.self, column: "used"),
                    digest: try row.decode([UInt8].self, column: "code_digest")
                )
            }
            #expect(codes.filter { $0.source == "user" }.map(\.digest) == [try Self.digest(own.formatted)])
            #expect(codes.filter { $0.source == "operator" && $0.used }.map(\.digest) == [try Self.digest(first.code)])
            let live = codes.filter { $0.source == "operator" && !$0.used }.map(\.digest)
            #expect(live.count == 1)
            let issued = try concurrent.map { try Self.digest($0.code) }
            #expect(live.allSatisfy { issued.contains($0) })
            #expect(
                await RecoveryAuthenticationUseCaseTests.redeem(redeeming, email: "desk@example.com", code: second.code)
                    == .failure(.invalidCredentials))
            // The live one is the one that works.
            let liveCode = try #require(concurrent.first { (try? Self.digest($0.code)) == live.first })
            #expect(
                await RecoveryAuthenticationUseCaseTests.redeem(
                    redeeming, email: "desk@example.com", code: liveCode.code)
                    == .success(.operator))
        }
    }
}
