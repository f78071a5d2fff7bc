package import PasskeyApplication
package import PasskeyLibpq

/// Sweeping expired rows, and the readiness check.
package struct PostgresMaintenanceRepository: MaintenanceRepository {
    let pool: PostgresConnectionPool
    let migrations: MigrationRunner

    package init(pool: PostgresConnectionPool, migrations: MigrationRunner) {
        self.pool = pool
        self.migrations = migrations
    }

    package func sweepExpired(batchSize: Int) async throws(RepositoryError) -> Int {
        let batch = max(1, batchSize)
        var total = 0
        // Each batch is its own short statement (and connection use), so the sweeper never
        // holds locks for long nor starves requests of connections.
        for statement in Self.statements {
            while true {
                let deleted = try await pool.run { connection throws(PostgresError) in
                    try connection.query(statement(batch)).affectedRows
                }
                total += deleted
                if deleted < batch { break }
            }
        }
        return total
    }

    private static let statements: [@Sendable (Int) -> PostgresQuery] = [
        { n in
            """
            DELETE FROM passkey_registration_challenges WHERE id IN (
                SELECT id FROM passkey_registration_challenges WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n in
            """
            DELETE FROM passkey_authentication_challenges WHERE id IN (
                SELECT id FROM passkey_authentication_challenges WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n in
            """
            DELETE FROM passkey_account_registrations WHERE id IN (
                SELECT id FROM passkey_account_registrations WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n in
            """
            DELETE FROM authentication_sessions WHERE id IN (
                SELECT id FROM authentication_sessions WHERE expires_at <= now() LIMIT \(n))
            """
        },
    ]

    package func isReady() async -> Bool {
        await migrations.isCurrent(pool: pool)
    }
}
