internal import PasskeyApplication
internal import PasskeyHTTP

/// Runs one handler under its route kind: authentication, the recent-sign-in rule, and the
/// answer for whatever the handler threw.
struct HandlerRunner: Sendable {
    let bearer: BearerAuthenticationUseCase
    let recentSignIn: RecentSignInRequirement
    let metrics: Metrics

    /// The live session behind `Authorization: Bearer …`.
    func authenticate(_ request: HTTPRequest) async throws(BearerAuthenticationError) -> ActiveSession {
        try await bearer.execute(token: AuthorizationHeader.bearerToken(request.header("authorization")))
    }

    /// The handler's response, or the problem its error maps to. A 500 is logged at `error` with
    /// the request's ID, route and client, and its cause; the client learns nothing more.
    func run(_ context: RequestContext, _ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do {
            return try await body()
        } catch {
            let problem = Problem(error)
            if problem.status >= 500, let cause = problem.cause {
                context.logger.error([.event: "internal_error", .cause: cause])
            }
            return problem.response
        }
    }
}
