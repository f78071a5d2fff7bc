import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import PasskeyWire
import Testing

/// (v3) `GET /v1/account/activity` on the real stack: events written with
/// `PostgresAccountEvents.insert` (as the flows write them), read over HTTP. Whatever the flows
/// of the test's own sign-up write themselves is part of the pages too, so the tests compare
/// against what the endpoint answered and pick their own events by ID.
@Suite struct AccountActivityTests {
    /// A signed-in password user and its account ID.
    static func user(_ client: TestHTTPClient) async throws -> (token: String, accountID: AccountID) {
        let (token, _) = try await client.passwordUser()
        let account = try await client.send("GET", "/v1/account", token: token)
        let id = try #require(account.string("accountID").flatMap(UUID.init(uuidString:)))
        return (token, AccountID(id))
    }

    static func event(
        _ accountID: AccountID, _ activity: AccountActivity = .passwordSet, at date: Date, id: UUID = UUID(),
        clientAddress: String = "192.0.2.1", userAgent: String? = nil, sessionID: SessionID? = nil
    ) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(id), accountID: accountID, activity: activity, occurredAt: date,
            clientAddress: clientAddress, userAgent: userAgent, sessionID: sessionID)
    }

    static func insert(_ events: [AccountEvent], into database: TestDatabase) async throws {
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
            for event in events { try await tx.events.record(event) }
        }
    }

    static func eventCount(_ database: TestDatabase) async throws -> Int {
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        return try await pool.withConnection { connection async throws(PostgresError) in
            try await connection.query("SELECT count(*) FROM account_events").first?.decode(Int.self, column: "count")
                ?? -1
        }
    }

    /// Every page from the first, `limit` at a time, with `between` run after each page.
    static func allPages(
        _ client: TestHTTPClient, token: String, limit: Int, between: (Int) async throws -> Void = { _ in }
    ) async throws -> (events: [[String: Any]], pages: Int) {
        var events: [[String: Any]] = []
        var before: String?
        var pages = 0
        repeat {
            let query = "limit=\(limit)" + (before.map { "&before=\($0)" } ?? "")
            let page = try await client.send("GET", "/v1/account/activity?\(query)", token: token)
            try #require(page.status == 200, "page \(pages): \(page.text)")
            let listed = try #require(page.json["events"] as? [[String: Any]])
            #expect(listed.count <= limit)
            events += listed
            before = page.json["next"] as? String
            #expect(page.json.keys.contains("next"))
            pages += 1
            try await between(pages)
        } while before != nil && pages < 100
        return (events, pages)
    }

    static func ids(_ events: [[String: Any]]) -> [String] { events.compactMap { $0["eventID"] as? String } }

    @Test func eventsComeNewestFirstWithEveryFieldOnTheWire() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await Self.user(client)
            let now = Date()
            let credential = DomainFixtures.credentialID([1, 2, 3, 250, 251, 252])
            let session = SessionID()
            let agent = "Mozilla/5.0 (iPhone; CPU iPhone OS 26_0 like Mac OS X) " + String(repeating: "x", count: 300)
            let signIn = Self.event(
                accountID, .signIn(.passkey, credentialID: credential), at: now.addingTimeInterval(-60),
                clientAddress: "2001:db8::7", userAgent: agent, sessionID: session)
            let added = Self.event(
                accountID, .passkeyAdded(.conditional, credentialID: credential), at: now.addingTimeInterval(-120),
                sessionID: session)
            let failed = Self.event(accountID, .signInFailed(.password), at: now.addingTimeInterval(-180))
            let issued = Self.event(
                accountID, .recoveryCodeIssued(issuer: SupportAgentName("Hanako")), at: now.addingTimeInterval(-240),
                clientAddress: "command line")
            try await Self.insert([failed, signIn, issued, added], into: database)

            let answer = try await client.send("GET", "/v1/account/activity", token: token)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
            let events = try #require(answer.json["events"] as? [[String: Any]])
            let mine = [signIn, added, failed, issued].map(\.id.description)
            #expect(Self.ids(events).filter(mine.contains) == mine)
            let times = events.compactMap { $0["occurredAt"] as? String }
            #expect(times.count == events.count && times == times.sorted(by: >))
            #expect(answer.json["next"] is NSNull)

            let byID = Dictionary(uniqueKeysWithValues: events.map { ($0["eventID"] as? String ?? "", $0) })
            let wireSignIn = try #require(byID[signIn.id.description])
            #expect(wireSignIn["kind"] as? String == "sign-in")
            #expect(wireSignIn["method"] as? String == "passkey")
            #expect(wireSignIn["credentialID"] as? String == Base64URLEncoding.encode(credential.bytes))
            #expect(wireSignIn["sessionID"] as? String == session.description)
            #expect(wireSignIn["clientAddress"] as? String == "2001:db8::7")
            #expect(wireSignIn["userAgent"] as? String == String(agent.prefix(256)))
            #expect(wireSignIn["occurredAt"] as? String == WireJSON.timestamp(signIn.occurredAt))
            #expect(wireSignIn["eventID"] as? String == signIn.id.uuid.uuidString.lowercased())
            #expect(
                Set(wireSignIn.keys) == [
                    "eventID", "kind", "occurredAt", "clientAddress", "userAgent", "method", "credentialID",
                    "sessionID", "actor", "reason",
                ])
            // (v4) The user did it: `actor` and `reason` are present and null.
            #expect(wireSignIn["actor"] is NSNull)
            #expect(wireSignIn["reason"] is NSNull)

            let wireAdded = try #require(byID[added.id.description])
            #expect(wireAdded["kind"] as? String == "passkey.added")
            #expect(wireAdded["method"] as? String == "conditional")
            #expect(wireAdded["sessionID"] as? String == session.description)

            // No value: the key is absent, not null (but for v4's `actor` and `reason`, always
            // present); no User-Agent is "".
            let wireFailed = try #require(byID[failed.id.description])
            #expect(wireFailed["kind"] as? String == "sign-in.failed")
            #expect(wireFailed["method"] as? String == "password")
            #expect(wireFailed["userAgent"] as? String == "")
            #expect(
                Set(wireFailed.keys) == [
                    "eventID", "kind", "occurredAt", "clientAddress", "userAgent", "method", "actor", "reason",
                ])

            let wireIssued = try #require(byID[issued.id.description])
            #expect(wireIssued["kind"] as? String == "recovery-code.issued")
            #expect(wireIssued["method"] as? String == "Hanako")
            #expect(wireIssued["clientAddress"] as? String == "command line")
        }
    }

    @Test func pagesStayStableWhileEventsArriveBetweenThem() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await Self.user(client)
            let base = Date().addingTimeInterval(-86_400)
            // 23 events a minute apart, and three more at one instant (their order is the IDs').
            var events = (0..<23).map { Self.event(accountID, at: base.addingTimeInterval(Double(-60 * $0))) }
            let instant = base.addingTimeInterval(-30.5)
            events += (0..<3).map { _ in Self.event(accountID, .sessionsEnded(.others), at: instant) }
            try await Self.insert(events.shuffled(), into: database)
            let everything = try await client.send("GET", "/v1/account/activity?limit=100", token: token)
            let expected = Self.ids(try #require(everything.json["events"] as? [[String: Any]]))
            #expect(Set(events.map(\.id.description)).isSubset(of: expected))
            #expect(everything.json["next"] is NSNull)

            var arrived: [String] = []
            let (paged, pages) = try await Self.allPages(client, token: token, limit: 4) { page in
                guard page <= 2 else { return }
                // Newer than everything listed so far: never part of a later page.
                let late = Self.event(accountID, .passwordRemoved, at: Date().addingTimeInterval(Double(page)))
                try await Self.insert([late], into: database)
                arrived.append(late.id.description)
            }
            #expect(Self.ids(paged) == expected)
            #expect(Set(Self.ids(paged)).count == expected.count)
            #expect(pages == (expected.count + 3) / 4)
            #expect(Set(arrived).isDisjoint(with: Self.ids(paged)))
            // They are there on a fresh first page.
            let fresh = try await client.send("GET", "/v1/account/activity?limit=2", token: token)
            #expect(Self.ids(try #require(fresh.json["events"] as? [[String: Any]])) == arrived.reversed())
        }
    }

    @Test func equalTimesAreBrokenByTheEventIDDescending() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await Self.user(client)
            let instant = Date().addingTimeInterval(-3_600)
            let ids = [
                "00000000-0000-4000-8000-000000000001", "7fffffff-0000-4000-8000-000000000000",
                "80000000-0000-4000-8000-000000000000", "ffffffff-0000-4000-8000-000000000000",
            ]
            let events = ids.map { Self.event(accountID, at: instant, id: UUID(uuidString: $0)!) }
            try await Self.insert(events.shuffled(), into: database)
            let (paged, _) = try await Self.allPages(client, token: token, limit: 1)
            #expect(Self.ids(paged).filter(ids.contains) == ids.reversed())
        }
    }

    @Test func theDefaultLimitIs50AndAPageHoldsAtMost100() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await Self.user(client)
            let base = Date().addingTimeInterval(-86_400)
            try await Self.insert(
                (0..<120).map { Self.event(accountID, at: base.addingTimeInterval(Double(-$0))) }, into: database)
            let first = try await client.send("GET", "/v1/account/activity", token: token)
            #expect((first.json["events"] as? [[String: Any]])?.count == 50)
            #expect(first.json["next"] is String)
            let most = try await client.send("GET", "/v1/account/activity?limit=100", token: token)
            #expect((most.json["events"] as? [[String: Any]])?.count == 100)
            let one = try await client.send("GET", "/v1/account/activity?limit=1&utm_source=mail", token: token)
            #expect((one.json["events"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func anotherAccountsEventsAreNeverSeenNotEvenThroughItsCursor() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await Self.user(client)
            let (strangerToken, strangerID) = try await Self.user(client)
            let now = Date()
            let mine = (1...3).map { Self.event(accountID, at: now.addingTimeInterval(Double(-100 * $0))) }
            let theirs = (1...3).map { Self.event(strangerID, at: now.addingTimeInterval(Double(-100 * $0 + 50))) }
            try await Self.insert(mine + theirs, into: database)

            let (all, _) = try await Self.allPages(client, token: token, limit: 2)
            #expect(Set(Self.ids(all)).isDisjoint(with: theirs.map(\.id.description)))
            #expect(Set(mine.map(\.id.description)).isSubset(of: Self.ids(all)))
            // The stranger's page hands out a cursor at its own newest event; in my hands it only
            // bounds my events (those older than it), never shows theirs.
            let strangerPage = try await client.send("GET", "/v1/account/activity?limit=1", token: strangerToken)
            let cursor = try #require(strangerPage.json["next"] as? String)
            let bounded = try await client.send("GET", "/v1/account/activity?before=\(cursor)", token: token)
            #expect(bounded.status == 200)
            let boundedIDs = Self.ids(try #require(bounded.json["events"] as? [[String: Any]]))
            #expect(Set(boundedIDs).isDisjoint(with: theirs.map(\.id.description)))
            #expect(Set(boundedIDs).isSubset(of: Self.ids(all)))
        }
    }

    /// A row this version would not have written (a sign-in without its method) is a 500 whose
    /// cause is logged, never a page that silently leaves it out.
    @Test func anUndecodableRowIsALoggedInternalErrorNotASkip() async throws {
        let log = LogCapture()
        try await withServer(logSink: log.sink) { server, database in
            let client = server.client
            let (token, accountID) = try await Self.user(client)
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            _ = try await pool.withConnection { connection async throws(PostgresError) in
                try await connection.query(
                    """
                    INSERT INTO account_events (id, account_id, kind, occurred_at, client_address, user_agent)
                    VALUES (\(UUID()), \(accountID.uuid), 'sign-in', now(), '192.0.2.1', '')
                    """)
            }
            let answer = try await client.send("GET", "/v1/account/activity", token: token)
            #expect(answer.status == 500)
            #expect(answer.code == "internal")
            #expect(log.text.contains("event=internal_error") && log.text.contains("route=/v1/account/activity"))
            #expect(log.text.contains("PostgresAccountEventRepository"))
        }
    }

    @Test func withoutAValidTokenItIs401() async throws {
        try await withServer { server, _ in
            let missing = try await server.client.send("GET", "/v1/account/activity")
            #expect(missing.status == 401)
            #expect(missing.code == "unauthorized")
            let wrong = try await server.client.send("GET", "/v1/account/activity?limit=1", token: "not-a-token")
            #expect(wrong.status == 401)
            #expect(wrong.code == "unauthorized")
        }
    }
}
