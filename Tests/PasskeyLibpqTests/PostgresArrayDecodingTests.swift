import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// `text[]` decodes to `[String]` (the server's quoting undone), `bytea` stays `[UInt8]`, and
/// `float8` decodes to `Double`, each by name.
@Suite struct PostgresArrayDecodingTests {
    private static func row(_ pool: PostgresConnectionPool, _ select: String) async throws -> PostgresRow {
        try #require(
            try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(PostgresQuery(stringLiteral: select))
            }.first)
    }

    @Test func textArraysDecodeWithTheirQuotingUndone() async throws {
        try await withTestDatabase { _, pool in
            let row = try await Self.row(
                pool,
                #"""
                SELECT ARRAY['usb', 'nfc']::text[] AS plain, '{}'::text[] AS empty,
                       ARRAY['a b', 'x"y', 'back\slash', '', 'NULL', 'c,d', '{}', 'ключ']::text[] AS quoted,
                       ARRAY['v']::varchar[] AS varchars, NULL::text[] AS missing, '\x00ff'::bytea AS bytes
                """#)
            #expect(try row.decode([String].self, column: "plain") == ["usb", "nfc"])
            #expect(try row.decode([String].self, column: "empty") == [])
            #expect(
                try row.decode([String].self, column: "quoted") == [
                    "a b", "x\"y", "back\\slash", "", "NULL", "c,d", "{}", "ключ",
                ])
            #expect(try row.decode([String].self, column: "varchars") == ["v"])
            #expect(try row.decode([String]?.self, column: "missing") == nil)
            #expect(try row.decode([UInt8].self, column: "bytes") == [0x00, 0xFF])
        }
    }

    @Test(arguments: [
        "SELECT ARRAY['a', NULL]::text[] AS value", "SELECT ARRAY[['a'], ['b']]::text[] AS value",
        "SELECT '[0:1]={a,b}'::text[] AS value", "SELECT '\\x00'::bytea AS value", "SELECT 'a'::text AS value",
    ])
    func whatIsNotAOneDimensionalArrayOfStringsThrowsNamingTheColumn(select: String) async throws {
        try await withTestDatabase { _, pool in
            let row = try await Self.row(pool, select)
            do throws(PostgresError) {
                _ = try row.decode([String].self, column: "value")
                Issue.record("\(select) decoded as [String]")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == "value")
            }
        }
    }

    @Test func float8DecodesAsDouble() async throws {
        try await withTestDatabase { _, pool in
            let row = try await Self.row(
                pool, "SELECT 2.5::float8 AS half, 'Infinity'::float8 AS inf, 7::int4 AS whole")
            #expect(try row.decode(Double.self, column: "half") == 2.5)
            #expect(try row.decode(Double.self, column: "inf") == .infinity)
            #expect(throws: PostgresError.self) { try row.decode(Double.self, column: "whole") }
        }
    }
}
