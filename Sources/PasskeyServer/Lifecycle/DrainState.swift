internal import Synchronization

/// (v3) Whether the server is draining: set once, on SIGTERM, for the `SHUTDOWN_DRAIN_SECONDS`
/// before the listener closes. While it is set `/readyz` answers 503 (the balancer stops routing
/// here) and every answer carries `Connection: close` (keep-alive clients reconnect, and land on
/// another instance), but requests are still served in full.
final class DrainState: Sendable {
    private let draining = Atomic<Bool>(false)

    init() {}

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Starts draining; it never stops (the process is on its way out).
    func begin() { draining.store(true, ordering: .relaxed) }
}
