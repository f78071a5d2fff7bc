import PasskeyLibpq
import Synchronization

/// A pool clock that moves only when the test advances it: timers whose deadline is reached run
/// inside `advance(by:)`, in deadline order, so timeout tests need no real sleeps.
final class ManualConnectionPoolClock: ConnectionPoolClock {
    private struct State {
        var now: Duration = .seconds(1_000)
        var timers: [(deadline: Duration, action: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.now } }

    /// How many timers are armed and not yet due.
    var pendingTimers: Int { state.withLock { $0.timers.count } }

    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.timers.append((deadline, action)) }
    }

    /// Moves the clock forward and runs every timer that became due (outside the lock, since a
    /// timer may arm the next one; one armed for a time already reached runs too).
    func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
        while let due = takeFirstDue() { due() }
    }

    private func takeFirstDue() -> (@Sendable () -> Void)? {
        state.withLock { state in
            let due = state.timers.enumerated().filter { $0.element.deadline <= state.now }
            guard let first = due.min(by: { $0.element.deadline < $1.element.deadline }) else { return nil }
            return state.timers.remove(at: first.offset).action
        }
    }
}
