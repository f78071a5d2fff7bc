package import PasskeyLibpq

/// Applies `Migrations/*.sql` in order, each in its own transaction, recorded in
/// `schema_migrations` with a SHA-256 checksum, under a transaction-scoped advisory lock so
/// that several instances may start at once.
package struct MigrationRunner: Sendable {
    /// Arbitrary constant shared by every instance of this server ("passkey" in ASCII).
    static let advisoryLockKey: Int64 = 0x7061_7373_6b65_79

    package let migrations: [Migration]

    package init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies what is pending and returns the names applied by this call.
    ///
    /// Every step is one transaction that first takes a transaction-scoped advisory lock
    /// (`pg_advisory_xact_lock`), then reads what is applied and applies at most one file. So
    /// several instances may migrate at once, and it works through PgBouncer's transaction
    /// pooling too (a session lock could be taken on one server connection and released on
    /// another there).
    package func migrate(pool: PostgresConnectionPool) async throws(MigrationError) -> [String] {
        let migrations = self.migrations
        let outcome: Result<[String], MigrationError>
        do {
            outcome = try await pool.withConnection { connection async throws(PostgresError) in
                try await Self.apply(migrations, on: connection)
            }
        } catch {
            throw .database(error)
        }
        return try outcome.get()
    }

    /// True when every migration of this build is applied with a matching checksum.
    package func isCurrent(pool: PostgresConnectionPool) async -> Bool {
        let migrations = self.migrations
        let current: Bool? = try? await pool.withConnection { connection async throws(PostgresError) in
            let applied = try await Self.appliedChecksums(on: connection)
            guard applied.count == migrations.count else { return false }
            for migration in migrations {
                guard await applied[migration.version] == (try Self.checksum(of: migration, on: connection)) else {
                    return false
                }
            }
            return true
        }
        return current ?? false
    }

    // MARK: - On the connection's thread

    private static func apply(_ migrations: [Migration], on connection: PostgresConnection)
        async throws(PostgresError) -> Result<[String], MigrationError>
    {
        try await connection.transaction { () async throws(PostgresError) in
            try await lock(connection)
            try await connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    integer     PRIMARY KEY,
                    name       text        NOT NULL,
                    checksum   text        NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        let known = Set(migrations.map(\.version))
        var names: [String] = []
        for migration in migrations {
            var outcome: Result<Bool, MigrationError> = .success(false)
            do {
                try await connection.transaction { () async throws(PostgresError) in
                    try await lock(connection)
                    // Read under the lock: what an instance before us applied is visible now.
                    let applied = try await appliedChecksums(on: connection)
                    if let unknown = applied.keys.sorted().first(where: { !known.contains($0) }) {
                        outcome = .failure(.unknownAppliedVersion(unknown))
                        return
                    }
                    let checksum = try await checksum(of: migration, on: connection)
                    if let recorded = applied[migration.version] {
                        if recorded != checksum {
                            outcome = .failure(.checksumMismatch(version: migration.version, name: migration.name))
                        }
                        return
                    }
                    try await connection.execute(migration.sql)
                    try await connection.query(
                        """
                        INSERT INTO schema_migrations (version, name, checksum)
                        VALUES (\(migration.version), \(migration.name), \(checksum))
                        """)
                    outcome = .success(true)
                }
            } catch {
                if error.kind == .connection { throw error }
                return .failure(.failed(name: migration.name, error))
            }
            switch outcome {
            case .failure(let failure): return .failure(failure)
            case .success(true): names.append(migration.name)
            case .success(false): continue
            }
        }
        return .success(names)
    }

    /// The transaction-scoped advisory lock that serialises migration steps across instances.
    private static func lock(_ connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query("SELECT pg_advisory_xact_lock(\(advisoryLockKey))")
    }

    private static func appliedChecksums(on connection: PostgresConnection) async throws(PostgresError) -> [Int: String]
    {
        let exists = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
        guard let row = exists.first, try row.decode(Bool.self, column: "present") else { return [:] }
        var applied: [Int: String] = [:]
        for row in try await connection.query("SELECT version, checksum FROM schema_migrations").rows {
            applied[try row.decode(column: "version")] = try row.decode(String.self, column: "checksum")
        }
        return applied
    }

    /// SHA-256 of the file's text, hex, computed by the server (PostgreSQL 11+ has `sha256`).
    private static func checksum(of migration: Migration, on connection: PostgresConnection)
        async throws(PostgresError) -> String
    {
        let result = try await connection.query(
            "SELECT encode(sha256(convert_to(\(migration.sql), 'UTF8')), 'hex') AS checksum")
        guard let row = result.first else {
            throw PostgresError(kind: .decoding, diagnostic: "no checksum returned")
        }
        return try row.decode(column: "checksum")
    }
}
