internal import PasskeyHTTP

/// Every request passes here: the middlewares in their order (the first listed is the
/// outermost), then the router. The chain is composed once, at start.
struct RequestPipeline: Sendable {
    private let responder: NextResponder
    /// The application's logger, which each request's context binds its fields to.
    private let logger: Logger

    init(_ middlewares: [any ServerMiddleware], router: Router, logger: Logger) {
        self.logger = logger
        var responder: NextResponder = { request, context in await router.respond(to: request, context: context) }
        for middleware in middlewares.reversed() {
            let next = responder
            responder = { request, context in await middleware.handle(request, context: context, next: next) }
        }
        self.responder = responder
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        var context = RequestContext(logger: logger)
        // What the request says about its sender, read once here for every use case.
        context.userAgent = request.header("user-agent")
        context.acceptLanguage = request.header("accept-language")
        return await responder(request, context)
    }
}
