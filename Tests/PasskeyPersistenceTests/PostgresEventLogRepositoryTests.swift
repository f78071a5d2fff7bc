import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The event log (`webhook_events`) as the events API reads it: every account event, written in
/// the statement of its activity row; an event whose transaction is still running holds back the
/// ones written after it began, so no reader ever passes it; paging from any cursor sees every
/// event once, in one order, while writers run concurrently.
@Suite struct PostgresEventLogRepositoryTests {
    static func event(_ accountID: AccountID, _ activity: AccountActivity = .passwordSet) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(), accountID: accountID, activity: activity, occurredAt: DomainFixtures.now(),
            clientAddress: "192.0.2.1", userAgent: "Tests/1.0", sessionID: nil)
    }

    static func record(_ event: AccountEvent, _ repos: Repositories) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in try await tx.events.record(event) }
    }

    /// Writes `event` in a transaction that stays open until the answered closure is called (it
    /// then waits for the commit): a slow writer, for the rule that nothing passes it by.
    static func openTransaction(writing event: AccountEvent, _ repos: Repositories) async
        -> @Sendable () async throws -> Void
    {
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let (written, writtenSignal) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.events.record(event)
                writtenSignal.yield()
                for await _ in release { break }
            }
        }
        for await _ in written { break }
        return {
            releaser.yield()
            try await holder.value
        }
    }

    /// `read` again until it finds `count` events (at most 30 s): another test's transaction in the
    /// same cluster holds the log back while it runs, as any long transaction does in production.
    static func eventually(count: Int = 1, _ read: () async throws -> [LoggedEvent]) async throws -> [LoggedEvent] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let found = try await read()
            if found.count >= count || ContinuousClock.now >= deadline { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Every event from the start, a page of `limit` at a time.
    static func readAll(_ log: PostgresEventLogRepository, limit: Int = 1000) async throws -> [LoggedEvent] {
        var all: [LoggedEvent] = []
        var cursor: EventLogCursor?
        while true {
            let page = try await log.events(after: cursor, limit: limit)
            all += page
            guard let last = page.last else { return all }
            cursor = last.cursor
        }
    }

    @Test func anEventIsLoggedWithItsActivityRow() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.credentialID([1, 2, 3])
            let session = SessionID()
            let event = AccountEvent(
                id: AccountEventID(), accountID: account.id,
                activity: .passkeyAdded(.conditional, credentialID: passkey),
                occurredAt: DomainFixtures.now(), clientAddress: "203.0.113.9", userAgent: "Agent/2", sessionID: session
            )
            try await Self.record(event, repos)
            let log = PostgresEventLogRepository(pool: pool)
            let logged = try #require(try await Self.eventually { try await log.events(after: nil, limit: 10) }.first)
            #expect(logged.id == event.id)
            #expect(logged.accountID == account.id)
            #expect(logged.kind == "passkey.added")
            #expect(logged.method == "conditional")
            #expect(logged.credentialID == passkey)
            #expect(logged.sessionID == session)
            #expect(logged.occurredAt == event.occurredAt)
            #expect(logged.clientAddress == "203.0.113.9")
            #expect(logged.userAgent == "Agent/2")
            #expect(logged.actor == nil)
            #expect(logged.stageChange == nil)
            #expect(try await repos.count("SELECT count(*) FROM account_events WHERE id = \(event.id.uuid)") == 1)
        }
    }

    /// Neither the log's row nor (v4) a delivery to an endpoint that takes every kind.
    @Test func aRolledBackChangeLogsNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            _ = try await PostgresWebhookDeliveryRepositoryTests.endpoint(pool)
            await #expect(throws: RepositoryError.self) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.events.record(Self.event(account.id))
                    throw RepositoryError.unavailable
                }
            }
            #expect(try await repos.count("SELECT count(*) FROM webhook_events") == 0)
            #expect(try await repos.count("SELECT count(*) FROM webhook_deliveries") == 0)
        }
    }

    @Test func anEventStillBeingWrittenIsNeverPassedBy() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let log = PostgresEventLogRepository(pool: pool)
            try await Self.record(Self.event(account.id), repos)
            let before = try await Self.eventually { try await Self.readAll(log) }
            #expect(before.count == 1)
            // A slow transaction writes its event and stays open…
            let slow = Self.event(account.id, .emailChanged)
            let commit = await Self.openTransaction(writing: slow, repos)
            // …while a later transaction writes and commits.
            let fast = Self.event(account.id, .passwordRemoved)
            try await Self.record(fast, repos)
            // Neither is served yet: the fast one waits behind the slow one's transaction.
            let cursor = before.last?.cursor
            #expect(try await log.events(after: cursor, limit: 10).isEmpty)
            try await commit()
            // Both, once every transaction that began before the fast one has ended (another
            // test's, in the same cluster, may still hold the fast one back a moment).
            let after = try await Self.eventually(count: 2) { try await log.events(after: cursor, limit: 10) }
            #expect(after.map(\.id) == [slow.id, fast.id], "the slow one first: its transaction began first")
        }
    }

    @Test func pagingWhileTwoWritersRunSeesEveryEventOnceInOneOrder() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let accounts = [try await repos.passwordAccount(), try await repos.passwordAccount()]
            let log = PostgresEventLogRepository(pool: pool)
            let perWriter = 60
            let writers = accounts.map { account in
                Task {
                    var ids: [AccountEventID] = []
                    for _ in 0..<perWriter {
                        let event = Self.event(account.id)
                        try await Self.record(event, repos)
                        ids.append(event.id)
                    }
                    return ids
                }
            }
            // A reader polls in small pages while they write, until it has seen them all (other
            // tests' transactions in the same cluster may hold the log back for a while).
            var seen: [LoggedEvent] = []
            var cursor: EventLogCursor?
            let deadline = ContinuousClock.now + .seconds(60)
            while seen.count < 2 * perWriter, ContinuousClock.now < deadline {
                let page = try await log.events(after: cursor, limit: 7)
                seen += page
                if let last = page.last { cursor = last.cursor } else { try await Task.sleep(for: .milliseconds(10)) }
            }
            var written: [AccountEventID] = []
            for writer in writers { written += try await writer.value }
            #expect(seen.count == 2 * perWriter)
            #expect(Set(seen.map(\.id)) == Set(written), "every event once")
            #expect(seen.map(\.cursor) == seen.map(\.cursor).sorted(), "in the log's order")
            #expect(try await log.events(after: cursor, limit: 10).isEmpty, "and nothing more")
            // The same order on every read from the start.
            #expect(try await Self.readAll(log, limit: 13).map(\.id) == seen.map(\.id))
        }
    }

    @Test func theSweepDeletesOnlyEventsPastTheirRetention() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let old = AccountEvent(
                id: AccountEventID(), accountID: account.id, activity: .passwordSet,
                occurredAt: DomainFixtures.now().addingTimeInterval(-31 * 86_400), clientAddress: "192.0.2.1",
                userAgent: nil, sessionID: nil)
            let recent = Self.event(account.id)
            try await Self.record(old, repos)
            try await Self.record(recent, repos)
            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: []), webhookEventRetentionDays: 30)
            _ = try await maintenance.sweepExpired(batchSize: 10)
            #expect(try await repos.count("SELECT count(*) FROM webhook_events WHERE id = \(old.id.uuid)") == 0)
            #expect(try await repos.count("SELECT count(*) FROM webhook_events WHERE id = \(recent.id.uuid)") == 1)
            // The activity keeps its own, longer retention.
            #expect(try await repos.count("SELECT count(*) FROM account_events WHERE id = \(old.id.uuid)") == 1)
        }
    }
}
