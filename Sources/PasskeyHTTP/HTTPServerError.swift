/// Why `HTTPServer.start()` could not listen. The description names the address, for the
/// operator's log; it never reaches a client.
package enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// A configuration value is out of range (port, threads, limits).
    case invalidConfiguration(String)
    /// Another socket already listens on this address and port.
    case addressInUse(host: String, port: Int)
    /// The address is not one of this machine's, or binding it is not permitted.
    case addressUnavailable(host: String, port: Int, diagnostic: String)
    /// libmicrohttpd refused to start for another reason; `diagnostic` is its log message.
    case startFailed(host: String, port: Int, diagnostic: String)
    /// `start()` was called on a server that was already started (or shut down).
    case alreadyStarted

    package var description: String {
        switch self {
        case .invalidHost(let host):
            "invalid listen host \"\(host)\": expected a numeric IPv4 or IPv6 address"
        case .invalidConfiguration(let detail):
            "invalid HTTP server configuration: \(detail)"
        case .addressInUse(let host, let port):
            "cannot listen on \(Self.endpoint(host, port)): address already in use"
        case .addressUnavailable(let host, let port, let diagnostic):
            "cannot listen on \(Self.endpoint(host, port)): \(diagnostic)"
        case .startFailed(let host, let port, let diagnostic):
            "cannot start the HTTP server on \(Self.endpoint(host, port)): \(diagnostic)"
        case .alreadyStarted:
            "the HTTP server was already started"
        }
    }

    /// `host:port`, with brackets around an IPv6 host.
    private static func endpoint(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
