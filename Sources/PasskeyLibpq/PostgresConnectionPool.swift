internal import Dispatch
internal import Foundation
internal import Synchronization

/// A bounded pool of libpq connections. Each connection lives on its own serial
/// dispatch queue, so blocking libpq calls never run on Swift's cooperative threads (libdispatch
/// runs serial queues on overcommitting workers, apart from the width-limited threads of Swift's
/// executor); `maximumConnections` bounds how many block at once.
/// When every connection is busy, callers wait (FIFO) up to `acquireTimeout`.
/// A connection found broken is discarded together with every idle connection opened
/// before it (after a server restart they are all dead), and replaced on demand.
package final class PostgresConnectionPool: Sendable {
    package struct Configuration: Sendable {
        package var conninfo: String
        package var maximumConnections: Int
        package var acquireTimeout: Duration
        /// False behind a transaction-pooling PgBouncer (see `PostgresConnection.init`).
        package var preparedStatements: Bool

        package init(
            conninfo: String, maximumConnections: Int, acquireTimeout: Duration = .seconds(5),
            preparedStatements: Bool = true
        ) {
            self.conninfo = conninfo
            self.maximumConnections = max(1, maximumConnections)
            self.acquireTimeout = acquireTimeout
            self.preparedStatements = preparedStatements
        }
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<PooledConnection, any Error>
        /// Fails the waiter after `acquireTimeout`; cancelled when the waiter is served.
        let timeout: DispatchWorkItem
    }

    private struct State {
        var idle: [PooledConnection] = []
        var open = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        /// Bumped when a broken connection is seen; idle connections of older generations are closed.
        var generation: UInt64 = 0
        var closed = false
    }

    package let configuration: Configuration
    private let state = Mutex(State())

    package init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs `body` with a connection, on that connection's own thread.
    package func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        let pooled = try await acquire()
        let outcome: Result<T, PostgresError> = await withCheckedContinuation { continuation in
            pooled.queue.async {
                continuation.resume(returning: Result { () throws(PostgresError) -> T in try body(pooled.connection) })
            }
        }
        release(pooled)
        return try outcome.get()
    }

    /// Runs `body` in one transaction on one connection.
    package func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        try await withConnection { connection throws(PostgresError) in
            try connection.transaction { () throws(PostgresError) -> T in try body(connection) }
        }
    }

    /// Closes idle connections and refuses new work; waiting callers get `.poolClosed`.
    package func close() {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            let taken = (state.idle, state.waiters)
            state.open -= state.idle.count
            state.idle = []
            state.waiters = []
            return taken
        }
        _ = idle  // Released here; each PostgresConnection closes itself in deinit.
        for waiter in waiters {
            waiter.timeout.cancel()
            waiter.continuation.resume(throwing: PostgresError(kind: .poolClosed, diagnostic: "pool closed"))
        }
    }

    // MARK: - Acquire and release

    private enum Plan {
        case use(PooledConnection)
        case open(generation: UInt64)
        case wait(timeout: DispatchWorkItem)
        case refuse
    }

    /// Decides under one lock whether to use an idle connection, open one, or wait, and
    /// registers the waiter in the same critical section, so a release can never slip in
    /// between the decision and the registration (no lost wake-up).
    private func acquire() async throws(PostgresError) -> PooledConnection {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                var stale: [PooledConnection] = []
                let plan: Plan = state.withLock { state in
                    if state.closed { return .refuse }
                    while let candidate = state.idle.popLast() {
                        if candidate.generation >= state.generation { return .use(candidate) }
                        stale.append(candidate)
                        state.open -= 1
                    }
                    if state.open < configuration.maximumConnections {
                        state.open += 1
                        return .open(generation: state.generation)
                    }
                    state.nextWaiterID += 1
                    let timeout = timeoutItem(for: state.nextWaiterID)
                    state.waiters.append(Waiter(id: state.nextWaiterID, continuation: continuation, timeout: timeout))
                    return .wait(timeout: timeout)
                }
                stale.removeAll()  // Closed outside the lock (deinit calls PQfinish).
                switch plan {
                case .use(let pooled):
                    continuation.resume(returning: pooled)
                case .open(let generation):
                    open(generation: generation, for: continuation)
                case .wait(let timeout):
                    let (seconds, attoseconds) = configuration.acquireTimeout.components
                    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: timeout)
                case .refuse:
                    continuation.resume(throwing: PostgresError(kind: .poolClosed, diagnostic: "pool closed"))
                }
            }
        } catch let error as PostgresError {
            throw error
        } catch {
            throw PostgresError(kind: .poolTimeout, diagnostic: "\(error)")
        }
    }

    /// Connects on the new connection's own queue and hands the connection to `continuation`.
    private func open(generation: UInt64, for continuation: CheckedContinuation<PooledConnection, any Error>) {
        let conninfo = configuration.conninfo
        let preparedStatements = configuration.preparedStatements
        let queue = DispatchQueue(label: "passkey.postgres.connection")
        queue.async { [self] in
            do {
                let connection = try PostgresConnection(conninfo: conninfo, preparedStatements: preparedStatements)
                continuation.resume(
                    returning: PooledConnection(connection: connection, queue: queue, generation: generation))
            } catch {
                state.withLock { $0.open -= 1 }
                continuation.resume(throwing: error)
            }
        }
    }

    /// The work that fails waiter `id` with `poolTimeout` if it is still waiting when it runs.
    /// Cancelled as soon as the waiter is served, so served waiters leave no timer behind.
    private func timeoutItem(for id: UInt64) -> DispatchWorkItem {
        let timeout = configuration.acquireTimeout
        return DispatchWorkItem { [weak self] in
            guard let self else { return }
            let expired: Waiter? = self.state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            expired?.continuation.resume(
                throwing: PostgresError(kind: .poolTimeout, diagnostic: "no connection free within \(timeout)"))
        }
    }

    private func release(_ pooled: PooledConnection) {
        let healthy = pooled.connection.isHealthy
        enum Next {
            case handOver(Waiter, PooledConnection)
            case openFor(Waiter, generation: UInt64)
            case done
        }
        let next: Next = state.withLock { state in
            if !healthy {
                state.open -= 1
                state.generation = max(state.generation, pooled.generation + 1)
                if !state.closed, !state.waiters.isEmpty, state.open < configuration.maximumConnections {
                    state.open += 1
                    return .openFor(state.waiters.removeFirst(), generation: state.generation)
                }
                return .done
            }
            if state.closed {
                state.open -= 1
                return .done
            }
            if !state.waiters.isEmpty {
                return .handOver(state.waiters.removeFirst(), pooled)
            }
            state.idle.append(pooled)
            return .done
        }
        switch next {
        case .handOver(let waiter, let connection):
            waiter.timeout.cancel()
            waiter.continuation.resume(returning: connection)
        case .openFor(let waiter, let generation):
            waiter.timeout.cancel()
            open(generation: generation, for: waiter.continuation)
        case .done:
            break
        }
    }
}

/// A connection with the queue it is confined to.
/// `@unchecked Sendable`: the libpq handle inside is only ever used on `queue`, one job at a time,
/// and only by the task that acquired it from the pool.
private final class PooledConnection: @unchecked Sendable {
    let connection: PostgresConnection
    let queue: DispatchQueue
    let generation: UInt64

    init(connection: PostgresConnection, queue: DispatchQueue, generation: UInt64) {
        self.connection = connection
        self.queue = queue
        self.generation = generation
    }
}
