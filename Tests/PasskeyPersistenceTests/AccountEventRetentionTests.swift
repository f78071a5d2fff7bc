import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// (v3) `sweep` deletes activity older than `ACCOUNT_EVENT_RETENTION_DAYS`, in bounded batches,
/// and nothing younger.
@Suite struct AccountEventRetentionTests {
    /// Records a `password.set` event of `daysAgo` through the store, the one writer of events.
    static func insert(_ accountID: AccountID, daysAgo: Double, on pool: PostgresConnectionPool) async throws
        -> AccountEventID
    {
        let event = AccountEvent(
            id: AccountEventID(), accountID: accountID, activity: .passwordSet,
            occurredAt: Date().addingTimeInterval(-daysAgo * 86_400), clientAddress: "192.0.2.1", userAgent: nil,
            sessionID: nil)
        try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
            try await tx.events.record(event)
        }
        return event.id
    }

    @Test func sweepDeletesEventsPastTheRetentionInBatchesAndKeepsTheRest() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let runner = MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations))
            let events = PostgresAccountEventRepository(pool: pool)
            // Whatever the account's creation wrote itself is of today, and kept throughout.
            let before = Set(try await events.events(accountID: account.id, before: nil, limit: 100).map(\.id))
            var old: Set<AccountEventID> = []
            for _ in 0..<5 { old.insert(try await Self.insert(account.id, daysAgo: 401, on: pool)) }
            let yearOld = try await Self.insert(account.id, daysAgo: 399, on: pool)
            let recent = try await Self.insert(account.id, daysAgo: 10, on: pool)
            let today = try await Self.insert(account.id, daysAgo: 0, on: pool)
            // Nothing else in this database has expired, so every row swept is an event: the five
            // past 400 days, and (v4) the six event-log rows past its own 30 days.
            let byDefault = PostgresMaintenanceRepository(pool: pool, migrations: runner)
            #expect(try await byDefault.sweepExpired(batchSize: 2) == 5 + 6)
            let left = Set(try await events.events(accountID: account.id, before: nil, limit: 100).map(\.id))
            #expect(left == before.union([yearOld, recent, today]))
            #expect(left.isDisjoint(with: old))

            let shorter = PostgresMaintenanceRepository(pool: pool, migrations: runner, eventRetentionDays: 5)
            #expect(try await shorter.sweepExpired(batchSize: 1) == 2)
            #expect(
                Set(try await events.events(accountID: account.id, before: nil, limit: 100).map(\.id))
                    == before.union([today]))
            #expect(try await shorter.sweepExpired(batchSize: 1) == 0)
        }
    }
}
