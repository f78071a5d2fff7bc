import PasskeyDatabaseTestSupport
import Testing

@testable import PasskeyLibpq

/// A connection builds the column layout of a result once per shape: results of one statement
/// share it; another order, name or type of columns gets its own, so decoding by name stays
/// right for each.
@Suite struct PostgresColumnsCacheTests {
    @Test func resultsOfOneShapeShareTheirLayoutAndOthersDoNot() async throws {
        try await withTestDatabase { _, pool in
            try await pool.withConnection { c async throws(PostgresError) in
                let first = try await c.query("SELECT 1::int4 AS a, 'x'::text AS b")
                let again = try await c.query("SELECT 2::int4 AS a, 'y'::text AS b")
                let reordered = try await c.query("SELECT 'z'::text AS b, 3::int4 AS a")
                let retyped = try await c.query("SELECT 4::int8 AS a, 'w'::text AS b")
                #expect(first.owner.columns === again.owner.columns)
                #expect(first.owner.columns !== reordered.owner.columns)
                #expect(first.owner.columns !== retyped.owner.columns)
                #expect(try reordered.first?.decode(Int.self, column: "a") == 3)
                #expect(try again.first?.decode(String.self, column: "b") == "y")
                #expect(try retyped.first?.decode(Int64.self, column: "a") == 4)
            }
        }
    }
}
