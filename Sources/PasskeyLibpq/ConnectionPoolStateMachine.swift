/// The decisions of `PostgresConnectionPool` as a plain value, without libpq, dispatch, timers or
/// continuations, so that every one of them can be tested with stand-ins (as PostgresNIO tests
/// its pool's state machine): which idle connection to use, when to open one, who waits, who is
/// served when a connection comes back, what a broken connection discards, and what closing
/// refuses. The pool keeps it under its lock and carries out the returned actions outside it.
///
/// `openConnections` counts connections open or being opened, idle or in use; it never exceeds
/// `maximumConnections`. A connection carries the generation it was opened in: a broken one
/// bumps the generation past its own, and idle connections of an older generation are then
/// discarded when met (after a server restart they are all dead).
package struct ConnectionPoolStateMachine<Connection, Waiter> {
    /// Identifies a waiting caller, for its cancellation; assigned in order from 1.
    package typealias WaiterID = UInt64

    /// What a caller asking for a connection does.
    package enum AcquireAction {
        /// Use this idle connection (the one that came back last).
        case use(Connection)
        /// Open a new connection, of this generation (already counted as open).
        case open(generation: UInt64)
        /// Every connection is busy: wait, in FIFO order, under this ID.
        case wait(WaiterID)
        /// The pool is closed.
        case refuse
    }

    /// `acquire`'s decision, with the stale idle connections it took out of the pool on the way.
    package struct AcquireDecision {
        package var action: AcquireAction
        /// Idle connections of an older generation, to close (outside the lock).
        package var discarded: [Connection]

        package init(action: AcquireAction, discarded: [Connection]) {
            self.action = action
            self.discarded = discarded
        }
    }

    /// What happens to a connection that comes back.
    package enum ReleaseAction {
        /// It waits, idle, for the next caller.
        case keep
        /// It goes straight to the first waiter.
        case handOver(Waiter, Connection)
        /// It is closed: it is broken (and nobody waits), or the pool is closed.
        case close(Connection)
        /// It is broken and closed; a replacement of `generation` is opened for the first waiter.
        case openFor(Waiter, generation: UInt64, closing: Connection)
    }

    /// What closing the pool leaves to do.
    package struct Shutdown {
        /// The idle connections, to close.
        package var closing: [Connection]
        /// Every waiting caller, to fail.
        package var failing: [Waiter]

        package init(closing: [Connection], failing: [Waiter]) {
            self.closing = closing
            self.failing = failing
        }
    }

    package let maximumConnections: Int
    package private(set) var openConnections = 0
    package private(set) var generation: UInt64 = 0
    package private(set) var isClosed = false
    /// The idle connections, the one that came back last at the end.
    private var idle: [(connection: Connection, generation: UInt64)] = []
    /// The waiting callers, first come first.
    private var waiters: [(id: WaiterID, waiter: Waiter)] = []
    private var lastWaiterID: WaiterID = 0

    package init(maximumConnections: Int) {
        self.maximumConnections = maximumConnections
    }

    /// How many connections are idle.
    package var idleConnections: Int { idle.count }

    /// The IDs of the waiting callers, first come first.
    package var waiting: [WaiterID] { waiters.map(\.id) }

    /// A caller wants a connection: the last idle one of the current generation, else a new
    /// one while fewer than the maximum are open, else it waits (`makeWaiter` is called, with
    /// the waiter's ID, only then). A closed pool refuses.
    package mutating func acquire(waiter makeWaiter: (WaiterID) -> Waiter) -> AcquireDecision {
        if isClosed { return AcquireDecision(action: .refuse, discarded: []) }
        var discarded: [Connection] = []
        while let candidate = idle.popLast() {
            if candidate.generation >= generation {
                return AcquireDecision(action: .use(candidate.connection), discarded: discarded)
            }
            discarded.append(candidate.connection)
            openConnections -= 1
        }
        if openConnections < maximumConnections {
            openConnections += 1
            return AcquireDecision(action: .open(generation: generation), discarded: discarded)
        }
        lastWaiterID += 1
        waiters.append((lastWaiterID, makeWaiter(lastWaiterID)))
        return AcquireDecision(action: .wait(lastWaiterID), discarded: discarded)
    }

    /// Opening a connection (`.open` or `.openFor`) failed: it no longer counts.
    package mutating func openFailed() {
        openConnections -= 1
    }

    /// The waiter first in line (waiting longest), if any.
    package var firstWaiter: Waiter? { waiters.first?.waiter }

    /// Removes and returns the waiters at the head of the line for which `expired` holds,
    /// stopping at the first that has not: every waiter gets the same time, so the line is
    /// also the order of the deadlines, and one timer for the head serves them all.
    package mutating func timeOutExpired(_ expired: (Waiter) -> Bool) -> [Waiter] {
        let count = waiters.prefix { expired($0.waiter) }.count
        defer { waiters.removeFirst(count) }
        return waiters.prefix(count).map(\.waiter)
    }

    /// The caller waiting under `id` was cancelled: it leaves the line, and its waiter is returned
    /// to be failed. Nil when it no longer waits (served or timed out first): nothing to do.
    package mutating func cancel(_ id: WaiterID) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).waiter
    }

    /// A connection of `connectionGeneration` comes back, `healthy` or broken.
    package mutating func release(_ connection: Connection, generation connectionGeneration: UInt64, healthy: Bool)
        -> ReleaseAction
    {
        if !healthy {
            openConnections -= 1
            generation = max(generation, connectionGeneration + 1)
            if !isClosed, !waiters.isEmpty, openConnections < maximumConnections {
                openConnections += 1
                return .openFor(waiters.removeFirst().waiter, generation: generation, closing: connection)
            }
            return .close(connection)
        }
        if isClosed {
            openConnections -= 1
            return .close(connection)
        }
        if !waiters.isEmpty {
            return .handOver(waiters.removeFirst().waiter, connection)
        }
        idle.append((connection, connectionGeneration))
        return .keep
    }

    /// Refuses new work from now on; the idle connections are to be closed and the waiters
    /// failed. Connections in use are closed as they come back.
    package mutating func close() -> Shutdown {
        isClosed = true
        let shutdown = Shutdown(closing: idle.map(\.connection), failing: waiters.map(\.waiter))
        openConnections -= idle.count
        idle = []
        waiters = []
        return shutdown
    }
}

extension ConnectionPoolStateMachine.AcquireAction: Equatable where Connection: Equatable {}
extension ConnectionPoolStateMachine.AcquireDecision: Equatable where Connection: Equatable {}
extension ConnectionPoolStateMachine.ReleaseAction: Equatable where Connection: Equatable, Waiter: Equatable {}
extension ConnectionPoolStateMachine.Shutdown: Equatable where Connection: Equatable, Waiter: Equatable {}
