import Foundation
import PasskeyApplication
import PasskeyLibpq
import PasskeyPersistence
import Testing

/// A repository on a database it cannot reach answers `.unavailable` (not an internal failure).
@Suite struct UnreachableDatabaseTests {
    @Test func anUnreachableDatabaseIsReportedAsUnavailable() async throws {
        let pool = PostgresConnectionPool(
            configuration: .init(
                conninfo: "host=/nonexistent-socket-dir port=1 user=nobody dbname=none", maximumConnections: 1))
        defer { pool.close() }
        let repository = PostgresSessionRepository(pool: pool)
        await #expect(throws: RepositoryError.unavailable) {
            _ = try await repository.activeSession(tokenDigest: [UInt8](repeating: 0, count: 32), now: Date())
        }
    }
}
