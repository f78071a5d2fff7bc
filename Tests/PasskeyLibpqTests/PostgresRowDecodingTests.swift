import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// Rows decoded by column name, checked against the result's column names and types: a
/// reordered `SELECT` decodes the same, a renamed or retyped column throws naming it.
@Suite struct PostgresRowDecodingTests {
    private struct Sample: Equatable {
        var id: UUID
        var name: String
        var count: Int
        var flag: Bool
        var at: Date?
        var bytes: [UInt8]
    }

    /// The one decoding both `SELECT`s go through.
    private static func sample(_ row: PostgresRow) throws(PostgresError) -> Sample {
        Sample(
            id: try row.decode(column: "id"), name: try row.decode(column: "name"),
            count: try row.decode(column: "count"), flag: try row.decode(column: "flag"),
            at: try row.decode(column: "at"), bytes: try row.decode(column: "bytes"))
    }

    private static func query(_ pool: PostgresConnectionPool, _ query: PostgresQuery) async throws -> PostgresResult {
        try await pool.withConnection { c async throws(PostgresError) in try await c.query(query) }
    }

    @Test func aReorderedSelectDecodesTheSameByName() async throws {
        try await withTestDatabase { _, pool in
            let id = UUID()
            let at = Date(timeIntervalSince1970: 1_795_000_000.25)
            let bytes: [UInt8] = [0, 0xFF, 0x5C]
            let inOrder = try await Self.query(
                pool,
                "SELECT \(id)::uuid AS id, \("Ada")::text AS name, 3::int4 AS count, true AS flag, \(at)::timestamptz AS at, \(bytes: bytes)::bytea AS bytes"
            )
            let reordered = try await Self.query(
                pool,
                "SELECT \(bytes: bytes)::bytea AS bytes, \(at)::timestamptz AS at, true AS flag, 3::int8 AS count, \("Ada")::varchar AS name, \(id)::uuid AS id"
            )
            let expected = Sample(id: id, name: "Ada", count: 3, flag: true, at: at, bytes: bytes)
            #expect(try Self.sample(#require(inOrder.first)) == expected)
            #expect(try Self.sample(#require(reordered.first)) == expected)
            #expect(reordered.columnNames == ["bytes", "at", "flag", "count", "name", "id"])
        }
    }

    @Test func aMissingColumnThrowsNamingIt() async throws {
        try await withTestDatabase { _, pool in
            let row = try #require(try await Self.query(pool, "SELECT 'Ada'::text AS display_name").first)
            #expect(try row.decode(String.self, column: "display_name") == "Ada")
            do throws(PostgresError) {
                _ = try row.decode(String.self, column: "name")
                Issue.record("decoded a column the result does not have")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == "name")
                #expect(error.diagnostic.contains("name"))
            }
        }
    }

    /// Two columns of one name (a join's `a.id, b.id`): reading it by name throws instead of
    /// taking the first; the other columns still decode. (It took the first before.)
    @Test func aNameOfTwoColumnsIsAmbiguous() async throws {
        try await withTestDatabase { _, pool in
            let row = try #require(
                try await Self.query(pool, "SELECT 'a'::text AS id, 'b'::text AS id, 'c'::text AS other").first)
            #expect(try row.decode(String.self, column: "other") == "c")
            do throws(PostgresError) {
                _ = try row.decode(String.self, column: "id")
                Issue.record("decoded an ambiguous column")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == "id")
                #expect(error.diagnostic.contains("several columns"))
            }
        }
    }

    @Test(arguments: [
        ("SELECT 7::int4 AS value", "String"), ("SELECT 'x'::text AS value", "Int"),
        ("SELECT gen_random_uuid() AS value", "String"), ("SELECT now() AS value", "Int"),
        ("SELECT 'x'::text AS value", "Date"), ("SELECT 1::int8 AS value", "Bool"),
    ])
    func aColumnOfAnotherTypeThrowsNamingIt(select: String, swiftType: String) async throws {
        try await withTestDatabase { _, pool in
            let row = try #require(
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query(PostgresQuery(stringLiteral: select))
                }.first)
            do throws(PostgresError) {
                switch swiftType {
                case "String": _ = try row.decode(String.self, column: "value")
                case "Int": _ = try row.decode(Int.self, column: "value")
                case "Date": _ = try row.decode(Date?.self, column: "value")
                default: _ = try row.decode(Bool.self, column: "value")
                }
                Issue.record("\(select) decoded as \(swiftType)")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == "value")
            }
        }
    }

    @Test func nullDecodesAsNilAndIsRefusedForANonOptional() async throws {
        try await withTestDatabase { _, pool in
            let row = try #require(try await Self.query(pool, "SELECT NULL::text AS nickname").first)
            #expect(try row.decode(String?.self, column: "nickname") == nil)
            do throws(PostgresError) {
                _ = try row.decode(String.self, column: "nickname")
                Issue.record("NULL decoded as a String")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == "nickname")
            }
        }
    }

    /// The `PGresult` lives exactly as long as its result or one of its rows: a row still reads
    /// after its pool is closed, and the owner is gone (its `PQclear` run) once the last row is.
    @Test func theResultIsFreedWithItsLastRowAndNotBefore() async throws {
        weak var owner: PGresultOwner?
        try await withTestDatabase { database, _ in
            let pool = database.makePool(maximumConnections: 1)
            var row: PostgresRow? = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT 'kept'::text AS word").first
            }
            pool.close()
            owner = row?.result
            #expect(owner != nil)
            #expect(try row?.decode(String.self, column: "word") == "kept")
            row = nil
            #expect(owner == nil, "the PGresult outlived its last row")
        }
    }
}
