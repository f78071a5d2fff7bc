#if canImport(Glibc)
    import Glibc
#endif

extension HTTPServer {
    /// Where and how the server listens, and the answers the HTTP layer gives by itself.
    package struct Configuration: Sendable {
        /// A numeric IPv4 or IPv6 address (`0.0.0.0`, `127.0.0.1`, `::1`, `::`), or `localhost`
        /// (= `127.0.0.1`). `::` accepts IPv4 clients too (dual stack).
        package var host: String
        /// The TCP port; 0 picks any free port (read it from `HTTPServer.port` after `start()`).
        package var port: Int
        /// Worker threads of libmicrohttpd's epoll thread pool.
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

        package init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threads: Int = Configuration.defaultThreads,
            maximumBodyBytes: Int = 65_536,
            connectionTimeoutSeconds: Int = 30,
            tooLarge: @escaping @Sendable () -> HTTPResponse = Configuration.plainTooLarge,
            shutdownResponse: @escaping @Sendable () -> HTTPResponse = Configuration.plainUnavailable
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.maximumBodyBytes = maximumBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.tooLarge = tooLarge
            self.shutdownResponse = shutdownResponse
        }

        /// One worker thread per online CPU (at least 1).
        package static var defaultThreads: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

        /// A bare `413 Payload Too Large` (callers normally supply problem+json instead).
        @Sendable package static func plainTooLarge() -> HTTPResponse {
            HTTPResponse(status: 413, contentType: "text/plain; charset=utf-8", body: Array("payload too large\n".utf8))
        }

        /// A bare `503 Service Unavailable` that closes the connection.
        @Sendable package static func plainUnavailable() -> HTTPResponse {
            HTTPResponse(
                status: 503,
                headers: [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")],
                body: Array("shutting down\n".utf8))
        }

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
        }
    }
}
