package import PasskeyEventLoop

#if canImport(Glibc)
    import Glibc
#endif

extension HTTPServer {
    /// Where and how the server listens, its limits, and the answers the HTTP layer gives by
    /// itself (each problem+json by default).
    package struct Configuration: Sendable {
        /// A numeric IPv4 or IPv6 address (`0.0.0.0`, `127.0.0.1`, `::1`, `::`), or `localhost`
        /// (= `127.0.0.1`). `::` accepts IPv4 clients too (dual stack).
        package var host: String
        /// The TCP port; 0 picks any free port (read it from `HTTPServer.port` after `start()`).
        package var port: Int
        /// How many event loops the server starts for itself when `loops` is nil (one daemon
        /// each); ignored when `loops` is given.
        package var threads: Int
        /// The largest accepted request body; larger bodies get `tooLarge()` without reaching
        /// the handler.
        package var maximumBodyBytes: Int
        /// Idle connections are closed after this many seconds (0 = never).
        package var connectionTimeoutSeconds: Int
        /// The answer to a body over `maximumBodyBytes` (the caller builds its problem+json 413).
        package var tooLarge: @Sendable () -> HTTPResponse
        /// The answer for a request whose handler is still running when the shutdown grace
        /// period ends.
        package var shutdownResponse: @Sendable () -> HTTPResponse
        /// At most this many connections are open at once, over every loop; a further client gets
        /// `overloaded()` at once, written on its socket, and is closed (`HTTP_MAX_CONNECTIONS`).
        /// Only beyond `daemonConnectionLimit` on one loop do clients wait in the listen backlog.
        package var maximumConnections: Int
        /// The answer to a client over `maximumConnections` (default: 503 problem+json with
        /// `Retry-After`; `Connection: close` is always added).
        package var overloaded: @Sendable () -> HTTPResponse
        /// At most this many connections from one IP address (IPv4, also IPv4-mapped) or one
        /// IPv6 /64 (`PeerKey`); further ones are closed at once without an answer. 0 = no limit
        /// (`HTTP_MAX_CONNECTIONS_PER_ADDRESS`).
        package var maximumConnectionsPerAddress: Int
        /// Peers (numeric address text, IPv4-mapped given as IPv4) whose connections
        /// `maximumConnectionsPerAddress` does not count: the trusted proxies every client comes
        /// through. Called once per accepted connection, on a libmicrohttpd thread.
        package var isUnlimitedPeer: @Sendable (_ peer: String) -> Bool
        /// A request head (request line and header fields) must be complete this many seconds
        /// after the connection was accepted, or after the previous response on it was sent;
        /// otherwise the connection is closed (`HTTP_REQUEST_HEAD_TIMEOUT_SECONDS`).
        package var requestHeadTimeoutSeconds: Int
        /// A request body must be complete this many seconds after its head, however slowly it
        /// trickles; otherwise the client gets `layerError(408)` and the connection is closed
        /// (`HTTP_REQUEST_BODY_TIMEOUT_SECONDS`).
        package var requestBodyTimeoutSeconds: Int
        /// The largest accepted request head in bytes; a larger one gets `layerError(431)`.
        package var maximumHeadBytes: Int
        /// The answer the HTTP layer gives by itself for `status` (400 for a request refused
        /// by the strict parsing, 431 for a head over `maximumHeadBytes`); the wrapper adds
        /// `Connection: close`. Also the default of `tooLarge` (413) and `shutdownResponse`
        /// (503) when the initialiser is not given those.
        package var layerError: @Sendable (_ status: HTTPStatus) -> HTTPResponse
        /// The event loops to serve on, one daemon each; handler tasks run on the loop that read
        /// their request. The server passes the loops its database pool is split over, so a
        /// request's statements are sent and answered on that same thread. nil: the server starts
        /// `threads` loops of its own and stops them in `shutdown`.
        package var loops: EventLoopGroup?

        package init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threads: Int = Configuration.defaultThreads,
            maximumBodyBytes: Int = 65_536,
            connectionTimeoutSeconds: Int = 30,
            tooLarge: (@Sendable () -> HTTPResponse)? = nil,
            shutdownResponse: (@Sendable () -> HTTPResponse)? = nil,
            maximumConnections: Int = 1_000,
            maximumConnectionsPerAddress: Int = 64,
            isUnlimitedPeer: @escaping @Sendable (_ peer: String) -> Bool = { _ in false },
            requestHeadTimeoutSeconds: Int = 10,
            requestBodyTimeoutSeconds: Int = 30,
            maximumHeadBytes: Int = 16_384,
            layerError: @escaping @Sendable (_ status: HTTPStatus) -> HTTPResponse = HTTPResponse.problem(status:),
            overloaded: @escaping @Sendable () -> HTTPResponse = HTTPResponse.tooManyConnections,
            loops: EventLoopGroup? = nil
        ) {
            self.loops = loops
            self.requestBodyTimeoutSeconds = requestBodyTimeoutSeconds
            self.overloaded = overloaded
            self.host = host
            self.port = port
            self.threads = threads
            self.maximumBodyBytes = maximumBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.tooLarge = tooLarge ?? { layerError(413) }
            self.shutdownResponse = shutdownResponse ?? { layerError(503) }
            self.maximumConnections = maximumConnections
            self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
            self.isUnlimitedPeer = isUnlimitedPeer
            self.requestHeadTimeoutSeconds = requestHeadTimeoutSeconds
            self.maximumHeadBytes = maximumHeadBytes
            self.layerError = layerError
        }

