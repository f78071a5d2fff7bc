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
                    "SELECT \(bytes: bytes)::bytea, \(date)::timestamptz, \(early)::timestamptz, \(text)::text, \(nil as String?)::text, \(true)::bool"
                ).first!
            }
            #expect(try row.bytes(0) == bytes)
            #expect(abs(try row.date(1).timeIntervalSince(date)) < 0.000_001)
            #expect(abs(try row.date(2).timeIntervalSince(early)) < 0.000_001)
            #expect(try row.string(3) == text)
            #expect(row.isNull(4))
            #expect(try row.bool(5))
        }
    }

    @Test func interpolationBindsParametersInsteadOfSplicingText() {
        let name = "x' OR '1'='1"
        let query: PostgresQuery = "SELECT id FROM accounts WHERE display_name = \(name) AND id = \(UUID())"
        #expect(query.sql == "SELECT id FROM accounts WHERE display_name = $1 AND id = $2")
        #expect(query.binds.count == 2)
    }
}
