import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// (v3) `activity(limit:before:)` and `activityPages(pageSize:)`: the query they send, and every
/// page of a real server's activity in turn.
@Suite struct PasskeyClientActivityTests {
    @Test func activitySendsLimitAndBeforeAndReadsThePage() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 200, ContractAnswers.activityPage)
        let page = try await client.activity(limit: 2, before: "AAAA-_")
        let request = try #require(stub.requests.only)
        #expect(request.path == "/v1/account/activity")
        #expect(request.query == "limit=2&before=AAAA-_")
        #expect(page.next == nil)
        let event = try #require(page.events.only)
        #expect(event.kind == "sign-in")
        #expect(event.method == "passkey")
        #expect(event.credentialID == "AQID")
        #expect(event.sessionID == nil)
        #expect(event.userAgent == "")

        stub.respond(status: 200, ContractAnswers.activityPage)
        _ = try await client.activity()
        #expect(stub.requests.last?.query == nil)
    }

    @Test func thePagesFollowNextUntilItIsNull() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        for next in [#""c1""#, #""c2""#, "null"] {
            stub.respond(status: 200, #"{"events":[],"next":\#(next)}"#)
        }
        var pages = 0
        for try await page in client.activityPages(pageSize: 10) {
            pages += 1
            #expect(page.events.isEmpty)
        }
        #expect(pages == 3)
        #expect(stub.requests.map(\.query) == ["limit=10", "limit=10&before=c1", "limit=10&before=c2"])
    }

    @Test func aFailedPageEndsTheLoopWithTheServersError() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 200, #"{"events":[],"next":"c1"}"#)
        stub.respond(
            status: 400,
            #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"x","code":"invalid-request"}"#)
        var pages = 0
        await #expect(throws: PasskeyClientError.self) {
            for try await _ in client.activityPages() { pages += 1 }
        }
        #expect(pages == 1)
        #expect(stub.requests.count == 2)
    }

    /// Against the served server: 11 seeded events (no flow of this version writes any), 4 a page.
    @Test func everyPageOfARealServersActivityInTurn() async throws {
        try await ServedServer.with { server, database in
            let client = PasskeyClient(baseURL: server)
            let email = "hanako-\(UUID().uuidString.prefix(8))@example.com"
            let account = try await client.createPasswordAccount(
                email: email, displayName: "Hanako", password: "correct horse battery")
            _ = try await client.signIn(email: email, password: "correct horse battery")
            let accountID = try #require(UUID(uuidString: account.accountID))
            let base = Date().addingTimeInterval(-86_400)
            let seeded = (0..<11).map { _ in UUID() }
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            try await pool.withConnection { connection async throws(PostgresError) in
                for (index, id) in seeded.enumerated() {
                    try await connection.query(
                        """
                        INSERT INTO account_events (id, account_id, kind, occurred_at, client_address, user_agent)
                        VALUES (\(id), \(accountID), 'password.set', \(base.addingTimeInterval(Double(-index))),
                                '192.0.2.1', 'Seeder/1')
                        """)
                }
            }
            let everything = try await client.activity(limit: 100)
            #expect(everything.next == nil)

            var pages: [PasskeyActivityPage] = []
            for try await page in client.activityPages(pageSize: 4) { pages.append(page) }
            #expect(pages.count == (everything.events.count + 3) / 4)
            #expect(pages.dropLast().allSatisfy { $0.events.count == 4 && $0.next != nil })
            #expect(pages.last?.next == nil)
            let events = pages.flatMap(\.events)
            #expect(events == everything.events)
            let ids = seeded.map { $0.uuidString.lowercased() }
            #expect(events.map(\.eventID).filter(ids.contains) == ids)
            #expect(events.first { $0.eventID == ids[0] }?.userAgent == "Seeder/1")
        }
    }
}
