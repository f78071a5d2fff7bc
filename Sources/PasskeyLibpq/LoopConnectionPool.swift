internal import Dispatch
internal import PasskeyEventLoop
internal import Synchronization

/// One event loop's share of a `PostgresConnectionPool`: a bounded set of non-blocking libpq
/// connections, all driven by `loop`. `withConnection` runs its body on the loop (a task already
/// there stays there), where each statement is sent and its result awaited without blocking any
/// thread. Connecting blocks, so it happens on a dispatch thread. When every connection is busy,
/// callers wait (FIFO) up to `acquireTimeout`, measured on the injected `ConnectionPoolClock`; a
/// waiter whose task is cancelled leaves the line at once and throws `.cancelled`.
/// A connection found broken is discarded together with every idle connection opened
/// before it (after a server restart they are all dead), and replaced on demand.
/// Every one of these decisions is `ConnectionPoolStateMachine`'s; this class holds it under a
/// lock and carries its actions out (connecting, continuations, the timer, closing connections).
/// Its waiters, its timer and its limit are its own: loops never wait for each other.
final class LoopConnectionPool: Sendable {
    /// A caller waiting for a connection.
    private struct Waiter {
        let continuation: CheckedContinuation<PooledConnection, any Error>
        /// The clock's reading after which it gets `poolTimeout`.
        let deadline: Duration
    }

    /// The state machine, and whether a timer for the head of its line is pending: at most one
    /// timer per pool, whatever the number of waiters (a timer per waiter, armed and cancelled
    /// on every wait, cost a fifth of the server's CPU under load).
    private struct State {
        var machine: ConnectionPoolStateMachine<PooledConnection, Waiter>
        var timerPending = false
    }

    /// This share's configuration (`maximumConnections` is the share, not the pool's total).
    let configuration: PostgresConnectionPool.Configuration
    /// The loop every connection of this share is driven by; request tasks that run on it reach
    /// the database without a thread hand-off.
    let loop: EventLoop
    private let clock: any ConnectionPoolClock
    /// Every decision is the state machine's, taken under this lock; the pool carries it out.
    private let state: Mutex<State>

    init(configuration: PostgresConnectionPool.Configuration, loop: EventLoop, clock: any ConnectionPoolClock) {
        self.configuration = configuration
        self.loop = loop
        self.clock = clock
        state = Mutex(State(machine: ConnectionPoolStateMachine(maximumConnections: configuration.maximumConnections)))
    }

