internal import Foundation

/// A long-running part of `serve` with a lifecycle, on the model of swift-service-lifecycle's
/// `Service`: `run` works until it is asked to stop, and `shutdown` asks it to, gracefully. A
/// `ServiceGroup` runs a list of them and stops them in reverse order.
protocol Service: Sendable {
    /// For the log: `http`, `sweeper`, `mail`, `drain`.
    var name: String { get }

    /// Runs until `shutdown` (or until it has nothing more to do), then returns.
    func run() async

    /// Asks `run` to finish: what is in flight may finish first. `reason` says why the process
    /// stops (a drain happens on `.terminate` only).
    func shutdown(_ reason: ShutdownReason) async
}

/// Why the process stops.
enum ShutdownReason: Sendable {
    /// SIGTERM: an orchestrator or a rolling restart, so first drain (`SHUTDOWN_DRAIN_SECONDS`).
    case terminate
    /// SIGINT: Ctrl-C at a terminal, so no drain.
    case interrupt

    init(signal: Int32) {
        self = signal == SIGTERM ? .terminate : .interrupt
    }

    var signalName: String { self == .terminate ? "SIGTERM" : "SIGINT" }
}