        /// One event loop per online CPU (at least 1).
        package static var defaultThreads: Int { EventLoopGroup.defaultCount }

        /// A bare `413 Payload Too Large` (the default is problem+json now; kept for callers).
        @Sendable package static func plainTooLarge() -> HTTPResponse {
            HTTPResponse(status: 413, contentType: "text/plain; charset=utf-8", body: Array("payload too large\n".utf8))
        }

        /// A bare `503 Service Unavailable` that closes the connection (kept for callers).
        @Sendable package static func plainUnavailable() -> HTTPResponse {
            HTTPResponse(
                status: 503,
                headers: [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")],
                body: Array("shutting down\n".utf8))
        }

        /// libmicrohttpd's per-connection memory pool: the head must fit with room to spare
        /// (its own 431 answers a head that does not fit at all).
        var connectionMemoryBytes: Int { max(32_768, 2 * maximumHeadBytes) }

        /// libmicrohttpd's own limit per daemon, above `maximumConnections` so that a client over
        /// ours is accepted and answered 503 instead of waiting in the backlog: room for a quarter
        /// more (at least 16) refused clients on each loop while they read their answer.
        var daemonConnectionLimit: Int { maximumConnections + max(16, maximumConnections / 4) }

        /// Checks the ranges libmicrohttpd accepts.
        func validate() throws(HTTPServerError) {
            guard (0...65_535).contains(port) else { throw .invalidConfiguration("port \(port) is not in 0…65535") }
            guard (1...1_024).contains(threads) else {
                throw .invalidConfiguration("threads \(threads) is not in 1…1024")
            }
            guard maximumBodyBytes >= 0 else { throw .invalidConfiguration("maximumBodyBytes is negative") }
            guard (0...86_400).contains(connectionTimeoutSeconds) else {
                throw .invalidConfiguration("connectionTimeoutSeconds \(connectionTimeoutSeconds) is not in 0…86400")
            }
            guard (1...1_000_000).contains(maximumConnections) else {
                throw .invalidConfiguration("maximumConnections \(maximumConnections) is not in 1…1000000")
            }
            guard (0...1_000_000).contains(maximumConnectionsPerAddress) else {
                throw .invalidConfiguration(
                    "maximumConnectionsPerAddress \(maximumConnectionsPerAddress) is not in 0…1000000")
            }
            guard (1...3_600).contains(requestHeadTimeoutSeconds) else {
                throw .invalidConfiguration("requestHeadTimeoutSeconds \(requestHeadTimeoutSeconds) is not in 1…3600")
            }
            guard (1...3_600).contains(requestBodyTimeoutSeconds) else {
                throw .invalidConfiguration("requestBodyTimeoutSeconds \(requestBodyTimeoutSeconds) is not in 1…3600")
            }
            guard (1_024...1_048_576).contains(maximumHeadBytes) else {
                throw .invalidConfiguration("maximumHeadBytes \(maximumHeadBytes) is not in 1024…1048576")
            }
        }
    }
}
