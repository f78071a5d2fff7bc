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

    /// Of 16 concurrent redemptions of one code on 16 connections, exactly one wins.
    @Test func aCodeIsRedeemedOnceUnderARealRace() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "race@example.com")
            #expect(try await repos.recoveryCodes.replaceCodes(accountID: account.id, with: [Self.code(account.id, 7)]))
            let digest = Array(repeating: UInt8(7), count: 32)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await repos.recoveryCodes.redeem(
                            normalizedEmail: "race@example.com", codeDigest: digest, now: Date(),
                            makeSession: Self.session) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            let sessions = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT count(*) FROM authentication_sessions WHERE method = 'recovery'").first?
                    .decode(Int.self, column: "count")
            }
            #expect(sessions == 1)
        }
    }

    @Test func expiredOperatorCodesAndOtherAccountsCodesDoNotRedeemAndAreSwept() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "a@example.com")
            _ = try await repos.passwordAccount(email: "b@example.com")
            let expired = Self.code(account.id, 1, source: .operator, expiresAt: Date().addingTimeInterval(-1))
            let added = try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "a@example.com") { _ in expired }
            #expect(added == account.id)
            #expect(
                try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "x@example.com") { _ in expired } == nil)
            #expect(try await repos.recoveryCodes.replaceCodes(accountID: account.id, with: [Self.code(account.id, 2)]))
            let now = Date()
            // The expired operator code was dropped by the replacement; the user code is not b's.
            #expect(
                try await repos.recoveryCodes.redeem(
                    normalizedEmail: "a@example.com", codeDigest: Array(repeating: 1, count: 32), now: now,
                    makeSession: Self.session) == nil)
            #expect(
                try await repos.recoveryCodes.redeem(
                    normalizedEmail: "b@example.com", codeDigest: Array(repeating: 2, count: 32), now: now,
                    makeSession: Self.session) == nil)
            let late = Self.code(account.id, 3, source: .operator, expiresAt: now.addingTimeInterval(-5))
            _ = try await repos.recoveryCodes.addOperatorCode(normalizedEmail: "a@example.com") { _ in late }
            #expect(
                try await repos.recoveryCodes.redeem(
                    normalizedEmail: "a@example.com", codeDigest: Array(repeating: 3, count: 32), now: now,
                    makeSession: Self.session) == nil)
            let redeemed = try await repos.recoveryCodes.redeem(
                normalizedEmail: "a@example.com", codeDigest: Array(repeating: 2, count: 32), now: now,
                makeSession: Self.session)
            #expect(redeemed?.account.id == account.id)
            #expect(redeemed?.source == .user)
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
