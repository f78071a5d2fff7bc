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
    /// The routes without parameters by path: a path found here belongs to them alone (a
    /// literal route is the most specific match there is), so most requests skip the scan.
    private var literalRoutes: [String: [Route]] = [:]

    mutating func add(_ method: String, _ pattern: String, _ handler: @escaping RouteHandler) {
        let route = Route(method: method, pattern: pattern, segments: pattern.split(separator: "/"), handler: handler)
        routes.append(route)
        if !pattern.contains("{") { literalRoutes[pattern, default: []].append(route) }
    }

    enum Match {
        case found(Route, parameters: [String])
        case methodNotAllowed(allow: [String])
        case notFound
    }

    func match(method: String, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        let candidates =
            literalRoutes[path].map { $0.map { (route: $0, parameters: [String]()) } }
            ?? bestMatches(for: Self.segments(of: path))
        if let (route, parameters) = candidates.first(where: { $0.route.method == method }) {
            return .found(route, parameters: parameters)
        }
        var allowed = candidates.map(\.route.method)
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed + ["OPTIONS"])
    }

    /// The routes matching `segments` whose patterns are the most specific: at the first segment
    /// where two matching patterns differ, a literal beats a `{parameter}`. So
    /// `/v1/passkeys/registrations` belongs to its literal route alone and is never taken for
    /// `/v1/passkeys/{credentialID}` with "registrations" as the ID.
    private func bestMatches(for segments: [Substring]) -> [(route: Route, parameters: [String])] {
        let matching = routes.compactMap { route in
            Self.parameters(of: route.segments, in: segments).map { (route: route, parameters: $0) }
        }
        func literals(_ route: Route) -> [Bool] { route.segments.map { !$0.hasPrefix("{") } }
        guard let best = matching.map({ literals($0.route) }).max(by: { Self.lessSpecific($0, $1) }) else {
            return []
        }
        return matching.filter { literals($0.route) == best }
    }

    /// True when `a` is less specific than `b` (both of one length): at the first difference, `a`
    /// has a parameter where `b` has a literal.
    private static func lessSpecific(_ a: [Bool], _ b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return y }
        return false
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
        bestMatches(for: Self.segments(of: path)).map(\.route.method)
    }
}
