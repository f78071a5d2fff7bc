import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// Values survive a round trip through the real server: binary bytea, timestamps, NULLs, text.
@Suite struct PostgresValueTests {
    @Test func valuesRoundTripThroughTheServer() async throws {
        try await withTestDatabase { _, pool in
            let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF] + Array(repeating: 0x5C, count: 3)
            let date = Date(timeIntervalSince1970: 1_795_000_000.654321)
            let early = Date(timeIntervalSince1970: -86_400 * 365.25 * 30 + 0.5)
            let text = "O'Brien; DROP TABLE accounts; -- \u{1F511}"
            let row = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(
                    "SELECT \(bytes: bytes)::bytea AS bytes, \(date)::timestamptz AS date, \(early)::timestamptz AS early, \(text)::text AS text, \(nil as String?)::text AS missing, \(true)::bool AS flag"
                ).first!
            }
            #expect(try row.decode([UInt8].self, column: "bytes") == bytes)
            #expect(abs(try row.decode(Date.self, column: "date").timeIntervalSince(date)) < 0.000_001)
            #expect(abs(try row.decode(Date.self, column: "early").timeIntervalSince(early)) < 0.000_001)
            #expect(try row.decode(String.self, column: "text") == text)
            #expect(try row.decode(String?.self, column: "missing") == nil)
            #expect(try row.decode(Bool.self, column: "flag"))
        }
    }

    /// libpq sends text parameters as C strings: "Mozilla\0evil" was stored as "Mozilla".
    /// Such a value is refused before anything is sent, and the connection stays usable.
    @Test func aTextWithANulIsRefusedNotCut() async throws {
        try await withTestDatabase { _, pool in
            let text = "Mozilla\u{0}evil"
            await #expect {
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT \(text)::text AS text")
                }
            } throws: { error in
                (error as? PostgresError)?.sqlState == "22021"
            }
            let after = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT \("fine")::text AS text").first?.decode(String.self, column: "text")
            }
            #expect(after == "fine")
        }
    }

    /// A fragment (the event INSERT the sign-in statements embed) keeps its own binds, numbered
    /// after the query's, including numbers of several digits and a `$` not followed by one.
    @Test func aFragmentsPlaceholdersAreRenumberedAfterTheQuerys() {
        var fragment: PostgresQuery = "SELECT \(1), '$x', \(2)"
        for index in 3...11 { fragment = "\(fragment: fragment) + \(index)" }
        let query: PostgresQuery = "WITH a AS (SELECT \("é")) \(fragment: fragment) WHERE \("z") = 'ü$'"
        #expect(
            query.sql
                == "WITH a AS (SELECT $1) SELECT $2, '$x', $3 + $4 + $5 + $6 + $7 + $8 + $9 + $10 + $11 + $12 WHERE $13 = 'ü$'"
        )
        #expect(query.binds.count == 13)
    }

    @Test func interpolationBindsParametersInsteadOfSplicingText() {
        let name = "x' OR '1'='1"
        let query: PostgresQuery = "SELECT id FROM accounts WHERE display_name = \(name) AND id = \(UUID())"
        #expect(query.sql == "SELECT id FROM accounts WHERE display_name = $1 AND id = $2")
        #expect(query.binds.count == 2)
    }
}
