internal import PasskeyHTTP

/// `HEAD` is answered as `GET` without the body (the headers, `Content-Length` included, stay).
struct HeadMiddleware: ServerMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        guard request.method == .head else { return await next(request, context) }
        var get = request
        get.method = .get
        var response = await next(get, context)
        response.body = []
        return response
    }
}
