internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP

/// Where controllers register their endpoints, each under its kind:
/// - `anyone`: no sign-in needed; the handler gets the request's context;
/// - `bearerToken`: a token fixed by configuration (`METRICS_TOKEN`), compared
///   in constant time, else 401 `unauthorized` before the handler runs;
/// - (v4) `operator`: an operator's token whose role includes the route's (`OPERATOR_TOKEN` is the
///   admin `operator`): 404 while no operator exists and `OPERATOR_TOKEN` is unset, else 401 for
///   an unknown token, then 403 `forbidden` for a role without it, all before the handler runs;
///   the handler gets the operator in an `OperatorContext`;
/// - `signedIn`: a live bearer token, else 401 `unauthorized` before the handler runs; the
///   handler gets the session in a `SignedInContext`;
/// - `recentSignIn`: as `signedIn`, and the session signed in within
///   `REAUTHENTICATION_WINDOW_SECONDS`, else 403 `reauthentication-required`, checked right
///   after the token as the contract says; the handler gets the `RecentSession` that the
///   step-up use cases take, in a `RecentSignInContext`.
///
/// Options, the same for every kind:
/// - `ceremony:` the ceremony step whose outcome `RequestContext.execute` records (one log line
///   and metric per outcome);
/// - `feature:` a gate answered after the route kind's own checks and before the body is read
///   (mail off: 503 `mail-unavailable`).
///
/// Handlers decode, execute their use case (`context.execute`) and encode. Whatever they throw is
/// answered through the one mapping (`Problems/ProblemMapping.swift`); anything unmapped is a 500
/// whose cause is logged with the request ID and never sent.
struct Routes: Sendable {
    typealias PublicHandler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
    typealias SignedInHandler = @Sendable (HTTPRequest, SignedInContext) async throws -> HTTPResponse
    typealias RecentSignInHandler = @Sendable (HTTPRequest, RecentSignInContext) async throws -> HTTPResponse
    typealias SessionTokenHandler = @Sendable (HTTPRequest, SessionTokenContext) async throws -> HTTPResponse
    typealias OperatorHandler = @Sendable (HTTPRequest, OperatorContext) async throws -> HTTPResponse
    /// Throws the feature's problem while it is off.
    typealias FeatureGate = @Sendable () throws -> Void

    private(set) var router = Router()
    let runner: HandlerRunner

    init(runner: HandlerRunner) {
        self.runner = runner
    }

    mutating func anyone(
        _ method: HTTPMethod, _ path: String, ceremony: (Ceremony, step: String)? = nil, feature: FeatureGate? = nil,
        visible: Visibility? = nil, _ handler: @escaping PublicHandler
    ) {
        add(method, path, ceremony, visible: visible) { runner, request, context in
            try feature?()
            return try await handler(request, context)
        }
    }

    mutating func bearerToken(
        _ method: HTTPMethod, _ path: String, check: ConfiguredTokenCheck, _ handler: @escaping PublicHandler
    ) {
        add(method, path, nil) { runner, request, context in
            guard check.accepts(AuthorizationHeader.bearerToken(request.header("authorization"))) else {
                throw Problem.unauthorized
            }
            return try await handler(request, context)
        }
    }

    /// (v4) A service client of `INTROSPECTION_CLIENTS` by HTTP Basic (RFC 6749 §2.3.1: ID and
    /// secret form-urlencoded, then base64), checked in constant time before the body is read;
    /// else 401 with `WWW-Authenticate: Basic realm="introspection"`.
    mutating func serviceClient(
        _ method: HTTPMethod, _ path: String, clients: IntrospectionClients, _ handler: @escaping PublicHandler
    ) {
        add(method, path, nil) { runner, request, context in
            guard let (id, secret) = AuthorizationHeader.basicCredentials(request.header("authorization")),
                clients.accepts(id: id, secret: secret)
            else { throw ProblemMapping.introspectionUnauthorized }
            return try await handler(request, context)
        }
    }

    /// (v4) A bearer token that the handler's use case looks up itself, in the one statement that
    /// also reads what it needs (minting a JWT): 401 `unauthorized` before the handler when there
    /// is no `Authorization: Bearer`; the feature gate next; the use case answers 401 for a token
    /// that is not live.
    mutating func sessionToken(
        _ method: HTTPMethod, _ path: String, feature: FeatureGate? = nil, _ handler: @escaping SessionTokenHandler
    ) {
        add(method, path, nil) { runner, request, context in
            guard let token = AuthorizationHeader.bearerToken(request.header("authorization")), !token.isEmpty else {
                throw Problem.unauthorized
            }
            try feature?()
            return try await handler(request, SessionTokenContext(request: context, token: token))
        }
    }

    mutating func `operator`(
        _ method: HTTPMethod, _ path: String, role: OperatorRole, authorization: OperatorAuthorizationUseCase,
        _ handler: @escaping OperatorHandler
    ) {
        add(method, path, nil, visible: authorization.visibility) { runner, request, context in
            let found = try await authorization.execute(
                bearer: AuthorizationHeader.bearerToken(request.header("authorization")), requires: role)
            return try await handler(request, OperatorContext(request: context, operator: found))
        }
    }

    mutating func signedIn(
        _ method: HTTPMethod, _ path: String, ceremony: (Ceremony, step: String)? = nil, feature: FeatureGate? = nil,
        _ handler: @escaping SignedInHandler
    ) {
        add(method, path, ceremony) { runner, request, context in
            let session = try await runner.authenticate(request)
            try feature?()
            return try await handler(request, SignedInContext(request: context, session: session))
        }
    }

    mutating func recentSignIn(
        _ method: HTTPMethod, _ path: String, ceremony: (Ceremony, step: String)? = nil, feature: FeatureGate? = nil,
        _ handler: @escaping RecentSignInHandler
    ) {
        add(method, path, ceremony) { runner, request, context in
            let recent = try runner.recentSignIn.check(try await runner.authenticate(request))
            try feature?()
            return try await handler(request, RecentSignInContext(request: context, session: recent))
        }
    }

    private mutating func add(
        _ method: HTTPMethod, _ path: String, _ ceremony: (Ceremony, step: String)?, visible: Visibility? = nil,
        _ body: @escaping @Sendable (HandlerRunner, HTTPRequest, RequestContext) async throws -> HTTPResponse
    ) {
        let runner = runner
        let step = ceremony.map { CeremonyStep(ceremony: $0.0, step: $0.step, metrics: runner.metrics) }
        router.add(method, path, visible: visible) { request, context in
            var context = context
            context.ceremony = step
            return await runner.run(context) { try await body(runner, request, context) }
        }
    }
}
