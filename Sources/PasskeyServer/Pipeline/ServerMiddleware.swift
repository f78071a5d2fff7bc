internal import PasskeyHTTP

/// What a middleware calls to go on: the rest of the chain, down to the router.
typealias NextResponder = @Sendable (HTTPRequest, RequestContext) async -> HTTPResponse

/// One step of the request pipeline, shaped like Hummingbird's `RouterMiddleware`: it sees the
/// request and its context, may change either, calls `next` (or answers by itself), and may
/// change the response on the way out. `RequestPipeline` lists them in their one order.
protocol ServerMiddleware: Sendable {
    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse
}
