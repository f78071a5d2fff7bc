internal import PasskeyHTTP

/// What a handler receives: the request, its ID, the client address, the matched route and
/// path parameters.
struct RequestContext: Sendable {
    let request: HTTPRequest
    let requestID: String
    /// The client as `ClientAddressResolver` found it (for logs).
    let clientAddress: String
    /// What per-address limits count: the address, or its /64 for IPv6.
    let rateLimitKey: String
    /// The route pattern, e.g. `/v1/passkeys/{credentialID}`.
    var route: String = "unmatched"
    var pathParameters: [String] = []
}

typealias RouteHandler = @Sendable (RequestContext) async -> HTTPResponse

/// A small router: literal segments and `{parameter}` segments. A known path with another
/// method is 405 with `Allow`; an unknown path is 404.
struct Router: Sendable {
    struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Substring]
        let handler: RouteHandler
    }

    private(set) var routes: [Route] = []

    mutating func add(_ method: String, _ pattern: String, _ handler: @escaping RouteHandler) {
        routes.append(
            Route(method: method, pattern: pattern, segments: pattern.split(separator: "/"), handler: handler))
    }

    enum Match {
        case found(Route, parameters: [String])
        case methodNotAllowed(allow: [String])
        case notFound
    }

    func match(method: String, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        let segments = Self.segments(of: path)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.parameters(of: route.segments, in: segments) else { continue }
            if route.method == method { return .found(route, parameters: parameters) }
            allowed.append(route.method)
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed + ["OPTIONS"])
    }

    /// A path's segments after the leading `/`; empty ones count (`/a//b` is not `/a/b`), except
    /// that `/` itself has none, as the pattern `/` has none.
    private static func segments(of path: String) -> [Substring] {
        path == "/" ? [] : Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
    }

    /// The `{…}` values when `path` matches `pattern`, else nil.
    private static func parameters(of pattern: [Substring], in path: [Substring]) -> [String]? {
        guard pattern.count == path.count else { return nil }
        var values: [String] = []
        for (expected, actual) in zip(pattern, path) {
            if expected.hasPrefix("{") {
                guard !actual.isEmpty else { return nil }
                values.append(String(actual))
            } else if expected != actual {
                return nil
            }
        }
        return values
    }

    /// The methods a path supports (for CORS preflight), empty when unknown.
    func methods(for path: String) -> [String] {
        let segments = Self.segments(of: path)
        return routes.filter { Self.parameters(of: $0.segments, in: segments) != nil }.map(\.method)
    }
}