    /// Runs `body` with a connection, on the event loop.
    func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        try await withTaskExecutorPreference(loop) { () async throws(PostgresError) -> T in
            var pooled = try await acquire()
            // A connection the server closed while it was idle is replaced before anything is
            // sent: the work runs once, on a fresh connection (the dead one and its older
            // siblings are discarded, as after any broken connection).
            if !pooled.isFresh, !pooled.connection.isAliveBeforeUse() {
                release(pooled)
                pooled = try await acquire()
            }
            pooled.isFresh = false
            let outcome: Result<T, PostgresError>
            do throws(PostgresError) {
                outcome = .success(try await body(pooled.connection))
            } catch {
                outcome = .failure(error)
            }
            release(pooled)
            return try outcome.get()
        }
    }

    /// Closes idle connections and refuses new work; waiting callers get `.poolClosed`.
    func close() {
        var shutdown = state.withLock { $0.machine.close() }
        shutdown.closing.removeAll()  // Closed outside the lock (deinit calls PQfinish).
        for waiter in shutdown.failing {
            waiter.continuation.resume(throwing: PostgresError(kind: .poolClosed, diagnostic: "pool closed"))
        }
    }

    /// How many callers wait for a connection now.
    var waitingCallers: Int { state.withLock { $0.machine.waiting.count } }

    // MARK: - Acquire and release

    /// Where a caller's wait stands, for its cancellation handler. Read and written only under
    /// the pool's lock (hence `@unchecked Sendable`).
    private final class Ticket: @unchecked Sendable {
        var id: ConnectionPoolStateMachine<PooledConnection, Waiter>.WaiterID?
    }

    /// Decides under one lock whether to use an idle connection, open one, or wait, and
    /// registers the waiter in the same critical section, so a release can never slip in
    /// between the decision and the registration (no lost wake-up). A waiter's cancellation
    /// takes the same lock: either it finds the waiter in the line and fails it, or it came
    /// first and the caller, finding its task cancelled, does not stay in the line.
    private func acquire() async throws(PostgresError) -> PooledConnection {
        let ticket = Ticket()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    var (decision, armTimer, cancelled) = state.withLock { state in
                        // The clock is read only for a caller that has to wait.
                        var deadline: Duration = .zero
                        let decision = state.machine.acquire { id in
                            ticket.id = id
                            deadline = clock.now + configuration.acquireTimeout
                            return Waiter(continuation: continuation, deadline: deadline)
                        }
                        guard case .wait(let id) = decision.action else { return (decision, nil as Duration?, false) }
                        if Task.isCancelled, state.machine.cancel(id) != nil { return (decision, nil, true) }
                        guard !state.timerPending else { return (decision, nil, false) }
                        state.timerPending = true
                        return (decision, deadline, false)
                    }
                    decision.discarded.removeAll()  // Closed outside the lock (deinit calls PQfinish).
                    switch decision.action {
                    case .use(let pooled):
                        continuation.resume(returning: pooled)
                    case .open(let generation):
                        open(generation: generation, for: continuation)
                    case .wait:
                        if cancelled { continuation.resume(throwing: Self.cancelled) }
                        if let armTimer { scheduleTimeouts(at: armTimer) }
                    case .refuse:
                        continuation.resume(throwing: PostgresError(kind: .poolClosed, diagnostic: "pool closed"))
                    }
                }
            } onCancel: {
                let waiter = state.withLock { state in ticket.id.flatMap { state.machine.cancel($0) } }
                waiter?.continuation.resume(throwing: Self.cancelled)
            }
        } catch let error as PostgresError {
            throw error
        } catch {
            throw PostgresError(kind: .poolTimeout, diagnostic: "\(error)")
        }
    }

    private static var cancelled: PostgresError {
        PostgresError(kind: .cancelled, diagnostic: "the task was cancelled while waiting for a connection")
    }

    /// The caller a connection is being opened for, until it is served or gives up: the connect
    /// and the connect deadline race for it, and whichever takes it first answers.
    private final class OpeningFor: Sendable {
        private let caller: Mutex<CheckedContinuation<PooledConnection, any Error>?>

        init(_ continuation: CheckedContinuation<PooledConnection, any Error>) { caller = Mutex(continuation) }

        func take() -> CheckedContinuation<PooledConnection, any Error>? { caller.withLock { $0.take() } }
    }

    /// Connects (blocking) on a dispatch thread, off the loop, and hands the connection to
    /// `continuation`. The caller waits at most `acquireTimeout` for it, whatever libpq does
    /// (`connect_timeout` counts per host and per attempt, and a host that accepts and then says
    /// nothing holds the connect until it): at the deadline it gets `.poolTimeout`, and a
    /// connection that opens later is put in the pool for the next caller, as if released.
    private func open(generation: UInt64, for continuation: CheckedContinuation<PooledConnection, any Error>) {
        let conninfo = configuration.conninfo
        let preparedStatements = configuration.preparedStatements
        let observer = configuration.statementObserver
        let rollbackObserver = configuration.rollbackFailureObserver
        let timeout = configuration.acquireTimeout
        let loop = loop
        let opening = OpeningFor(continuation)
        clock.schedule(at: clock.now + timeout) {
            opening.take()?.resume(
                throwing: PostgresError(kind: .poolTimeout, diagnostic: "connecting took longer than \(timeout)"))
        }
        DispatchQueue.global().async { [self] in
            do {
                let connection = try PostgresConnection(
                    conninfo: conninfo, preparedStatements: preparedStatements, loop: loop,
                    statementObserver: observer, rollbackFailureObserver: rollbackObserver)
                let pooled = PooledConnection(connection: connection, generation: generation)
                if let caller = opening.take() {
                    caller.resume(returning: pooled)
                } else {
                    release(pooled)
                }
            } catch {
                state.withLock { $0.machine.openFailed() }
                opening.take()?.resume(throwing: error)
            }
        }
    }

    /// At `deadline` (the head waiter's), fails every waiter whose deadline passed, then waits
    /// for the new head's deadline if someone is still waiting. Served or cancelled waiters
    /// leave nothing to cancel: they are simply no longer in the line when the timer fires.
    private func scheduleTimeouts(at deadline: Duration) {
        clock.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            let now = self.clock.now
            let (expired, next) = self.state.withLock { state -> ([Waiter], Duration?) in
                let expired = state.machine.timeOutExpired { $0.deadline <= now }
                let next = state.machine.firstWaiter?.deadline
                state.timerPending = next != nil
                return (expired, next)
            }
            let timeout = self.configuration.acquireTimeout
            for waiter in expired {
                waiter.continuation.resume(
                    throwing: PostgresError(kind: .poolTimeout, diagnostic: "no connection free within \(timeout)"))
            }
            if let next { self.scheduleTimeouts(at: next) }
        }
    }

    private func release(_ pooled: PooledConnection) {
        let healthy = pooled.connection.isHealthy
        let action = state.withLock { $0.machine.release(pooled, generation: pooled.generation, healthy: healthy) }
        switch action {
        case .keep:
            break
        case .handOver(let waiter, let connection):
            waiter.continuation.resume(returning: connection)
        case .openFor(let waiter, let generation, closing: _):
            open(generation: generation, for: waiter.continuation)
        case .close:
            break  // Released when the caller lets go of it; it closes itself in deinit.
        }
    }
}

/// A pooled connection and the generation it was opened in.
/// `@unchecked Sendable`: the libpq handle inside is used only by the task that acquired it
/// from the pool, one statement at a time, until it gives it back.
private final class PooledConnection: @unchecked Sendable {
    let connection: PostgresConnection
    let generation: UInt64
    /// Opened for this lease and not used yet: no need to look at its socket first.
    var isFresh = true

    init(connection: PostgresConnection, generation: UInt64) {
        self.connection = connection
        self.generation = generation
    }
}
