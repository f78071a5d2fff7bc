package import PasskeyLibpq

/// One throwaway database.
package struct TestDatabase: Sendable {
    package let name: String
    package let conninfo: String

    /// A pool on this database.
    package func makePool(maximumConnections: Int = 4) -> PostgresConnectionPool {
        PostgresConnectionPool(configuration: .init(conninfo: conninfo, maximumConnections: maximumConnections))
    }
}

/// Runs `body` with a fresh migrated database and a pool on it; drops both afterwards.
@discardableResult
package func withTestDatabase<T: Sendable>(
    maximumConnections: Int = 4, _ body: (TestDatabase, PostgresConnectionPool) async throws -> T
) async throws -> T {
    let database = try await TestDatabaseServer.shared.createDatabase()
    let pool = database.makePool(maximumConnections: maximumConnections)
    do {
        let value = try await body(database, pool)
        pool.close()
        try await TestDatabaseServer.shared.drop(database)
        return value
    } catch {
        pool.close()
        try? await TestDatabaseServer.shared.drop(database)
        throw error
    }
}
