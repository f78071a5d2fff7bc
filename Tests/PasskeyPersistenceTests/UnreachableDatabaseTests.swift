import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import Testing

/// A repository or the unit of work on a database it cannot reach answers `.unavailable` (not an
/// internal failure).
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

    @Test func aTransactionOnAnUnreachableDatabaseIsUnavailable() async throws {
        let pool = PostgresConnectionPool(
            configuration: .init(
                conninfo: "host=/nonexistent-socket-dir port=1 user=nobody dbname=none", maximumConnections: 1))
        defer { pool.close() }
        await #expect(throws: RepositoryError.unavailable) {
            try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
                try await tx.sessions.revoke(.all, of: AccountID(), except: nil, at: Date())
            }
        }
    }
}
