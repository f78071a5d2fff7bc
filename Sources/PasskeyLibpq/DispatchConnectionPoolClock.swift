internal import Dispatch

/// The system's monotonic clock (`DispatchTime`, uptime) with Dispatch's timers.
package struct DispatchConnectionPoolClock: ConnectionPoolClock {
    package init() {}

    package var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds) }

    package func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = deadline.components
        let nanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: nanoseconds), execute: action)
    }
}
