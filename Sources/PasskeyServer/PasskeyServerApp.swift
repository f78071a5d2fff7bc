internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP

/// The HTTP application of `serve`: wires the use cases over the composition root's ports
/// (`Dependencies`) into controllers, routes and the request pipeline. It names no adapter; the
/// composition root (`Composition/`) built them.
final class PasskeyServerApp: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let metrics: Metrics
    let router: Router
    let pipeline: RequestPipeline
    let maintenance: any MaintenanceRepository
    /// (v3) Set on SIGTERM for `SHUTDOWN_DRAIN_SECONDS`: `/readyz` 503, `Connection: close`.
    let drain: DrainState

    init(
        configuration: ServerConfiguration, dependencies: Dependencies, openAPI: [UInt8]?,
        webClient: WebClientFiles? = nil, logSink: @escaping @Sendable (String) -> Void = Logger.standardError
    ) throws(ConfigurationError) {
        self.configuration = configuration
        let policy = configuration.policy
        let logger = Logger(level: configuration.logLevel, sink: logSink)
        let metrics = Metrics()
        let drain = DrainState()
        let d = dependencies
        let useCases = UseCases(
            dependencies: d, policy: policy, tokens: configuration.tokens, operatorToken: configuration.operatorToken
        ) { error in
            // A failed sign-in whose event could not be written: the answer stood (401); the
            // cause is the operator's.
            logger.warning([.event: "account_event", .outcome: "unrecorded", .cause: FailureCause(error).logText])
        }
        let runner = HandlerRunner(
            bearer: useCases.bearerAuthentication, recentSignIn: useCases.recentSignIn, metrics: metrics)

        // Each controller registers its own routes under their kinds: the endpoints of one
        // resource path are in one file, named for the path.
        var routes = Routes(runner: runner)
        AccountsController(registration: useCases.passwordAccountRegistration).register(in: &routes)
        SessionsController(authentication: useCases.passwordAuthentication, signOut: useCases.signOut)
            .register(in: &routes)
        PasskeyRegistrationsController(
            start: useCases.passkeyRegistrationStart, finish: useCases.passkeyRegistrationFinish
        ).register(in: &routes)
        PasskeyAccountRegistrationsController(
            start: useCases.passkeyAccountRegistrationStart, finish: useCases.passkeyAccountRegistrationFinish
        ).register(in: &routes)
        PasskeyAuthenticationsController(
            start: useCases.passkeyAuthenticationStart, finish: useCases.passkeyAuthenticationFinish
        ).register(in: &routes)
        PasskeysController(
            list: useCases.passkeyList, rename: useCases.passkeyRename, deletion: useCases.passkeyDeletion
        )
        .register(in: &routes)
        AccountController(
            query: useCases.accountQuery, passwordRemoval: useCases.passwordRemoval, passwordSet: useCases.passwordSet,
            accountDeletion: useCases.accountDeletion
        ).register(in: &routes)
        AccountRecoveryCodesController(creation: useCases.recoveryCodeSetCreation).register(in: &routes)
        AccountSessionsController(list: useCases.sessionList, end: useCases.sessionEnd).register(in: &routes)
        AccountActivityController(activity: useCases.accountActivity).register(in: &routes)
        RecoverySessionsController(authentication: useCases.recoveryAuthentication).register(in: &routes)
        AccountEmailController(verification: useCases.emailVerification, change: useCases.emailChange)
            .register(in: &routes)
        RecoveryEmailController(request: useCases.recoveryEmailRequest, signIn: useCases.recoveryEmailAuthentication)
            .register(in: &routes)
        OperationsController(
            maintenance: d.maintenance, drain: drain, metrics: metrics, openAPI: openAPI,
            metricsToken: ConfiguredTokenCheck(token: configuration.metricsToken, digester: d.digester),
            passwordHashing: d.passwordHashingLoad, accountStages: useCases.accountStagesGauge
        ).register(in: &routes)
        // (v4) The operator endpoints: always routed; each answers 404 while no operator exists
        // and OPERATOR_TOKEN is unset, then checks the operator's token and role.
        let operators = useCases.operatorAuthorization
        OperatorAdoptionController(figures: useCases.adoptionFigures, authorization: operators).register(in: &routes)
        OperatorEventsController(feed: useCases.eventFeed, authorization: operators).register(in: &routes)
        OperatorAccountsController(
            lookup: useCases.supportAccountLookup, locking: useCases.accountLock,
            actions: useCases.supportAccountActions, recoveryCode: useCases.operatorRecoveryCode,
            authorization: operators
        ).register(in: &routes)
        OperatorWebhooksController(
            registration: useCases.webhookRegistration, list: useCases.webhookList, removal: useCases.webhookRemoval,
            rotation: useCases.webhookSecretRotation, authorization: operators
        ).register(in: &routes)
        let wellKnown: WellKnownDocuments
        do {
            wellKnown = try WellKnownDocuments(configuration: configuration)
        } catch {
            throw ConfigurationError(variable: "PASSKEY_APPLE_APP_IDS", problem: "cannot be encoded (\(error))")
        }
        WellKnownController(documents: wellKnown).register(in: &routes)
        TokensController(mint: useCases.serviceToken, keySet: useCases.keySet).register(in: &routes)
        if !configuration.tokens.introspectionClients.isEmpty {
            IntrospectionController(introspection: useCases.introspection, clients: useCases.introspectionClients)
                .register(in: &routes)
        }
        if configuration.webClientEnabled {
            WebClientController(files: webClient, operators: operators)
                .register(in: &routes)
        }

        // The pipeline, outermost first: every request passes each of these, in this order.
        let router = routes.router
        self.pipeline = RequestPipeline(
            [
                RequestIDMiddleware(),
                ClientAddressMiddleware(resolver: ClientAddressResolver(trustedProxies: configuration.trustedProxies)),
                AccessLogMiddleware(),
                MetricsMiddleware(metrics: metrics),
                CacheControlMiddleware(),
                CORSMiddleware(
                    allowedOrigins: configuration.corsAllowedOrigins, methods: { await router.methods(for: $0) }),
                HeadMiddleware(),
                DrainMiddleware(drain: drain),
            ], router: router, logger: logger)
        self.router = router
        self.logger = logger
        self.metrics = metrics
        self.maintenance = d.maintenance
        self.drain = drain
    }

    /// Every request passes here: the pipeline (`Pipeline/`), then the router.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await pipeline.respond(to: request)
    }
}
