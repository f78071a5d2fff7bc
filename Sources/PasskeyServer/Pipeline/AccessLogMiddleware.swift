internal import PasskeyHTTP

/// One logfmt line per request: method, route pattern, status, duration, client, request ID.
struct AccessLogMiddleware: ServerMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        let response = await next(request, context)
        // Built only when it will be written: at LOG_LEVEL=warning this costs nothing.
        if context.baseLogger.level <= .info {
            let logger = context.logger
            let seconds = MetricsMiddleware.seconds(since: context.startedAt)
            logger.info([
                .event: "request", .method: MetricsMiddleware.methodLabel(request.method), .route: context.route,
                .status: response.status.description,
                .durationMilliseconds: String(Double(Int((seconds * 1_000_000).rounded())) / 1000),
                .client: context.clientAddress, .requestID: context.requestID,
            ])
        }
        return response
    }
}
