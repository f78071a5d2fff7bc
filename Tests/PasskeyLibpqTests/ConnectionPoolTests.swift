import Foundation
import PasskeyApplication
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct ConnectionPoolTests {
    @Test func aBusyPoolMakesCallersWaitThenTimesOut() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, _ in
            let pool = PostgresConnectionPool(
                configuration: .init(
                    conninfo: database.conninfo, maximumConnections: 1, acquireTimeout: .milliseconds(200)))
            defer { pool.close() }
            // The only connection is held until the test lets it go (not for a fixed time, which
            // a busy machine could outlast before the second caller even starts).
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (release, letGo) = AsyncStream<Void>.makeStream()
            async let holder: Void = pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT 1")
                holding.yield()
                for await _ in release {}
            }
            for await _ in held { break }
            await #expect {
                try await pool.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
            } throws: { error in
                (error as? PostgresError)?.kind == .poolTimeout
            }
            letGo.finish()
            try await holder
            // Free again: the next caller gets the connection.
            let one = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT 1").first!.int(0)
            }
            #expect(one == 1)
        }
    }

    /// One timer serves the whole line: waiters that arrive at different times each get their
    /// own full wait (not the first one's deadline), and a waiter that comes after the line
    /// emptied still times out (the timer is armed again). The only connection is held until
    /// the test lets it go, so no timing of the machine can serve a waiter by accident.
    @Test func everyWaiterTimesOutAfterItsOwnWait() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, _ in
            let pool = PostgresConnectionPool(
                configuration: .init(
                    conninfo: database.conninfo, maximumConnections: 1, acquireTimeout: .milliseconds(300)))
            defer { pool.close() }
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (release, letGo) = AsyncStream<Void>.makeStream()
            async let holder: Void = pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT 1")
                holding.yield()
                for await _ in release {}
            }
            for await _ in held { break }
            /// How long a caller starting after `delay` waited before its timeout.
            @Sendable func waited(after delay: Duration) async throws -> Duration {
                try await Task.sleep(for: delay)
                let start = ContinuousClock.now
                do {
                    _ = try await pool.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
                    Issue.record("a caller was served while the only connection was held")
                } catch {
                    #expect(error.kind == .poolTimeout)
                }
                return ContinuousClock.now - start
            }
            // Should a waiter never time out, the connection is let go after 10 s: it is then
            // served, which the test reports (instead of hanging).
            let watchdog = Task {
                try? await Task.sleep(for: .seconds(10))
                letGo.finish()
            }
            async let first = waited(after: .zero)
            async let second = waited(after: .milliseconds(150))
            let line = try await [first, second]
            let late = try await waited(after: .zero)
            for wait in line + [late] {
                #expect(wait >= .milliseconds(290), "timed out before its own 300 ms: \(wait)")
            }
            watchdog.cancel()
            letGo.finish()
            try await holder
        }
    }

    /// Many more callers than connections, many rounds: every caller is served. (A release that
    /// slipped between a caller's "must wait" decision and its registration used to strand it.)
    @Test func waitersAreServedWhenAConnectionIsReleased() async throws {
        try await withTestDatabase(maximumConnections: 2) { database, _ in
            let pool = PostgresConnectionPool(
                configuration: .init(conninfo: database.conninfo, maximumConnections: 2, acquireTimeout: .seconds(10)))
            defer { pool.close() }
            for _ in 0..<30 {
                let sum = try await withThrowingTaskGroup(of: Int.self) { group in
                    for i in 0..<20 {
                        group.addTask {
                            try await pool.withConnection { c async throws(PostgresError) in
                                try await c.query("SELECT \(i)").first!.int(0)
                            }
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(sum == (0..<20).reduce(0, +))
            }
        }
    }

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

    @Test func statementErrorsCarrySQLStateAndAGenericDescription() async throws {
        try await withTestDatabase { _, pool in
            await #expect {
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT * FROM no_such_table")
                }
            } throws: { error in
                guard let error = error as? PostgresError else { return false }
                return error.sqlState == "42P01" && !error.description.contains("no_such_table")
                    && error.diagnostic.contains("no_such_table")
            }
        }
    }

    /// The pool survives a PostgreSQL restart: after it, requests work again without a new pool.
    @Test func thePoolRecoversAfterPostgreSQLRestarts() async throws {
        let cluster = try ThrowawayCluster()
        defer { cluster.destroy() }
        let pool = PostgresConnectionPool(configuration: .init(conninfo: cluster.conninfo, maximumConnections: 3))
        defer { pool.close() }
        let sessions = PostgresSessionRepository(pool: pool)
        // Open three connections.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    _ = try await pool.withConnection { c async throws(PostgresError) in
                        try await c.query("SELECT pg_sleep(0.05)")
                    }
                }
            }
            try await group.waitForAll()
        }
        try cluster.stop()
        await #expect(throws: RepositoryError.unavailable) {
            _ = try await sessions.revokeSession(id: .init(), at: Date())
        }
        try cluster.start()
        // At most one request may meet a dead connection (it is then discarded with all older idle ones).
        var failures = 0
        var value: Int?
        for _ in 0..<3 where value == nil {
            do {
                value = try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT 42").first!.int(0)
                }
            } catch {
                failures += 1
            }
        }
        #expect(value == 42)
        #expect(failures <= 1)
        // And the pool keeps working for concurrent callers.
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<6 {
                group.addTask {
                    try await pool.withConnection { c async throws(PostgresError) in
                        try await c.query("SELECT \(i)").first!.int(0)
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == 15)
    }
}
