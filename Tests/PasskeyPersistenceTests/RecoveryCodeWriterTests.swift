import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresRecoveryCodeWriter`, for what it stores and finds: digests only, found by the
/// address of their account, unexpired, used or not.
@Suite struct RecoveryCodeWriterTests {
    static func code(
        _ account: AccountID, _ digestByte: UInt8, source: RecoveryCodeSource = .user, expiresAt: Date? = nil
    ) -> StoredRecoveryCode {
        StoredRecoveryCode(
            id: UUID(), accountID: account, digest: Array(repeating: digestByte, count: 32), source: source,
            createdAt: Date(), expiresAt: source == .operator ? (expiresAt ?? Date().addingTimeInterval(86_400)) : nil)
    }

    static func insert(_ repos: Repositories, _ codes: [StoredRecoveryCode]) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.recoveryCodes.insert(codes)
        }
    }

    static func lock(_ repos: Repositories, _ digestByte: UInt8, email: String, now: Date) async throws
        -> LockedRecoveryCode?
    {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.recoveryCodes.lock(
                digest: Array(repeating: digestByte, count: 32), normalizedEmail: email, now: now)
        }
    }

    @Test func expiredOperatorCodesAndOtherAccountsCodesDoNotRedeemAndAreSwept() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "a@example.com")
            _ = try await repos.passwordAccount(email: "b@example.com")
            let now = DomainFixtures.now()
            let user = Self.code(account.id, 2)
            try await Self.insert(
                repos, [Self.code(account.id, 1, source: .operator, expiresAt: now.addingTimeInterval(-5)), user])
            // The expired operator code is found by no one; the user code is a's, not b's.
            #expect(try await Self.lock(repos, 1, email: "a@example.com", now: now) == nil)
            #expect(try await Self.lock(repos, 2, email: "b@example.com", now: now) == nil)
            #expect(try await Self.lock(repos, 3, email: "a@example.com", now: now) == nil)
            #expect(
                try await Self.lock(repos, 2, email: "a@example.com", now: now)
                    == LockedRecoveryCode(id: user.id, account: account, source: .user, usedAt: nil))
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.recoveryCodes.markUsed(user.id, at: now)
            }
            // Used, it is still found (a use that lost the race reads when), with its use.
            #expect(try await Self.lock(repos, 2, email: "a@example.com", now: now)?.usedAt == now)
            // The used user code and the expired operator code are swept; nothing else is left.
            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations)))
            _ = try await maintenance.sweepExpired(batchSize: 10)
            #expect(try await repos.count("SELECT count(*) FROM recovery_codes") == 0)
        }
    }

    @Test func unusedUserCodesCountOnlyTheUsersOwnUnusedCodes() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let used = Self.code(account.id, 1)
            try await Self.insert(
                repos,
                [
                    used, Self.code(account.id, 2), Self.code(account.id, 3),
                    Self.code(account.id, 4, source: .operator), Self.code(other.id, 5),
                ])
            let unused = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.recoveryCodes.markUsed(used.id, at: Date())
                return try await tx.recoveryCodes.unusedUserCodes(of: account.id)
            }
            #expect(unused == 2)
            #expect(try await repos.accounts.accountSummary(id: account.id)?.recoveryCodesRemaining == 2)
        }
    }

    @Test func deletionsTakeExactlyTheCodesTheyName() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let usedOperator = Self.code(account.id, 1, source: .operator)
            try await Self.insert(
                repos,
                [
                    usedOperator, Self.code(account.id, 2, source: .operator), Self.code(account.id, 3),
                    Self.code(other.id, 4, source: .operator), Self.code(other.id, 5),
                ])
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.recoveryCodes.markUsed(usedOperator.id, at: Date())
                try await tx.recoveryCodes.deleteUnusedOperatorCodes(of: account.id)
            }
            let left = try await repos.rows(
                "SELECT get_byte(code_digest, 0) AS byte FROM recovery_codes ORDER BY 1"
            ).rows.map { row throws(PostgresError) in try row.decode(Int.self, column: "byte") }
            #expect(left == [1, 3, 4, 5])
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.recoveryCodes.deleteAll(of: account.id)
            }
            #expect(
                try await repos.count("SELECT count(*) FROM recovery_codes WHERE account_id = \(account.id.uuid)") == 0)
            #expect(try await repos.count("SELECT count(*) FROM recovery_codes") == 2)
        }
    }
}
