import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresAccountEventRepository.events`: an account's own events, newest first with equal
/// times in the IDs' byte order, paged by a keyset cursor that neither repeats nor skips an event
/// (at microsecond distances too), cursors outside the years PostgreSQL reads, and rows it cannot
/// read back. `AccountActivityTests` drives the same reads over HTTP; this suite pins the
/// repository's own answers.
@Suite struct PostgresAccountEventRepositoryTests {
    static func event(
        _ accountID: AccountID, _ activity: AccountActivity = .passwordSet, at date: Date,
        id: String? = nil
    ) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(id.flatMap(UUID.init(uuidString:)) ?? UUID()), accountID: accountID,
            activity: activity, occurredAt: date, clientAddress: "192.0.2.1", userAgent: "Tests/1.0", sessionID: nil)
    }

    static func record(_ events: [AccountEvent], _ repos: Repositories) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for event in events { try await tx.events.record(event) }
        }
    }

    /// The page order, computed here: `occurredAt` descending (as the microseconds PostgreSQL
    /// keeps), then the ID's 16 bytes descending.
    static func pageOrder(_ events: [AccountEvent]) -> [AccountEvent] {
        func bytes(_ event: AccountEvent) -> [UInt8] { withUnsafeBytes(of: event.id.uuid.uuid) { Array($0) } }
        func micros(_ event: AccountEvent) -> Int64 { Int64((event.occurredAt.timeIntervalSince1970 * 1e6).rounded()) }
        return events.sorted { left, right in
            if micros(left) != micros(right) { return micros(left) > micros(right) }
            return bytes(right).lexicographicallyPrecedes(bytes(left))
        }
    }

    /// Events at one instant and a microsecond around it, IDs that differ in the first or the
    /// last byte only (unless `fixedIDs` is false: another account's), one before 1970.
    static func history(_ accountID: AccountID, at base: Date, fixedIDs: Bool = true) -> [AccountEvent] {
        let micro = 0.000_001
        let ids = [
            "00000000-0000-4000-8000-0000000000ff", "00000000-0000-4000-8000-000000000100",
            "7fffffff-ffff-4fff-bfff-ffffffffffff", "80000000-0000-4000-8000-000000000000",
        ]
        var events = ids.map { event(accountID, at: base, id: fixedIDs ? $0 : nil) }
        events += [
            event(accountID, .passwordRemoved, at: base.addingTimeInterval(micro)),
            event(accountID, .sessionsEnded(.others), at: base.addingTimeInterval(-micro)),
            event(accountID, .emailVerified, at: Date(timeIntervalSince1970: -0.000_001)),
        ]
        events += (1...9).map { event(accountID, .signInFailed(.password), at: base.addingTimeInterval(Double(-$0))) }
        return events
    }

    @Test func anAccountsEventsComeNewestFirstWithEqualTimesInTheIDsByteOrder() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            #expect(try await repos.events.events(accountID: account.id, before: nil, limit: 10).isEmpty)
            let base = DomainFixtures.now()
            let mine = Self.history(account.id, at: base)
            let theirs = Self.history(stranger.id, at: base, fixedIDs: false)
            try await Self.record((mine + theirs).shuffled(), repos)

            // By ID: a date before 1970 reads back within a microsecond, not to the bit.
            let page = try await repos.events.events(accountID: account.id, before: nil, limit: 100).map(\.id)
            #expect(page == Self.pageOrder(mine).map(\.id))
            #expect(
                page.map(\.description).prefix(6) == [
                    mine[4].id.description, "80000000-0000-4000-8000-000000000000",
                    "7fffffff-ffff-4fff-bfff-ffffffffffff", "00000000-0000-4000-8000-000000000100",
                    "00000000-0000-4000-8000-0000000000ff", mine[5].id.description,
                ])
            let first = try await repos.events.events(accountID: account.id, before: nil, limit: 3)
            #expect(first.map(\.id) == Array(page.prefix(3)))
            #expect(try await repos.events.events(accountID: AccountID(), before: nil, limit: 100).isEmpty)
        }
    }

    /// Each page continues after the last event of the one before: together they are the whole
    /// log once, in order, for any page size. Another account's event as a cursor only marks a
    /// place in the order: it never shows that account's events.
    @Test func pagesByTheCursorOfTheirLastEventReadEveryEventOnce() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let base = DomainFixtures.now()
            let mine = Self.history(account.id, at: base)
            try await Self.record((mine + Self.history(stranger.id, at: base, fixedIDs: false)).shuffled(), repos)
            let expected = Self.pageOrder(mine).map(\.id)

            for limit in [1, 2, 5, 16] {
                var paged: [AccountEventID] = []
                var cursor: ActivityCursor?
                var pages = 0
                repeat {
                    let page = try await repos.events.events(accountID: account.id, before: cursor, limit: limit)
                    #expect(page.count <= limit)
                    paged += page.map(\.id)
                    cursor = page.last.map(ActivityCursor.init(after:))
                    pages += 1
                } while cursor != nil && pages <= expected.count
                #expect(paged == expected, "limit \(limit)")
                #expect(pages == (expected.count + limit - 1) / limit + 1, "limit \(limit), and an empty page")
            }
            // The stranger's event at `base` bounds my events at that instant by its ID.
            let theirs = Self.event(stranger.id, at: base, id: "40000000-0000-4000-8000-000000000000")
            try await Self.record([theirs], repos)
            let theirCursor = ActivityCursor(after: theirs)
            let bounded = try await repos.events.events(accountID: account.id, before: theirCursor, limit: 100)
            #expect(bounded.map(\.id) == Array(expected.dropFirst(3)))
        }
    }

    /// A client may send any cursor. One before the year 1 has nothing older; one after 9999 has
    /// everything older; the last instants inside both bounds are asked of PostgreSQL and answer
    /// likewise, without an error.
    @Test func aCursorBeyondTheYearsPostgreSQLReadsIsAnEmptyOrAFirstPage() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let events = Self.history(account.id, at: DomainFixtures.now())
            try await Self.record(events, repos)
            let all = Self.pageOrder(events).map(\.id)
            let id = AccountEventID()
            let earliest: Int64 = -62_135_510_400_000_000  // 0001-01-02T00:00:00Z
            let latest: Int64 = 253_402_214_400_000_000  // 9999-12-31T00:00:00Z
            let cases: [(Int64, [AccountEventID])] = [
                (.min, []), (earliest - 1, []), (earliest, []), (earliest + 1, []),
                (latest - 1, all), (latest, all), (latest + 1, all), (.max, all),
            ]
            for (micros, expected) in cases {
                let cursor = ActivityCursor(microsecondsSince1970: micros, eventID: id)
                let page = try await repos.events.events(accountID: account.id, before: cursor, limit: 100)
                #expect(page.map(\.id) == expected, "cursor at \(micros) µs")
            }
        }
    }

    /// A row this version would not have written, whatever column makes it so.
    static let unreadableRows: [(kind: String, method: String?, credential: [UInt8]?)] = [
        ("sign-in", nil, nil),
        ("account.created", "sso", nil),
        ("passkey.added", "modal", nil),
        ("passkey.deleted", nil, nil),
        ("sessions.ended", "all", nil),
        ("recovery-code.issued", "Desk\u{7}", nil),
        ("passkey.synced", nil, [1, 2, 3]),
    ]

    /// It is a failure naming the repository, on every page it would be part of, and never left
    /// out; pages that do not reach it, and other accounts, read on. (One account per row, in
    /// one database.)
    @Test func anUnreadableRowIsAFailureNeverSkipped() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let stranger = try await repos.passwordAccount()
            let now = DomainFixtures.now()
            let theirs = Self.event(stranger.id, at: now.addingTimeInterval(-60))
            try await Self.record([theirs], repos)
            // An unknown kind needs the table's own rule lifted first.
            _ = try await repos.rows("ALTER TABLE account_events DROP CONSTRAINT account_events_kind_check")
            for row in Self.unreadableRows {
                let account = try await repos.passwordAccount()
                let (unreadable, unreadableAt) = (AccountEventID(), now.addingTimeInterval(-60))
                let newer = Self.event(account.id, at: now)
                let older = Self.event(account.id, at: now.addingTimeInterval(-120))
                try await Self.record([newer, older], repos)
                _ = try await repos.rows(
                    """
                    INSERT INTO account_events (id, account_id, kind, occurred_at, client_address, user_agent, method,
                                                credential_id)
                    VALUES (\(unreadable.uuid), \(account.id.uuid), \(row.kind), \(unreadableAt), '192.0.2.1', '',
                            \(row.method), \(row.credential.map(PostgresBytes.init)))
                    """)

                #expect(try await repos.events.events(accountID: account.id, before: nil, limit: 1) == [newer])
                let past = ActivityCursor(occurredAt: unreadableAt, eventID: unreadable)
                #expect(try await repos.events.events(accountID: account.id, before: past, limit: 10) == [older])
                for before in [nil, ActivityCursor(after: newer)] {
                    do throws(RepositoryError) {
                        let page = try await repos.events.events(accountID: account.id, before: before, limit: 10)
                        Issue.record("\(row.kind): read a page of \(page.count) events")
                    } catch {
                        guard case .failure(let operation, let underlying) = error else {
                            Issue.record("\(row.kind): \(error)")
                            continue
                        }
                        #expect(operation == "PostgresAccountEventRepository.events(accountID:before:limit:)")
                        #expect((underlying as? PostgresError)?.kind == .decoding, "\(row.kind)")
                    }
                }
            }
            #expect(try await repos.events.events(accountID: stranger.id, before: nil, limit: 10) == [theirs])
        }
    }
}
