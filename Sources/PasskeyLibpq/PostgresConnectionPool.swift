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
/// Every one of these decisions is `ConnectionPoolStateMachine`'s; this class holds it under a
/// lock and carries its actions out (queues, continuations, timers, closing connections).
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

    /// A caller waiting for a connection.
    private struct Waiter {
        let continuation: CheckedContinuation<PooledConnection, any Error>
        /// Fails the waiter after `acquireTimeout`; cancelled when the waiter is served.
        let timeout: DispatchWorkItem
    }

    package let configuration: Configuration
    /// Every decision is the state machine's, taken under this lock; the pool carries it out.
    private let state: Mutex<ConnectionPoolStateMachine<PooledConnection, Waiter>>

    package init(configuration: Configuration) {
        self.configuration = configuration
        state = Mutex(ConnectionPoolStateMachine(maximumConnections: configuration.maximumConnections))
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
        var shutdown = state.withLock { $0.close() }
        shutdown.closing.removeAll()  // Closed outside the lock (deinit calls PQfinish).
        for waiter in shutdown.failing {
            waiter.timeout.cancel()
            waiter.continuation.resume(throwing: PostgresError(kind: .poolClosed, diagnostic: "pool closed"))
        }
    }

    // MARK: - Acquire and release

    /// Decides under one lock whether to use an idle connection, open one, or wait, and
    /// registers the waiter in the same critical section, so a release can never slip in
    /// between the decision and the registration (no lost wake-up).
    private func acquire() async throws(PostgresError) -> PooledConnection {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                var (decision, timeout) = state.withLock { machine in
                    var timeout: DispatchWorkItem?
                    let decision = machine.acquire { id in
                        let item = timeoutItem(for: id)
                        timeout = item
                        return Waiter(continuation: continuation, timeout: item)
                    }
                    return (decision, timeout)
                }
                decision.discarded.removeAll()  // Closed outside the lock (deinit calls PQfinish).
                switch decision.action {
                case .use(let pooled):
                    continuation.resume(returning: pooled)
                case .open(let generation):
                    open(generation: generation, for: continuation)
                case .wait:
                    guard let timeout else { preconditionFailure("a waiter without its timeout") }
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
                state.withLock { $0.openFailed() }
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
            let expired = self.state.withLock { $0.timeOut(id) }
            expired?.continuation.resume(
                throwing: PostgresError(kind: .poolTimeout, diagnostic: "no connection free within \(timeout)"))
        }
    }

    private func release(_ pooled: PooledConnection) {
        let healthy = pooled.connection.isHealthy
        let action = state.withLock { $0.release(pooled, generation: pooled.generation, healthy: healthy) }
        switch action {
        case .keep:
            break
        case .handOver(let waiter, let connection):
            waiter.timeout.cancel()
            waiter.continuation.resume(returning: connection)
        case .openFor(let waiter, let generation, closing: _):
            waiter.timeout.cancel()
            open(generation: generation, for: waiter.continuation)
        case .close:
            break  // Released when the caller lets go of it; it closes itself in deinit.
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
