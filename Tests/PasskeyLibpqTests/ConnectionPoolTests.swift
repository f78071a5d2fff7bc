import PasskeyDatabaseTestSupport
import PasskeyEventLoop
import PasskeyLibpq
import Testing

/// The pool against a real PostgreSQL: every caller is served, errors say what happened, a
/// restart is survived, and the loop it creates ends with it. (Waiting callers, on a clock the
/// test advances: `ConnectionPoolWaitingTests`.)
@Suite struct ConnectionPoolTests {
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
                                try await c.query("SELECT \(i)::int8 AS i").first!.decode(Int.self, column: "i")
                            }
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(sum == (0..<20).reduce(0, +))
            }
        }
    }

    /// A session that turned read-only (what an old primary is after a failover; here set by
    /// hand) answers 25006: the error counts as "database unavailable" (503, not 500), and the
    /// pool closes that connection instead of handing it out again. Before, the next caller got
    /// the same read-only session back and failed the same way.
    @Test func aSessionThatTurnedReadOnlyIsDiscardedNotReused() async throws {
        try await withTestDatabase(maximumConnections: 1) { _, pool in
            try await pool.withConnection { c async throws(PostgresError) in
                try await c.execute("CREATE TABLE read_only_probe (n int)")
            }
            let first = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            await #expect {
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.execute("SET default_transaction_read_only = on")
                    try await c.execute("INSERT INTO read_only_probe VALUES (1)")
                }
            } throws: { error in
                guard let error = error as? PostgresError else { return false }
                return error.sqlState == "25006" && error.isUnavailable && error.discardsConnection
            }
            let next = try await pool.withConnection { c async throws(PostgresError) in
                try await c.execute("INSERT INTO read_only_probe VALUES (2)")
                return try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            #expect(next != first, "the read-only session was handed out again")
        }
    }

    /// (Issue 25) A connection the server ended while it sat idle in the pool (a failover, a
    /// restart, `pg_terminate_backend`) is replaced before anything is sent, so the caller's work
    /// runs on a fresh connection and succeeds. Before, the first caller after the failure got
    /// the dead connection and a 503.
    @Test func aConnectionTheServerEndedWhileIdleIsReplacedBeforeUse() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, pool in
            let first = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            let admin = PostgresConnectionPool(
                configuration: .init(conninfo: database.conninfo, maximumConnections: 1, acquireTimeout: .seconds(30)))
            defer { admin.close() }
            try await admin.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT pg_terminate_backend(\(first))")
                // Until the backend is gone, its FATAL and the end of the stream are on the socket.
                for _ in 0..<3000 {
                    let alive = try await c.query(
                        "SELECT count(*)::int8 AS n FROM pg_stat_activity WHERE pid = \(first)"
                    )
                    .first!.decode(Int.self, column: "n")
                    if alive == 0 { break }
                    try await c.query("SELECT pg_sleep(0.01)")
                }
            }
            let next = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            #expect(next != first)
        }
    }

    /// (Issue 25) A command during which the server sent a WARNING fails as "outcome unknown"
    /// (unavailable: 503) and its session is not reused. That is what a COMMIT waiting for the
    /// synchronous standby reports when its wait is cancelled: success, with `WARNING: canceling
    /// wait for synchronous replication`, for a commit a failover may lose. Here a deferred
    /// trigger warns at COMMIT time, which reaches the client the same way; the row is committed,
    /// which is why the caller must not be told it was.
    @Test func aWarningDuringCommitFailsTheCommitAndDiscardsTheSession() async throws {
        try await withTestDatabase(maximumConnections: 1) { _, pool in
            let first = try await pool.withConnection { c async throws(PostgresError) in
                try await c.execute(
                    """
                    CREATE TABLE warned (n int);
                    CREATE FUNCTION warn_at_commit() RETURNS trigger LANGUAGE plpgsql AS
                      $$ BEGIN RAISE WARNING 'canceling wait for synchronous replication (test)'; RETURN NULL; END $$;
                    CREATE CONSTRAINT TRIGGER warned_at_commit AFTER INSERT ON warned
                      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION warn_at_commit();
                    """)
                return try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            await #expect {
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.transaction { () async throws(PostgresError) in
                        try await c.execute("INSERT INTO warned VALUES (1)")
                    }
                }
            } throws: { error in
                guard let error = error as? PostgresError else { return false }
                return error.isUnavailable && error.diagnostic.contains("synchronous replication (test)")
            }
            let (next, rows) = try await pool.withConnection { c async throws(PostgresError) in
                let pid = try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(
                    Int.self, column: "pid")
                let rows = try await c.query("SELECT count(*)::int8 AS n FROM warned").first!.decode(
                    Int.self, column: "n")
                return (pid, rows)
            }
            #expect(next != first, "the warned session was handed out again")
            #expect(rows == 1, "the commit did happen: only its outcome was unknown to the caller")
        }
    }

    /// Statement errors of the application's own making keep the connection.
    @Test func anOrdinaryStatementErrorKeepsTheConnection() async throws {
        try await withTestDatabase(maximumConnections: 1) { _, pool in
            let first = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            await #expect(throws: PostgresError.self) {
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT * FROM no_such_table")
                }
            }
            let next = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT pg_backend_pid()::int8 AS pid").first!.decode(Int.self, column: "pid")
            }
            #expect(next == first)
        }
    }

    @Test func anUnreachableDatabaseIsReportedAsUnavailable() async throws {
        let pool = PostgresConnectionPool(
            configuration: .init(
                conninfo: "host=/nonexistent-socket-dir port=1 user=nobody dbname=none", maximumConnections: 1))
        defer { pool.close() }
        await #expect {
            try await pool.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.kind == .connection && error.isUnavailable
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

    /// A pool given no loop creates one and shuts it down when closed; a loop given to a pool
    /// belongs to the caller and keeps running.
    @Test func aPoolShutsDownTheLoopItCreatedAndOnlyThatOne() async throws {
        try await withTestDatabase { database, _ in
            let own = PostgresConnectionPool(configuration: .init(conninfo: database.conninfo, maximumConnections: 1))
            _ = try await own.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
            #expect(own.loop.isRunning)
            own.close()
            #expect(!own.loop.isRunning)

            let loop = EventLoop()
            defer { loop.shutdown() }
            let given = PostgresConnectionPool(
                configuration: .init(conninfo: database.conninfo, maximumConnections: 1), loop: loop)
            _ = try await given.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
            given.close()
            #expect(loop.isRunning)
        }
    }

    /// A statement waiting for its result when its loop is shut down fails with a connection error
    /// instead of hanging (whether it was sent before or after the shutdown).
    @Test func aStatementInFlightWhenTheLoopStopsFailsInsteadOfHanging() async throws {
        try await withTestDatabase { database, _ in
            let loop = EventLoop()
            let pool = PostgresConnectionPool(
                configuration: .init(conninfo: database.conninfo, maximumConnections: 1), loop: loop)
            defer { pool.close() }
            let (started, starting) = AsyncStream<Void>.makeStream()
            let sleeper = Task {
                try await pool.withConnection { c async throws(PostgresError) in
                    starting.yield()
                    return try await c.query("SELECT pg_sleep(30)")
                }
            }
            for await _ in started { break }
            loop.shutdown()
            await #expect {
                try await sleeper.value
            } throws: { error in
                (error as? PostgresError)?.kind == .connection
            }
        }
    }

    /// The pool survives a PostgreSQL restart: after it, requests work again without a new pool.
    @Test func thePoolRecoversAfterPostgreSQLRestarts() async throws {
        let cluster = try ThrowawayCluster()
        defer { cluster.destroy() }
        let pool = PostgresConnectionPool(configuration: .init(conninfo: cluster.conninfo, maximumConnections: 3))
        defer { pool.close() }
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
        await #expect {
            try await pool.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
        } throws: { error in
            (error as? PostgresError)?.isUnavailable == true
        }
        try cluster.start()
        // At most one request may meet a dead connection (it is then discarded with all older idle ones).
        var failures = 0
        var value: Int?
        for _ in 0..<3 where value == nil {
            do {
                value = try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT 42 AS answer").first!.decode(Int.self, column: "answer")
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
                        try await c.query("SELECT \(i)::int8 AS i").first!.decode(Int.self, column: "i")
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == 15)
    }
}
