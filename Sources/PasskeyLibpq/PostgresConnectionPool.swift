package import PasskeyEventLoop
internal import Synchronization

/// The server's pool of non-blocking libpq connections, split into one share per event loop
/// (`LoopConnectionPool`): `maximumConnections` is the total (`DATABASE_POOL_SIZE`), divided as
/// evenly as it goes. A caller on one of the loops uses that loop's share, so a request's
/// statements are sent and answered on the thread that read the request; a caller elsewhere (the
/// sweeper, the mail sender, a command, a test) takes the shares in turn and hops to its loop.
/// Each share has its own waiters, timer and limit: `acquireTimeout` and the FIFO line hold per
/// loop (docs/persistence.md, "Threads").
///
/// With fewer connections than loops, only the first loops get a share; requests on the others
/// hop to a share's loop for their statements (a configuration to avoid, not an error).
package final class PostgresConnectionPool: Sendable {
    package struct Configuration: Sendable {
        package var conninfo: String
        /// The total over every loop's share.
        package var maximumConnections: Int
        package var acquireTimeout: Duration
        /// False behind a transaction-pooling PgBouncer (see `PostgresConnection.init`).
        package var preparedStatements: Bool
        /// Called on the thread that sends each statement, just before it is sent (tests observe
        /// which loop a request's statements run on); nil in the server.
        package var statementObserver: (@Sendable () -> Void)?
        /// Told the cause when a ROLLBACK fails (the connection is then discarded): the server
        /// logs it, since the caller's answer follows the error that made it roll back.
        package var rollbackFailureObserver: (@Sendable (PostgresError) -> Void)?

        package init(
            conninfo: String, maximumConnections: Int, acquireTimeout: Duration = .seconds(5),
            preparedStatements: Bool = true, statementObserver: (@Sendable () -> Void)? = nil,
            rollbackFailureObserver: (@Sendable (PostgresError) -> Void)? = nil
        ) {
            self.statementObserver = statementObserver
            self.rollbackFailureObserver = rollbackFailureObserver
            self.conninfo = conninfo
            self.maximumConnections = max(1, maximumConnections)
            self.acquireTimeout = acquireTimeout
            self.preparedStatements = preparedStatements
        }
    }

    package let configuration: Configuration
    private let shares: [LoopConnectionPool]
    /// True when the pool created its loop itself: it then shuts it down in `close()` (or `deinit`).
    private let ownsLoop: Bool
    /// The next share for a caller that is on none of the loops.
    private let nextShare = Atomic<Int>(0)

    /// A pool on `loops` (the caller owns them and shuts them down after closing the pool).
    package init(
        configuration: Configuration, loops: [EventLoop],
        clock: any ConnectionPoolClock = DispatchConnectionPoolClock()
    ) {
        precondition(!loops.isEmpty, "a pool needs a loop")
        self.configuration = configuration
        ownsLoop = false
        shares = Self.shares(of: configuration, over: loops, clock: clock)
    }

    /// A pool on `loop`, or, when none is given, on a loop of its own that `close()` shuts down.
    /// A caller that passes a loop owns it: it shuts it down after closing the pool.
    package init(
        configuration: Configuration, loop: EventLoop? = nil,
        clock: any ConnectionPoolClock = DispatchConnectionPoolClock()
    ) {
        self.configuration = configuration
        ownsLoop = loop == nil
        shares = Self.shares(of: configuration, over: [loop ?? EventLoop()], clock: clock)
    }

    deinit {
        if ownsLoop { shares[0].loop.shutdown() }
    }

    /// `maximumConnections` split over the loops: the first `total % loops` get one more.
    private static func shares(
        of configuration: Configuration, over loops: [EventLoop], clock: any ConnectionPoolClock
    ) -> [LoopConnectionPool] {
        let total = configuration.maximumConnections
        let count = min(loops.count, total)
        return (0..<count).map { position in
            var share = configuration
            share.maximumConnections = total / count + (position < total % count ? 1 : 0)
            return LoopConnectionPool(configuration: share, loop: loops[position], clock: clock)
        }
    }

    /// The loop of the first share (the only one for a pool on one loop).
    package var loop: EventLoop { shares[0].loop }

    /// The loops with a share, in order.
    package var loops: [EventLoop] { shares.map(\.loop) }

    /// How many connections each loop's share may open, in the order of `loops`.
    package var shareSizes: [Int] { shares.map(\.configuration.maximumConnections) }

    /// Runs `body` with a connection, on the caller's loop when it has a share, else on the next.
    package func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        try await share().withConnection(body)
    }

    /// Runs `body` in one transaction on one connection.
    package func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        try await withConnection { connection async throws(PostgresError) in
            try await connection.transaction { () async throws(PostgresError) -> T in try await body(connection) }
        }
    }

    /// Closes idle connections and refuses new work; waiting callers get `.poolClosed`. A pool
    /// that created its own loop then shuts it down (joining its thread), so close it after the
    /// work on it has finished.
    package func close() {
        for share in shares { share.close() }
        if ownsLoop { shares[0].loop.shutdown() }
    }

    /// How many callers wait for a connection now (over every share).
    package var waitingCallers: Int { shares.reduce(0) { $0 + $1.waitingCallers } }

    /// The share of the loop running the caller, or the next one in turn.
    private func share() -> LoopConnectionPool {
        if shares.count == 1 { return shares[0] }
        if let current = EventLoop.current {
            for share in shares where share.loop === current { return share }
        }
        return shares[nextShare.add(1, ordering: .relaxed).oldValue % shares.count]
    }
}
