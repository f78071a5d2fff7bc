import Glibc
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// Callers waiting for the only connection of a pool, on a clock the test advances (no real
/// sleeps): they time out after their own full wait, and leave the line when cancelled. The only
/// connection is held until the test lets it go, so no timing of the machine serves a waiter by
/// accident. (The time limit only stops a test whose waiter never leaves the line; it is generous
/// because a throwaway database can take long to create on a machine whose cores are all busy.)
@Suite(.timeLimit(.minutes(5))) struct ConnectionPoolWaitingTests {
    /// Holds the pool's only connection until `letGo` is called.
    private struct Holder {
        let task: Task<Void, any Error>
        let letGo: @Sendable () -> Void

        static func start(on pool: PostgresConnectionPool) async -> Holder {
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (release, letGo) = AsyncStream<Void>.makeStream()
            let task = Task {
                try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT 1")
                    holding.yield()
                    for await _ in release {}
                }
            }
            for await _ in held { break }
            return Holder(task: task, letGo: { letGo.finish() })
        }
    }

    /// A caller on `pool`; its result is `nil` when it was served, else its error's kind.
    private static func caller(_ pool: PostgresConnectionPool) -> Task<PostgresError.Kind?, Never> {
        Task {
            do throws(PostgresError) {
                _ = try await pool.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
                return nil
            } catch {
                return error.kind
            }
        }
    }

    /// Waits until `count` callers are in the pool's line: yielding at first, then polling every
    /// millisecond, so a busy machine is not kept busier by the spin. (No timeout depends on it:
    /// the pool's clock only moves when the test advances it.)
    private static func line(of pool: PostgresConnectionPool, reaches count: Int) async {
        var turns = 0
        while pool.waitingCallers != count {
            turns += 1
            if turns < 1000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }

    private static func pool(
        _ database: TestDatabase, timeout: Duration, clock: ManualConnectionPoolClock
    ) -> PostgresConnectionPool {
        PostgresConnectionPool(
            configuration: .init(conninfo: database.conninfo, maximumConnections: 1, acquireTimeout: timeout),
            clock: clock)
    }

    @Test func aBusyPoolMakesCallersWaitThenTimesOut() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, _ in
            let clock = ManualConnectionPoolClock()
            let pool = Self.pool(database, timeout: .milliseconds(200), clock: clock)
            defer { pool.close() }
            let holder = await Holder.start(on: pool)
            let waiter = Self.caller(pool)
            await Self.line(of: pool, reaches: 1)
            clock.advance(by: .milliseconds(199))
            #expect(pool.waitingCallers == 1, "timed out before its 200 ms")
            clock.advance(by: .milliseconds(1))
            #expect(await waiter.value == .poolTimeout)
            #expect(clock.pendingTimers == 0)
            holder.letGo()
            try await holder.task.value
            // Free again: the next caller gets the connection.
            #expect(await Self.caller(pool).value == nil)
        }
    }

    /// One timer serves the whole line: waiters that arrive at different times each get their
    /// own full wait (not the first one's deadline), and a waiter that comes after the line
    /// emptied still times out (the timer is armed again).
    @Test func everyWaiterTimesOutAfterItsOwnWait() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, _ in
            let clock = ManualConnectionPoolClock()
            let pool = Self.pool(database, timeout: .milliseconds(300), clock: clock)
            defer { pool.close() }
            let holder = await Holder.start(on: pool)
            // The holder's connect deadline (it connected in time, so that timer does nothing).
            let timersBefore = clock.pendingTimers
            let first = Self.caller(pool)
            await Self.line(of: pool, reaches: 1)
            clock.advance(by: .milliseconds(150))
            let second = Self.caller(pool)
            await Self.line(of: pool, reaches: 2)
            #expect(clock.pendingTimers == timersBefore + 1, "one timer for the line")
            clock.advance(by: .milliseconds(149))
            #expect(pool.waitingCallers == 2)
            clock.advance(by: .milliseconds(1))
            #expect(await first.value == .poolTimeout)
            #expect(pool.waitingCallers == 1)
            clock.advance(by: .milliseconds(149))
            #expect(pool.waitingCallers == 1, "the second waiter timed out on the first one's deadline")
            clock.advance(by: .milliseconds(1))
            #expect(await second.value == .poolTimeout)
            // The line is empty; a new waiter arms the timer again.
            let late = Self.caller(pool)
            await Self.line(of: pool, reaches: 1)
            clock.advance(by: .milliseconds(299))
            #expect(pool.waitingCallers == 1)
            clock.advance(by: .milliseconds(1))
            #expect(await late.value == .poolTimeout)
            holder.letGo()
            try await holder.task.value
        }
    }

    /// A waiter whose task is cancelled leaves the line at once with `.cancelled` (no timeout
    /// needed), and the connection, when it comes back, goes to the next waiter, not to it.
    @Test func aCancelledWaiterLeavesTheLineAndTheNextOneIsServed() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, _ in
            let clock = ManualConnectionPoolClock()
            let pool = Self.pool(database, timeout: .seconds(60), clock: clock)
            defer { pool.close() }
            let holder = await Holder.start(on: pool)
            let cancelled = Self.caller(pool)
            await Self.line(of: pool, reaches: 1)
            let next = Self.caller(pool)
            await Self.line(of: pool, reaches: 2)
            cancelled.cancel()
            #expect(await cancelled.value == .cancelled)
            #expect(pool.waitingCallers == 1)
            holder.letGo()
            try await holder.task.value
            #expect(await next.value == nil)
            #expect(pool.waitingCallers == 0)
        }
    }

    /// A task already cancelled when it would have to wait does not join the line.
    @Test func aTaskCancelledBeforeItWaitsDoesNotWait() async throws {
        try await withTestDatabase(maximumConnections: 1) { database, _ in
            let clock = ManualConnectionPoolClock()
            let pool = Self.pool(database, timeout: .seconds(60), clock: clock)
            defer { pool.close() }
            let holder = await Holder.start(on: pool)
            let (go, start) = AsyncStream<Void>.makeStream()
            let caller = Task {
                for await _ in go { break }  // Cancelled before it asks for a connection.
                do throws(PostgresError) {
                    _ = try await pool.withConnection { c async throws(PostgresError) in try await c.query("SELECT 1") }
                    return nil as PostgresError.Kind?
                } catch {
                    return error.kind
                }
            }
            caller.cancel()
            start.finish()
            #expect(await caller.value == .cancelled)
            #expect(pool.waitingCallers == 0)
            holder.letGo()
            try await holder.task.value
        }
    }

    /// (Issue 25) A host that accepts the TCP connection and then says nothing (what a stopped
    /// VM, a hung node or a half-open balancer looks like) holds libpq's connect until its own
    /// `connect_timeout`, 30 s here. The caller gets `.poolTimeout` at its pool deadline instead,
    /// on the clock the test advances; the connect ends when the host goes away.
    @Test func aConnectToASilentHostEndsAtTheCallersDeadline() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(bound == 0)
        #expect(listen(listener, 16) == 0)  // Never accepted: the kernel completes the handshake, nobody answers.
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let clock = ManualConnectionPoolClock()
        let pool = PostgresConnectionPool(
            configuration: .init(
                conninfo: "host=127.0.0.1 port=\(port) user=nobody dbname=nothing connect_timeout=30",
                maximumConnections: 1, acquireTimeout: .milliseconds(500)),
            clock: clock)
        defer { pool.close() }
        let caller = Self.caller(pool)
        // The connect has started once its deadline is armed.
        while clock.pendingTimers == 0 { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: .milliseconds(499))
        try await Task.sleep(for: .milliseconds(50))
        clock.advance(by: .milliseconds(1))
        #expect(await caller.value == .poolTimeout)
        close(listener)  // The connect now fails and no longer counts against the pool.
    }
}
