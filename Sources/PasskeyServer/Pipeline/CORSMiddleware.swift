internal import PasskeyHTTP

/// CORS for `CORS_ALLOWED_ORIGINS`: answers preflights (`OPTIONS`) with the path's methods, and
/// echoes an allowed `Origin` on every answer. Other origins get no CORS headers at all.
struct CORSMiddleware: ServerMiddleware {
    let allowedOrigins: Set<String>
    /// The methods of a path, from the router (empty when the path is unknown or, (v4), hidden
    /// now: the operator paths while no operator exists and `OPERATOR_TOKEN` is unset).
    let methods: @Sendable (String) async -> [HTTPMethod]

    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        var response = request.method == .options ? await preflight(request) : await next(request, context)
        if let origin = allowedOrigin(request) {
            response.headers.append(("Access-Control-Allow-Origin", origin))
            response.headers.append(("Vary", "Origin"))
        }
        return response
    }

    private func preflight(_ request: HTTPRequest) async -> HTTPResponse {
        let methods = await methods(request.path).map(\.rawValue)
        guard !methods.isEmpty else { return Problem.notFound.response }
        var response = HTTPResponse(status: 204, headers: [("Allow", (methods + ["OPTIONS"]).joined(separator: ", "))])
        if allowedOrigin(request) != nil {
            response.headers.append(("Access-Control-Allow-Methods", methods.joined(separator: ", ")))
            response.headers.append(("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-ID"))
            response.headers.append(("Access-Control-Max-Age", "600"))
        }
        return response
    }

    private func allowedOrigin(_ request: HTTPRequest) -> String? {
        guard let origin = request.header("origin"), allowedOrigins.contains(origin) else { return nil }
        return origin
    }
}
