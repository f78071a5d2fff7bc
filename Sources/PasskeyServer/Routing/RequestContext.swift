internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP

/// What every handler receives beside the request: its ID, the client, the matched route and its
/// path parameters, and a logger that carries them. The middlewares fill it in on the way in
/// (`Pipeline/`); the route kind adds what its options say (`Routes`).
struct RequestContext: Sendable {
    /// The client's `X-Request-ID` when it is a short token, else a new UUID (`RequestIDMiddleware`).
    var requestID = ""
    /// The client as `ClientAddressResolver` found it (for logs and events).
    var clientAddress = ""
    /// What per-address limits count: the address, or its /64 for IPv6.
    var rateLimitKey = ""
    /// The request's `User-Agent`, as events record it (cut there).
    var userAgent: String?
    /// The request's `Accept-Language`, as sent.
    var acceptLanguage: String?
    /// The mail language `Accept-Language` prefers (what a sign-up keeps for the account's
    /// mails); parsed only by the routes that ask.
    var mailLanguage: MailLanguage { AcceptLanguage.mailLanguage(acceptLanguage) }
    /// The matched route's pattern, for the middlewares outside the router.
    let endpoint = EndpointPath()
    /// The `{…}` values of the matched route.
    var parameters = PathParameters()
    /// When the request reached the pipeline.
    let startedAt = ContinuousClock.now
    /// The application's logger, before this request's fields are bound (`logger`).
    var baseLogger: Logger
    /// The ceremony step the route records (`Routes`' `ceremony:` option), and who records it.
    var ceremony: CeremonyStep?

    init(logger: Logger) { baseLogger = logger }

    /// The matched route's pattern, or `unmatched`.
    var route: String { endpoint.label }

    /// This request's logger: every line carries its request ID, route and client.
    var logger: Logger {
        baseLogger.with([.requestID: requestID, .route: route, .client: clientAddress])
    }

    /// Where the change came from, for its events and notices.
    var origin: RequestOrigin { RequestOrigin(clientAddress: clientAddress, userAgent: userAgent) }

    /// Runs the handler's use case: the one place a use case's outcome is recorded. Its error
    /// type must have its HTTP answer (`ProblemConvertible`, in `ProblemMapping.swift`), so a
    /// use case whose errors have no mapping does not compile here. With the route's ceremony
    /// step, one log line and metric for the outcome (`CeremonyRecorder`); an output with an
    /// audit entry (`Audited`) writes it to this request's log.
    @discardableResult
    func execute<Output, Failure: ProblemConvertible>(_ body: () async throws(Failure) -> Output)
        async throws(Failure) -> Output
    {
        let output: Output
        do {
            output = try await body()
        } catch {
            ceremony?.failed(error, logger: logger)
            throw error
        }
        ceremony?.succeeded(output, logger: logger)
        (output as? any Audited)?.audit?.write(to: logger)
        return output
    }
}
