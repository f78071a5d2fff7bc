internal import PasskeyHTTP

/// Resolves the client address (the TCP peer, or what a trusted proxy forwarded) and the key
/// per-address limits count by.
struct ClientAddressMiddleware: ServerMiddleware {
    let resolver: ClientAddressResolver

    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        var context = context
        context.clientAddress = resolver.resolve(
            peer: request.remoteAddress,
            forwardedFor: request.headers.filter { $0.name == "x-forwarded-for" }.map(\.value))
        context.rateLimitKey = ClientAddressResolver.rateLimitKey(for: context.clientAddress)
        return await next(request, context)
    }
}
