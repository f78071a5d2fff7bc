internal import Foundation
internal import PasskeyLibpq
internal import PasskeyPersistence
internal import PasskeyTestSupport

/// Hands out throwaway databases on the PostgreSQL server named by `PASSKEY_TEST_DATABASE_URL`
/// (a key=value libpq string; `make test` starts a throwaway cluster and sets it). Each is
/// created from one migrated template (`CREATE DATABASE … TEMPLATE`), so suites never share
/// a schema and can run in parallel.
package actor TestDatabaseServer {
    package static let shared = TestDatabaseServer()

    /// Every database this support creates or drops has this prefix; anything else is refused.
    package static let prefix = "passkey_test_"

    package struct MissingServer: Error, CustomStringConvertible {
        package var description: String {
            "PASSKEY_TEST_DATABASE_URL is not set: run the tests with `make test`, which starts a throwaway PostgreSQL"
        }
    }

    package struct RefusedName: Error, CustomStringConvertible {
        let name: String
        package var description: String {
            "refusing to touch database \(name): not a \(TestDatabaseServer.prefix)* name"
        }
    }

    /// The one migration of the template, shared by every caller: the actor is reentrant, so a
    /// plain optional let each of the suites that start together migrate a template of its own
    /// (hundreds per run, each a CREATE DATABASE and eight migrations, which slowed every
    /// database creation after them to seconds).
    private var template: Task<String, any Error>?

    /// The admin connection string (database `postgres` of the test cluster), with a connect
    /// timeout of 30 s instead of the server's 5 s: the suites open their connections all at once,
    /// and on a machine whose cores are busy the cluster has been seen to take longer than 5 s to
    /// accept one. A `connect_timeout` in the variable itself is left alone.
    package static func adminConninfo() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["PASSKEY_TEST_DATABASE_URL"], !url.isEmpty else {
            throw MissingServer()
        }
        // A URI (postgres://…) is passed on as it is: keywords cannot be added in front of one.
        let isKeywordForm = !url.hasPrefix("postgres://") && !url.hasPrefix("postgresql://")
        return isKeywordForm && !url.contains("connect_timeout") ? "connect_timeout=30 \(url)" : url
    }

    /// A fresh, migrated database.
    package func createDatabase() async throws -> TestDatabase {
        let admin = try Self.adminConninfo()
        let template = try await migratedTemplate(admin: admin)
        let name = Self.prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.adminExecute(
            admin, "CREATE DATABASE \(try Self.checked(name)) TEMPLATE \(try Self.checked(template))")
        return TestDatabase(name: name, conninfo: "\(admin) dbname=\(name)")
    }

    /// A fresh, empty database (no schema: for migration tests).
    package func createEmptyDatabase() async throws -> TestDatabase {
        let admin = try Self.adminConninfo()
        let name = Self.prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.adminExecute(admin, "CREATE DATABASE \(try Self.checked(name))")
        return TestDatabase(name: name, conninfo: "\(admin) dbname=\(name)")
    }

    /// The conninfo of `database` through the PgBouncer (transaction pooling) that `make test`
    /// starts in front of the test cluster and names in `PASSKEY_TEST_PGBOUNCER_URL`.
    package static func pgBouncerConninfo(for database: TestDatabase) throws -> String {
        guard let url = ProcessInfo.processInfo.environment["PASSKEY_TEST_PGBOUNCER_URL"], !url.isEmpty else {
            throw MissingPgBouncer()
        }
        return "\(url) dbname=\(database.name)"
    }

    package struct MissingPgBouncer: Error, CustomStringConvertible {
        package var description: String {
            "PASSKEY_TEST_PGBOUNCER_URL is not set: run the tests with `make test`, which starts PgBouncer in front of the throwaway PostgreSQL"
        }
    }

    /// Drops a database made here (refusing any other name).
    /// With `PASSKEY_TEST_AUDIT_DIR` set, its activity log is dumped first (`SecretAudit`).
    package func drop(_ database: TestDatabase) async throws {
        await SecretAudit.dumpEvents(conninfo: database.conninfo)
        let admin = try Self.adminConninfo()
        try await Self.adminExecute(admin, "DROP DATABASE IF EXISTS \(try Self.checked(database.name)) WITH (FORCE)")
    }

    private func migratedTemplate(admin: String) async throws -> String {
        if let template { return try await template.value }
        let migration = Task { try await Self.migrateTemplate(admin: admin) }
        template = migration
        return try await migration.value
    }

    private static func migrateTemplate(admin: String) async throws -> String {
        let name = Self.prefix + "template_" + UUID().uuidString.prefix(8).lowercased()
        try await Self.adminExecute(admin, "CREATE DATABASE \(try Self.checked(name))")
        let pool = PostgresConnectionPool(
            configuration: .init(conninfo: "\(admin) dbname=\(name)", maximumConnections: 1))
        let runner = MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations))
        _ = try await runner.migrate(pool: pool)
        pool.close()
        return name
    }

    /// Database names are generated here, never taken from input; still, check the shape
    /// before they reach SQL text (identifiers cannot be bound as parameters).
    private static func checked(_ name: String) throws -> String {
        guard name.hasPrefix(prefix), name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { throw RefusedName(name: name) }
        return name
    }

    private static func adminExecute(_ admin: String, _ sql: String) async throws {
        let pool = PostgresConnectionPool(configuration: .init(conninfo: admin, maximumConnections: 1))
        defer { pool.close() }
        try await pool.withConnection { connection async throws(PostgresError) in try await connection.execute(sql) }
    }
}
