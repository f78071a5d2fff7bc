import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// The connection mode for a transaction-pooling PgBouncer: no named statements, no session SET.
@Suite struct UnpreparedConnectionTests {
    @Test func statementsAreUnnamedAndTimestampsReadInAnyTimeZone() async throws {
        try await withTestDatabase { database, _ in
            let pool = PostgresConnectionPool(
                configuration: .init(conninfo: database.conninfo, maximumConnections: 1, preparedStatements: false))
            defer { pool.close() }
            let instant = Date(timeIntervalSince1970: 1_795_975_200.25)
            for zone in ["Asia/Tokyo", "America/St_Johns", "UTC", "Asia/Kathmandu"] {
                let (read, prepared) = try await pool.withConnection { c async throws(PostgresError) in
                    try await c.execute("SET TimeZone TO '\(zone)'")
                    let value = try await c.query("SELECT \(instant)::timestamptz AS at").first?.decode(
                        Date.self, column: "at")
                    let named = try await c.query("SELECT count(*) FROM pg_prepared_statements").first?.decode(
                        Int.self, column: "count")
                    return (value, named)
                }
                #expect(read == instant, "\(zone)")
                #expect(prepared == 0)
            }
        }
    }
}
