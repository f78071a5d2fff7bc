internal import PasskeyHTTP

/// What every handler receives beside the request: its ID, the client address, the matched route
/// and its path parameters. The middlewares fill it in on the way in (`Pipeline/`).
struct RequestContext: Sendable {
    /// The client's `X-Request-ID` when it is a short token, else a new UUID (`RequestIDMiddleware`).
    var requestID = ""
    /// The client as `ClientAddressResolver` found it (for logs and events).
    var clientAddress = ""
    /// What per-address limits count: the address, or its /64 for IPv6.
    var rateLimitKey = ""
    /// The matched route's pattern, for the middlewares outside the router.
    let endpoint = EndpointPath()
    /// The `{…}` values of the matched route.
    var parameters = PathParameters()
    /// When the request reached the pipeline.
    let startedAt = ContinuousClock.now

    /// The matched route's pattern, or `unmatched`.
    var route: String { endpoint.label }
}
