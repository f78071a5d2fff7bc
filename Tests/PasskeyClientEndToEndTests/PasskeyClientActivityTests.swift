import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// (v3) `activityPages(pageSize:)` over every page of a real server's activity in turn (the
/// queries against a stub are in PasskeyClientTests).
@Suite struct PasskeyClientActivityTests {
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
