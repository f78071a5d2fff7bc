import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct RecoveryCodeRepositoryTests {
    private static func code(
        _ account: AccountID, _ digestByte: UInt8, source: RecoveryCodeSource = .user,
        expiresAt: Date? = nil
    ) -> StoredRecoveryCode {
        StoredRecoveryCode(
            id: UUID(), accountID: account, digest: Array(repeating: digestByte, count: 32), source: source,
            createdAt: Date(), expiresAt: source == .operator ? (expiresAt ?? Date().addingTimeInterval(86_400)) : nil)
    }

    private static func session(_ account: Account) -> AuthenticationSession {
        AuthenticationSession(
            accountID: account.id, tokenDigest: (0..<32).map { _ in UInt8.random(in: 0...255) }, method: .recovery,
            createdAt: Date(), expiresAt: Date().addingTimeInterval(900))
    }

    private static let agent = SupportAgentName("Desk 3 (Mika)")!

    /// Of 16 concurrent redemptions of one code on 16 connections, exactly one wins, and every
    /// loser learns from the consuming statement that the code was used just now; after the
    /// window, or with a wrong code, it is no such code.
    @Test func aCodeIsRedeemedOnceUnderARealRaceAndTheLosersSeeItUsedJustNow() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "race@example.com")
            #expect(try await repos.recoveryCodes.replaceCodes(accountID: account.id, with: [Self.code(account.id, 7)]))
            let digest = Array(repeating: UInt8(7), count: 32)
            let now = Date()
            let outcomes = try await withThrowingTaskGroup(of: RecoveryCodeRedemption.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await repos.recoveryCodes.redeem(
                            normalizedEmail: "race@example.com", codeDigest: digest, now: now,
                            recentUseWindow: 10, makeSession: Self.session)
                    }
                }
                return try await group.reduce(into: [RecoveryCodeRedemption]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .redeemed(account: account, source: .user) }.count == 1)
            #expect(outcomes.filter { $0 == .usedJustNow }.count == 15)
            let sessions = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT count(*) FROM authentication_sessions WHERE method = 'recovery'").first?
                    .decode(Int.self, column: "count")
            }
            #expect(sessions == 1)
            let later = try await repos.recoveryCodes.redeem(
                normalizedEmail: "race@example.com", codeDigest: digest, now: now.addingTimeInterval(11),
                recentUseWindow: 10, makeSession: Self.session)
            #expect(later == .notFound)
            let wrong = try await repos.recoveryCodes.redeem(
                normalizedEmail: "race@example.com", codeDigest: Array(repeating: 8, count: 32), now: now,
                recentUseWindow: 10, makeSession: Self.session)
            #expect(wrong == .notFound)
            _ = try await repos.passwordAccount(email: "other@example.com")
            let otherAccount = try await repos.recoveryCodes.redeem(
                normalizedEmail: "other@example.com", codeDigest: digest, now: now, recentUseWindow: 10,
                makeSession: Self.session)
            #expect(otherAccount == .notFound)
        }
    }

    /// Issuing voids the earlier unused operator codes (not the user's set, not used ones), and of
    /// 8 concurrent issuings exactly one operator code stays live.
    @Test func oneOperatorCodeIsLiveAtATimeEvenWhenIssuedConcurrently() async throws {
        try await withTestDatabase(maximumConnections: 8) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "desk@example.com")
            #expect(try await repos.recoveryCodes.replaceCodes(accountID: account.id, with: [Self.code(account.id, 1)]))
            let first = Self.code(account.id, 2, source: .operator)
            _ = try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "desk@example.com", issuedBy: Self.agent)
            {
                _ in first
            }
            let now = Date()
            let used = try await repos.recoveryCodes.redeem(
                normalizedEmail: "desk@example.com", codeDigest: first.digest, now: now, recentUseWindow: 10,
                makeSession: Self.session)
            #expect(used == .redeemed(account: account, source: .operator))
            let second = Self.code(account.id, 3, source: .operator)
            _ = try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "desk@example.com", issuedBy: Self.agent)
            {
                _ in second
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for byte in UInt8(10)..<18 {
                    group.addTask {
                        let added = try await repos.recoveryCodes.addOperatorCode(
                            normalizedEmail: "desk@example.com", issuedBy: Self.agent
                        ) { _ in Self.code(account.id, byte, source: .operator) }
                        #expect(added == account.id)
                    }
                }
                try await group.waitForAll()
            }
            let rows = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(
                    """
                    SELECT source, used_at IS NOT NULL AS used, get_byte(code_digest, 0) AS byte
                    FROM recovery_codes WHERE account_id = \(account.id.uuid)
                    """)
            }
            let codes = try rows.rows.map { row throws(PostgresError) in
                (
                    source: try row.decode(String.self, column: "source"),
                    used: try row.decode(Bool.self, column: "used"),
                    byte: try row.decode(Int.self, column: "byte")
                )
            }
            #expect(codes.filter { $0.source == "user" }.map(\.byte) == [1])
            #expect(codes.filter { $0.source == "operator" && $0.used }.map(\.byte) == [2])
            let live = codes.filter { $0.source == "operator" && !$0.used }.map(\.byte)
            #expect(live.count == 1)
            #expect(live.allSatisfy { (10..<18).contains($0) })
            let voided = try await repos.recoveryCodes.redeem(
                normalizedEmail: "desk@example.com", codeDigest: second.digest, now: now, recentUseWindow: 10,
                makeSession: Self.session)
            #expect(voided == .notFound)
        }
    }

    @Test func expiredOperatorCodesAndOtherAccountsCodesDoNotRedeemAndAreSwept() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "a@example.com")
            _ = try await repos.passwordAccount(email: "b@example.com")
            let expired = Self.code(account.id, 1, source: .operator, expiresAt: Date().addingTimeInterval(-1))
            let added = try await repos.recoveryCodes.addOperatorCode(
                normalizedEmail: "a@example.com", issuedBy: Self.agent
            ) { _ in expired }
            #expect(added == account.id)
            #expect(
                try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "x@example.com", issuedBy: Self.agent) {
                    _ in expired
                } == nil)
            #expect(try await repos.recoveryCodes.replaceCodes(accountID: account.id, with: [Self.code(account.id, 2)]))
            let now = Date()
            // The expired operator code was dropped by the replacement; the user code is not b's.
            #expect(
                try await repos.recoveryCodes.redeem(
                    normalizedEmail: "a@example.com", codeDigest: Array(repeating: 1, count: 32), now: now,
                    recentUseWindow: 10,
                    makeSession: Self.session) == .notFound)
            #expect(
                try await repos.recoveryCodes.redeem(
                    normalizedEmail: "b@example.com", codeDigest: Array(repeating: 2, count: 32), now: now,
                    recentUseWindow: 10,
                    makeSession: Self.session) == .notFound)
            let late = Self.code(account.id, 3, source: .operator, expiresAt: now.addingTimeInterval(-5))
            _ = try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "a@example.com", issuedBy: Self.agent) {
                _ in late
            }
            #expect(
                try await repos.recoveryCodes.redeem(
                    normalizedEmail: "a@example.com", codeDigest: Array(repeating: 3, count: 32), now: now,
                    recentUseWindow: 10,
                    makeSession: Self.session) == .notFound)
            let redeemed = try await repos.recoveryCodes.redeem(
                normalizedEmail: "a@example.com", codeDigest: Array(repeating: 2, count: 32), now: now,
                recentUseWindow: 10, makeSession: Self.session)
            #expect(redeemed == .redeemed(account: account, source: .user))
            // The used user code and the expired operator code are swept; nothing else is left.
            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations)))
            _ = try await maintenance.sweepExpired(batchSize: 10)
            let left = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT count(*) FROM recovery_codes").first?.decode(Int.self, column: "count")
            }
            #expect(left == 0)
        }
    }
}
