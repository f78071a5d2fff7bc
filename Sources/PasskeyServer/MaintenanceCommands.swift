internal import Foundation
internal import PasskeyApplication
internal import PasskeyLibpq
internal import PasskeyPersistence

/// `migrate` and `sweep`: one-shot database commands.
enum MaintenanceCommands {
    static func migrate(environment: [String: String]) async -> Int32 {
        guard let (pool, runner) = open(environment: environment) else { return 1 }
        defer { pool.close() }
        do {
            let applied = try await runner.migrate(pool: pool)
            Console.error(
                applied.isEmpty
                    ? "migrate: schema is up to date (\(runner.migrations.count) migrations)"
                    : "migrate: applied \(applied.joined(separator: ", "))")
            return 0
        } catch {
            Console.error("passkey-server: migrate: \(error)")
            return 1
        }
    }

    static func sweep(environment: [String: String]) async -> Int32 {
        guard let (pool, runner) = open(environment: environment) else { return 1 }
        defer { pool.close() }
        do {
            let deleted = try await PostgresMaintenanceRepository(pool: pool, migrations: runner)
                .sweepExpired(batchSize: 1000)
            Console.error("sweep: deleted \(deleted) expired rows")
            return 0
        } catch {
            Console.error("passkey-server: sweep: database error (\(error))")
            return 1
        }
    }

    /// A one-connection pool on DATABASE_URL and the migrations; prints a one-line error on failure.
    private static func open(environment: [String: String]) -> (PostgresConnectionPool, MigrationRunner)? {
        guard let url = environment["DATABASE_URL"], !url.isEmpty else {
            Console.error("passkey-server: invalid configuration: DATABASE_URL is not set")
            return nil
        }
        if let problem = PostgresConnection.validate(conninfo: url) {
            Console.error("passkey-server: invalid configuration: DATABASE_URL: \(problem)")
            return nil
        }
        guard let directory = ResourceLocator.migrations(environment) else {
            Console.error("passkey-server: cannot find the Migrations folder (set PASSKEY_MIGRATIONS_DIR)")
            return nil
        }
        do {
            let migrations = try Migration.load(from: directory)
            // `migrate` and `sweep` keep no session state either way; the switch only picks
            // unnamed statements for a transaction-pooling PgBouncer.
            let preparedStatements = environment["DATABASE_PREPARED_STATEMENTS"]?.lowercased() != "off"
            let pool = PostgresConnectionPool(
                configuration: .init(conninfo: url, maximumConnections: 1, preparedStatements: preparedStatements))
            return (pool, MigrationRunner(migrations: migrations))
        } catch {
            Console.error("passkey-server: \(error)")
            return nil
        }
    }
}
