internal import Glibc
internal import Synchronization

/// The server's event loops: `EVENT_LOOPS` of them, by default one per online CPU. Each runs its
/// own HTTP daemon and its own share of the database pool; the kernel spreads connections over
/// the daemons (`SO_REUSEPORT`), and work that does not come in on a connection (the sweeper, the
/// mail sender, a command) takes the loops in turn (`next()`).
///
/// Lifecycle: `init` starts every loop's thread; `shutdown()` stops and joins them all, after
/// whatever runs on them (daemons, pools) was closed.
package final class EventLoopGroup: Sendable {
    package let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// `count` loops (at least 1).
    package init(count: Int = EventLoopGroup.defaultCount) {
        loops = (0..<max(1, count)).map { EventLoop(index: $0) }
    }

    /// One loop per online CPU (at least 1).
    package static var defaultCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The loops in turn.
    package func next() -> EventLoop {
        let index = nextIndex.add(1, ordering: .relaxed).oldValue
        return loops[index % loops.count]
    }

    /// The loop running the caller when it is one of this group's, else `next()`.
    package func currentOrNext() -> EventLoop {
        if let current = EventLoop.current, current.index < loops.count, loops[current.index] === current {
            return current
        }
        return next()
    }

    /// Stops every loop and joins its thread.
    package func shutdown() {
        for loop in loops { loop.shutdown() }
    }
}
