internal import PasskeyHTTP

/// The HTTP server as a service: it was started (listening) before the group runs, serves until
/// shutdown, then stops accepting connections and finishes the requests in flight (up to the
/// grace period), closing idle keep-alive connections.
final class HTTPServerService: Service {
    let name = "http"
    private let server: HTTPServer
    private let gracePeriod: Duration
    private let stopped = Latch()

    init(server: HTTPServer, gracePeriod: Duration = .seconds(10)) {
        self.server = server
        self.gracePeriod = gracePeriod
    }

    func run() async { await stopped.wait() }

    func shutdown(_ reason: ShutdownReason) async {
        await server.shutdown(gracePeriod: gracePeriod)
        stopped.open()
    }
}
