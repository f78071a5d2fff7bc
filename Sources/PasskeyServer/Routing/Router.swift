internal import PasskeyHTTP

/// What the router calls for a matched route: the request and its context (with the route's
/// parameters); the route kind around the handler has already authenticated and mapped errors.
typealias Responder = @Sendable (HTTPRequest, RequestContext) async -> HTTPResponse
/// (v4) Whether a route's path exists now (the operator endpoints: only while an operator or
/// `OPERATOR_TOKEN` does); a hidden path's other methods answer 404, not 405.
typealias Visibility = @Sendable () async -> Bool

/// A small router: literal segments and `{parameter}` segments. A known path with another
/// method is 405 with `Allow`; an unknown path is 404. It is the innermost step of the pipeline.
struct Router: Sendable {
    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Substring]
        let parameterNames: [String]
        let responder: Responder
        let visible: Visibility?
    }

    private(set) var routes: [Route] = []
    /// The routes without parameters by path: a path found here belongs to them alone (a
    /// literal route is the most specific match there is), so most requests skip the scan.
    private var literalRoutes: [String: [Route]] = [:]

    mutating func add(
        _ method: HTTPMethod, _ pattern: String, visible: Visibility? = nil, _ responder: @escaping Responder
    ) {
        let segments = pattern.split(separator: "/")
        let names = segments.filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
        let route = Route(
            method: method, pattern: pattern, segments: segments, parameterNames: names, responder: responder,
            visible: visible)
        routes.append(route)
        if names.isEmpty { literalRoutes[pattern, default: []].append(route) }
    }

    enum Match {
        case found(Route, parameters: PathParameters)
        case methodNotAllowed(allow: [String], visible: [Visibility])
        case notFound
    }

    func match(method: HTTPMethod, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        let candidates =
            literalRoutes[path].map { $0.map { (route: $0, values: [String]()) } }
            ?? bestMatches(for: Self.segments(of: path))
        if let (route, values) = candidates.first(where: { $0.route.method == method }) {
            return .found(route, parameters: PathParameters(names: route.parameterNames, values: values))
        }
        var allowed = candidates.map(\.route.method)
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(
            allow: (allowed + [.options]).map(\.rawValue), visible: candidates.compactMap(\.route.visible))
    }

    /// The routes matching `segments` whose patterns are the most specific: at the first segment
    /// where two matching patterns differ, a literal beats a `{parameter}`. So
    /// `/v1/passkeys/registrations` belongs to its literal route alone and is never taken for
    /// `/v1/passkeys/{credentialID}` with "registrations" as the ID.
    private func bestMatches(for segments: [Substring]) -> [(route: Route, values: [String])] {
        let matching = routes.compactMap { route in
            Self.parameters(of: route.segments, in: segments).map { (route: route, values: $0) }
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

    /// The methods a path supports (for CORS preflight), empty when unknown or (v4) hidden now.
    func methods(for path: String) async -> [HTTPMethod] {
        let routes = bestMatches(for: Self.segments(of: path)).map(\.route)
        for route in routes {
            if let visible = route.visible, await !visible() { return [] }
        }
        return routes.map(\.method)
    }

    /// Answers a request: the matched route's responder, else 405 or 404. Records the matched
    /// pattern for the middlewares outside.
    func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        switch match(method: request.method, path: request.path) {
        case .found(let route, let parameters):
            context.endpoint.set(route.pattern)
            var context = context
            context.parameters = parameters
            return await route.responder(request, context)
        case .methodNotAllowed(let allow, let visible):
            for isVisible in visible where await !isVisible() { return Problem.notFound.response }
            return Problem.methodNotAllowed(allow: allow).response
        case .notFound:
            return Problem.notFound.response
        }
    }
}
