internal import PasskeyHTTP

/// Counts requests by route, method and status, and their latency.
struct MetricsMiddleware: ServerMiddleware {
    let metrics: Metrics

    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        let response = await next(request, context)
        metrics.recordRequest(
            route: context.route, method: Self.methodLabel(request.method), status: response.status.code,
            seconds: Self.seconds(since: context.startedAt))
        return response
    }

    /// Labels stay bounded whatever clients send: known methods, else `OTHER`.
    static func methodLabel(_ method: HTTPMethod) -> String {
        HTTPMethod.known.contains(method) ? method.rawValue : "OTHER"
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
