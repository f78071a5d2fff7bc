internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyLibpq
internal import PasskeyOpenSSL
internal import PasskeyPasswordHashing
internal import PasskeyPersistence
internal import PasskeyWebAuthn

/// The composition root of `serve`: names the concrete adapters and wires the use cases,
/// controllers and routes together. (The one-shot commands — `recovery-code`,
/// `import-passwords`, `migrate`, `sweep` — wire the few adapters they need themselves.)
final class PasskeyServerApp: Sendable {
    let configuration: ServerConfiguration
    let pool: PostgresConnectionPool
    let logger: Logger
    let metrics: Metrics
    let router: Router
    let maintenance: PostgresMaintenanceRepository
    private let addresses: ClientAddressResolver

    init(
        configuration: ServerConfiguration, migrations: MigrationRunner, openAPI: [UInt8]?,
        webClient: WebClientFiles? = nil, trustAnchors: TrustAnchors, clock: any WallClock = SystemClock(),
        logSink: @escaping @Sendable (String) -> Void = Logger.standardError
    ) throws(ConfigurationError) {
        self.configuration = configuration
        let policy = configuration.policy
        let logger = Logger(level: configuration.logLevel, sink: logSink)
        let metrics = Metrics()
        // The pool creates and owns its PostgreSQL event loop (its thread, which also runs the
        // request tasks: `pool.loop` is the HTTP layer's `taskExecutor`); `serve` stops both
        // with `pool.close()` once the requests in flight have finished.
        let pool = PostgresConnectionPool(
            configuration: .init(
                conninfo: configuration.databaseURL, maximumConnections: configuration.databasePoolSize,
                preparedStatements: configuration.databasePreparedStatements))
        let accounts = PostgresAccountRepository(pool: pool)
        let passkeys = PostgresPasskeyCredentialRepository(pool: pool)
        let challenges = PostgresChallengeRepository(pool: pool)
        let registrations = PostgresAccountRegistrationRepository(pool: pool)
        let sessions = PostgresSessionRepository(pool: pool)
        let rateLimits = PostgresRateLimitRepository(pool: pool)
        let recoveryCodes = PostgresRecoveryCodeRepository(pool: pool)
        let digester = OpenSSLSecretDigester()
        let maintenance = PostgresMaintenanceRepository(
            pool: pool, migrations: migrations, passwordFailureWindow: Int(policy.passwordFailureWindow))
        let verifier: WebAuthnCredentialVerifier
        do {
            verifier = try WebAuthnCredentialVerifier(
                configuration: WebAuthnVerifierConfiguration(
                    relyingPartyID: policy.relyingPartyID, allowedOrigins: configuration.verifierOrigins,
                    allowedAlgorithms: policy.algorithms, attestationPolicy: configuration.attestationPolicy,
                    trustAnchors: trustAnchors))
        } catch {
            throw ConfigurationError(
                variable: "PASSKEY_TRUST_ANCHORS_DIR", problem: "a file is not an X.509 certificate")
        }
        let hasher = Argon2PasswordHasher(waitingLimit: configuration.passwordHashQueueLimit)
        let tokens = OpenSSLSessionTokenGenerator()
        let random = OpenSSLRandomGenerator()
        let names = KnownAuthenticatorNames()
        let issuer = SessionIssuer(tokens: tokens, random: random, lifetime: policy.sessionLifetime)
        let limiter = AddressRateLimiter(
            repository: rateLimits, limitPerMinute: policy.startsPerMinute, signupLimit: policy.signupsPerAddress,
            signupWindowSeconds: Int(policy.passwordFailureWindow))
        // One gate for every kind of attempt: passwords and recovery codes share their limits.
        let gate = AttemptGate()
        let support = ControllerSupport(
            bearer: BearerAuthenticationUseCase(sessions: sessions, tokens: tokens, clock: clock), logger: logger,
            metrics: metrics)

        let password = PasswordController(
            support: support,
            registration: PasswordAccountRegistrationUseCase(
                accounts: accounts, hasher: hasher, limiter: limiter, clock: clock),
            authentication: PasswordAuthenticationUseCase(
                accounts: accounts, sessions: sessions, rateLimits: rateLimits, hasher: hasher, issuer: issuer,
                policy: policy, clock: clock, gate: gate),
            signOut: SignOutUseCase(sessions: sessions, clock: clock))
        let registration = PasskeyRegistrationController(
            support: support,
            start: PasskeyRegistrationStartUseCase(
                accounts: accounts, challenges: challenges, limiter: limiter, random: random, policy: policy,
                clock: clock),
            finish: PasskeyRegistrationFinishUseCase(
                challenges: challenges, passkeys: passkeys, verifier: verifier, names: names, policy: policy,
                clock: clock),
            relyingPartyName: policy.relyingPartyName)
        let accountRegistration = PasskeyAccountRegistrationController(
            support: support,
            start: PasskeyAccountRegistrationStartUseCase(
                registrations: registrations, limiter: limiter, random: random, policy: policy, clock: clock),
            finish: PasskeyAccountRegistrationFinishUseCase(
                registrations: registrations, verifier: verifier, names: names, issuer: issuer, policy: policy,
                clock: clock))
        let authentication = PasskeyAuthenticationController(
            support: support,
            start: PasskeyAuthenticationStartUseCase(
                challenges: challenges, limiter: limiter, random: random, policy: policy, clock: clock),
            finish: PasskeyAuthenticationFinishUseCase(
                challenges: challenges, sessions: sessions, verifier: verifier, issuer: issuer, policy: policy,
                clock: clock))
        let account = AccountController(
            support: support, query: AccountQueryUseCase(accounts: accounts),
            list: PasskeyListUseCase(passkeys: passkeys), rename: PasskeyRenameUseCase(passkeys: passkeys),
            deletion: PasskeyDeletionUseCase(passkeys: passkeys, policy: policy, clock: clock),
            passwordRemoval: PasswordRemovalUseCase(accounts: accounts, policy: policy, clock: clock),
            accountDeletion: AccountDeletionUseCase(accounts: accounts, policy: policy, clock: clock))
        let recovery = RecoveryController(
            support: support,
            creation: RecoveryCodeSetCreationUseCase(
                recoveryCodes: recoveryCodes, random: random, digester: digester, policy: policy, clock: clock),
            signIn: RecoverySignInUseCase(
                recoveryCodes: recoveryCodes, rateLimits: rateLimits, digester: digester, issuer: issuer,
                policy: policy,
                clock: clock, gate: gate))
        let sessionManagement = SessionController(
            support: support, list: SessionListUseCase(sessions: sessions, clock: clock),
            end: SessionEndUseCase(sessions: sessions, clock: clock))
        let operations = OperationsController(
            maintenance: maintenance, metrics: metrics, wellKnown: WellKnownDocuments(configuration: configuration),
            openAPI: openAPI, metricsTokenDigest: configuration.metricsToken.map { Digest.sha256(Array($0.utf8)) },
            passwordHashing: { hasher.metrics })

        // Each controller registers its own routes: its endpoints are in one file.
        var router = Router()
        password.register(in: &router)
        registration.register(in: &router)
        accountRegistration.register(in: &router)
        authentication.register(in: &router)
        account.register(in: &router)
        recovery.register(in: &router)
        sessionManagement.register(in: &router)
        operations.register(in: &router)
        if configuration.webClientEnabled {
            WebClientController(files: webClient).register(in: &router)
        }

        self.pool = pool
        self.logger = logger
        self.metrics = metrics
        self.router = router
        self.maintenance = maintenance
        self.addresses = ClientAddressResolver(trustedProxies: configuration.trustedProxies)
    }

