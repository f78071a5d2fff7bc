internal import PasskeyHTTP

/// API answers are never cached; the web client's files bring their own policy.
struct CacheControlMiddleware: ServerMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        var response = await next(request, context)
        if !response.headers.contains(where: { $0.name.lowercased() == "cache-control" }) {
            response.headers.append(("Cache-Control", "no-store"))
        }
        return response
    }
}
