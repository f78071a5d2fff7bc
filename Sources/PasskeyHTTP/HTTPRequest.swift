/// One HTTP request as received: the whole body is in memory (at most
/// `HTTPServer.Configuration.maximumBodyBytes`).
package struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `.get`.
    package var method: HTTPMethod
    /// The path of the request-target without the query string; percent-decoding is not applied.
    package var path: String
    /// The raw query string after the first `?` (without it), or `nil` when there was no `?`.
    package var query: String?
    /// The header fields in the order received (names lowercased, values as sent; looked up
    /// case-insensitively).
    package var headers: HTTPFields
    /// The request body (empty when there was none).
    package var body: [UInt8]
    /// The TCP peer's IP address as text, e.g. `127.0.0.1` or `::1` (IPv4-mapped IPv6
    /// addresses are given in their IPv4 form).
    package var remoteAddress: String
    /// The index of the event loop that read the request (and runs its handler and writes its
    /// response); nil for a request not read by the server (tests).
    package var eventLoopIndex: Int?

    package init(
        method: HTTPMethod,
        path: String,
        query: String? = nil,
        headers: HTTPFields = [],
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The first value of the header field `name`, compared case-insensitively.
    package func header(_ name: String) -> String? { headers[name] }

    /// Splits a raw request-target into path and query at the first `?`.
    static func splitTarget(_ target: String) -> (path: String, query: String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}
