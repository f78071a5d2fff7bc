import Foundation
import PasskeyApplication
import PasskeyDomain
import Testing

@testable import PasskeyServer

/// (v3) The query of `GET /v1/account/activity` on the real stack: what is refused, and cursors
/// no event can have.
@Suite struct AccountActivityQueryTests {
    /// Any 24 bytes are a cursor, also times no event can have: far in the future every event is
    /// older, far in the past none is; never a 500.
    @Test func cursorsAtTheEndsOfTimeBoundEverythingOrNothing() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await AccountActivityTests.user(client)
            try await AccountActivityTests.insert(
                [AccountActivityTests.event(accountID, at: Date().addingTimeInterval(-5))], into: database)
            let first = AccountActivityTests.ids(
                try #require(
                    try await client.send("GET", "/v1/account/activity", token: token).json["events"]
                        as? [[String: Any]]))
            #expect(!first.isEmpty)
            let id = AccountEventID(UUID())
            let ends: [(micros: Int64, expected: [String])] = [
                (.max, first), (253_402_300_799_999_999, first), (300_000_000_000_000_000, first),
                (.min, []), (-62_135_596_800_000_000, []), (-300_000_000_000_000_000, []), (-1, []), (0, []),
            ]
            for end in ends {
                let cursor = ActivityCursor(microsecondsSince1970: end.micros, eventID: id).wireValue
                let page = try await client.send("GET", "/v1/account/activity?before=\(cursor)", token: token)
                #expect(page.status == 200, "\(end.micros): \(page.text)")
                #expect(
                    AccountActivityTests.ids(page.json["events"] as? [[String: Any]] ?? [["eventID": "none"]])
                        == end.expected)
            }
        }
    }

    static let badQueries = [
        "limit=0", "limit=101", "limit=-1", "limit=abc", "limit=", "limit", "limit=1.5", "limit=%2B5", "limit=1e2",
        "limit=1000000000000000000000", "limit=10&limit=20", "limit=10&limit=10", "before=", "before",
        "before=abc", "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D", "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%2B",
        "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/", "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&before=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "before=%ZZ",
    ]

    @Test func badLimitOrBeforeIs400InvalidRequestAndChangesNothing() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, accountID) = try await AccountActivityTests.user(client)
            try await AccountActivityTests.insert(
                [AccountActivityTests.event(accountID, at: Date().addingTimeInterval(-5))], into: database)
            let count = try await AccountActivityTests.eventCount(database)
            for query in Self.badQueries {
                let answer = try await client.send("GET", "/v1/account/activity?\(query)", token: token)
                #expect(answer.status == 400, "\(query)")
                #expect(answer.code == "invalid-request", "\(query)")
                #expect(answer.headers["content-type"] == "application/problem+json", "\(query)")
                #expect(!answer.text.contains("AAAAAAAA"), "the detail never echoes the input")
            }
            #expect(try await AccountActivityTests.eventCount(database) == count)
            #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
        }
    }
}