    /// Every request passes here: request ID, client address, CORS, routing, access log, metrics.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        let requestID = Self.requestID(request.header("x-request-id"))
        let client = addresses.resolve(
            peer: request.remoteAddress,
            forwardedFor: request.headers.filter { $0.name == "x-forwarded-for" }.map(\.value))
        let method = request.method == "HEAD" ? "GET" : request.method
        var routeLabel = "unmatched"
        var response: HTTPResponse
        if request.method == "OPTIONS" {
            response = preflight(request)
        } else {
            switch router.match(method: method, path: request.path) {
            case .found(let route, let parameters):
                routeLabel = route.pattern
                let context = RequestContext(
                    request: request, requestID: requestID, clientAddress: client,
                    rateLimitKey: ClientAddressResolver.rateLimitKey(for: client), route: route.pattern,
                    pathParameters: parameters)
                response = await route.handler(context)
            case .methodNotAllowed(let allow):
                response = Problem.methodNotAllowed(allow: allow).response
            case .notFound:
                response = Problem.notFound.response
            }
        }
        if request.method == "HEAD" { response.body = [] }
        response.headers.append(("X-Request-ID", requestID))
        // API answers are never cached; the web client's files bring their own policy.
        if !response.headers.contains(where: { $0.name.lowercased() == "cache-control" }) {
            response.headers.append(("Cache-Control", "no-store"))
        }
        if let origin = request.header("origin"), configuration.corsAllowedOrigins.contains(origin) {
            response.headers.append(("Access-Control-Allow-Origin", origin))
            response.headers.append(("Vary", "Origin"))
        }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        // Labels stay bounded whatever clients send: known methods, route patterns, "unmatched".
        let methodLabel = Self.knownMethods.contains(request.method) ? request.method : "OTHER"
        metrics.recordRequest(route: routeLabel, method: methodLabel, status: response.status, seconds: seconds)
        // Built only when it will be written: at LOG_LEVEL=warning this costs nothing.
        if logger.level <= .info {
            logger.info([
                "event": "request", "method": methodLabel, "route": routeLabel, "status": String(response.status),
                "duration_ms": String(Double(Int((seconds * 1_000_000).rounded())) / 1000), "client": client,
                "request_id": requestID,
            ])
        }
        return response
    }

    /// CORS preflight: allowed origins get the methods of the path; others get no CORS headers.
    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        let methods = router.methods(for: request.path)
        guard !methods.isEmpty else { return Problem.notFound.response }
        var response = HTTPResponse(status: 204, headers: [("Allow", (methods + ["OPTIONS"]).joined(separator: ", "))])
        if let origin = request.header("origin"), configuration.corsAllowedOrigins.contains(origin) {
            response.headers.append(("Access-Control-Allow-Methods", methods.joined(separator: ", ")))
            response.headers.append(("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-ID"))
            response.headers.append(("Access-Control-Max-Age", "600"))
        }
        return response
    }

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// A client's `X-Request-ID` when it is a short token, else a new UUID.
    static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.count),
            given.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        {
            return given
        }
        return UUID().uuidString.lowercased()
    }
}
