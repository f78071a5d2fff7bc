internal import PasskeyHTTP

/// (v3) While the server drains (`DrainState`), every answer says `Connection: close`, so a
/// keep-alive client (a balancer's pooled connection among them) opens its next request on a
/// new connection, which the balancer sends to an instance that is still ready.
struct DrainMiddleware: ServerMiddleware {
    let drain: DrainState

    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        var response = await next(request, context)
        if drain.isDraining { response.headers.append(("Connection", "close")) }
        return response
    }
}
