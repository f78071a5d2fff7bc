import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct MigrationRunnerTests {
    let migrations = try! Migration.load(from: PackagePaths.migrations)

    @Test func migrationsCreateTheContractTablesAndAreIdempotent() async throws {
        try await withTestDatabase { _, pool in
            // The template is already migrated: running again applies nothing.
            let runner = MigrationRunner(migrations: migrations)
            #expect(try await runner.migrate(pool: pool).isEmpty)
            #expect(await runner.isCurrent(pool: pool))
            let tables = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
                ).rows.map { row throws(PostgresError) in try row.decode(String.self, column: "table_name") }
            }
            #expect(
                tables == [
                    "account_emails", "account_event_days", "account_event_days_done", "account_events", "accounts",
                    "authentication_sessions", "email_codes", "mail_outbox", "operators",
                    "passkey_account_registrations",
                    "passkey_authentication_challenges", "passkey_credentials", "passkey_registration_challenges",
                    "password_credentials", "password_failures", "rate_limit_windows", "recovery_codes",
                    "schema_migrations", "signing_keys", "webhook_deliveries", "webhook_events", "webhooks",
                ])
        }
    }

    @Test func migrateOnAnEmptyDatabaseAppliesEveryFileInOrder() async throws {
        try await withTestDatabase { _, pool in
            try await pool.withConnection { c async throws(PostgresError) in
                try await c.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            }
            let runner = MigrationRunner(migrations: migrations)
            #expect(await !runner.isCurrent(pool: pool))
            #expect(try await runner.migrate(pool: pool) == migrations.map(\.name))
            #expect(await runner.isCurrent(pool: pool))
        }
    }

    @Test func anEditedAppliedMigrationIsRefused() async throws {
        try await withTestDatabase { _, pool in
            var edited = migrations
            let first = edited[0]
            edited[0] = Migration(version: first.version, name: first.name, sql: first.sql + "\n-- edited\n")
            let runner = MigrationRunner(migrations: edited)
            await #expect {
                _ = try await runner.migrate(pool: pool)
            } throws: { error in
                guard case MigrationError.checksumMismatch(let version, _) = error else { return false }
                return version == first.version
            }
            #expect(await !runner.isCurrent(pool: pool))
        }
    }

    @Test func aFailingMigrationLeavesNoTrace() async throws {
        try await withTestDatabase { _, pool in
            let broken = Migration(
                version: 9_999, name: "9999_broken.sql",
                sql: "CREATE TABLE half_done (id int); SELECT no_such_function();")
            let runner = MigrationRunner(migrations: migrations + [broken])
            await #expect(throws: MigrationError.self) { _ = try await runner.migrate(pool: pool) }
            let exists = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT to_regclass('half_done') IS NOT NULL AS present").first!.decode(
                    Bool.self, column: "present")
            }
            #expect(!exists)
        }
    }

    @Test func concurrentMigrateRunsOnAnEmptyDatabaseApplyEachFileOnce() async throws {
        try await withTestDatabase { database, pool in
            try await pool.withConnection { c async throws(PostgresError) in
                try await c.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            }
            let results = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let own = database.makePool(maximumConnections: 1)
                        defer { own.close() }
                        return try await MigrationRunner(migrations: migrations).migrate(pool: own)
                    }
                }
                return try await group.reduce(into: [[String]]()) { $0.append($1) }
            }
            // Each file applied once (the runners may share the work: every step takes the lock),
            // and in version order.
            #expect(results.flatMap { $0 }.sorted() == migrations.map(\.name).sorted())
            #expect(results.allSatisfy { $0 == $0.sorted() })
            let order = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT version FROM schema_migrations ORDER BY applied_at, version").rows.map {
                    row throws(PostgresError) in try row.decode(Int.self, column: "version")
                }
            }
            #expect(order == migrations.map(\.version))
            #expect(await MigrationRunner(migrations: migrations).isCurrent(pool: pool))
        }
    }
}
