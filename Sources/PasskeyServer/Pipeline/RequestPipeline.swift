internal import PasskeyHTTP

/// Every request passes here: the middlewares in their order (the first listed is the
/// outermost), then the router. The chain is composed once, at start.
struct RequestPipeline: Sendable {
    private let responder: NextResponder

    init(_ middlewares: [any ServerMiddleware], router: Router) {
        var responder: NextResponder = { request, context in await router.respond(to: request, context: context) }
        for middleware in middlewares.reversed() {
            let next = responder
            responder = { request, context in await middleware.handle(request, context: context, next: next) }
        }
        self.responder = responder
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await responder(request, RequestContext())
    }
}
