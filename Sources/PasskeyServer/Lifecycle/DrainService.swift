/// (v3) The drain before a stop, as a service listed last (so shut down first): on SIGTERM it
/// sets the drain (`/readyz` 503, answers with `Connection: close`, requests still served) for
/// `SHUTDOWN_DRAIN_SECONDS`, so a balancer stops routing here before the listener closes. SIGINT
/// skips it.
final class DrainService: Service {
    let name = "drain"
    private let drain: DrainState
    private let seconds: Int
    private let logger: Logger
    private let stopped = Latch()

    init(drain: DrainState, seconds: Int, logger: Logger) {
        self.drain = drain
        self.seconds = seconds
        self.logger = logger
    }

    func run() async { await stopped.wait() }

    func shutdown(_ reason: ShutdownReason) async {
        defer { stopped.open() }
        guard reason == .terminate, seconds > 0 else { return }
        drain.begin()
        logger.info([.event: "draining", .seconds: String(seconds)])
        try? await Task.sleep(for: .seconds(seconds))
    }
}
