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
        let (accounts, passkeys, sessions, rateLimits) = (d.accounts, d.passkeys, d.sessions, d.rateLimits)
        let (passkeyRegistrations, passkeyAuthentications) = (d.passkeyRegistrations, d.passkeyAuthentications)
        let (registrations, recoveryCodes, maintenance) = (d.accountRegistrations, d.recoveryCodes, d.maintenance)
        let (verifier, hasher, tokens, random, digester) = (d.verifier, d.hasher, d.tokens, d.random, d.digester)
        let (names, clock) = (d.names, d.clock)
        let notifier = SecurityNotifier(policy: policy, random: random)
        // Activity-log entries, written by the repositories with their changes (spec v3).
        let events = AccountEventMaker(random: random)
        let issuer = SessionIssuer(tokens: tokens, random: random, lifetime: policy.sessionLifetime)
        let limiter = AddressRateLimiter(
            repository: rateLimits, limitPerMinute: policy.startsPerMinute, signupLimit: policy.signupsPerAddress,
            signupWindowSeconds: Int(policy.passwordFailureWindow))
        // One gate for every kind of attempt: passwords and recovery codes share their limits.
        let gate = AttemptGate()
        let ceremonies = CeremonyRecorder(logger: logger, metrics: metrics)
        let runner = HandlerRunner(
            bearer: BearerAuthenticationUseCase(sessions: sessions, tokens: tokens, clock: clock),
            recentSignIn: RecentSignInRequirement(policy: policy, clock: clock), logger: logger)

        // Each controller registers its own routes under their kinds: the endpoints of one
        // resource path are in one file, named for the path.
        var routes = Routes(runner: runner)
        let emailCodes = d.emailCodes
        let codeMaker = EmailCodeMaker(random: random, digester: digester)
        let composer = MailComposer(relyingPartyName: policy.relyingPartyName)
        let signUpVerification = SignUpVerification(maker: codeMaker, composer: composer, policy: policy.mail)
        AccountsController(
            registration: PasswordAccountRegistrationUseCase(
                accounts: accounts, hasher: hasher, limiter: limiter, clock: clock, verification: signUpVerification,
                events: events)
        ).register(in: &routes)
        SessionsController(
            authentication: PasswordAuthenticationUseCase(
                accounts: accounts, sessions: sessions, rateLimits: rateLimits, hasher: hasher, issuer: issuer,
                policy: policy, clock: clock, gate: gate, events: events),
            signOut: SignOutUseCase(sessions: sessions, clock: clock), ceremonies: ceremonies, logger: logger
        ).register(in: &routes)
        PasskeyRegistrationsController(
            start: PasskeyRegistrationStartUseCase(
                accounts: accounts, registrations: passkeyRegistrations, limiter: limiter, random: random,
                policy: policy, clock: clock),
            finish: PasskeyRegistrationFinishUseCase(
                registrations: passkeyRegistrations, verifier: verifier, names: names, policy: policy,
                notifier: notifier, clock: clock, events: events),
            ceremonies: ceremonies
        ).register(in: &routes)
        PasskeyAccountRegistrationsController(
            start: PasskeyAccountRegistrationStartUseCase(
                registrations: registrations, limiter: limiter, random: random, policy: policy, clock: clock),
            finish: PasskeyAccountRegistrationFinishUseCase(
                registrations: registrations, verifier: verifier, names: names, issuer: issuer, limiter: limiter,
                policy: policy, clock: clock, verification: signUpVerification, events: events),
            ceremonies: ceremonies
        ).register(in: &routes)
        PasskeyAuthenticationsController(
            start: PasskeyAuthenticationStartUseCase(
                authentications: passkeyAuthentications, limiter: limiter, random: random, policy: policy,
                clock: clock),
            finish: PasskeyAuthenticationFinishUseCase(
                authentications: passkeyAuthentications, verifier: verifier, issuer: issuer, policy: policy,
                clock: clock, events: events),
            ceremonies: ceremonies
        ).register(in: &routes)
        PasskeysController(
            list: PasskeyListUseCase(passkeys: passkeys),
            rename: PasskeyRenameUseCase(passkeys: passkeys, clock: clock, events: events),
            deletion: PasskeyDeletionUseCase(passkeys: passkeys, notifier: notifier, clock: clock, events: events)
        ).register(in: &routes)
        AccountController(
            query: AccountQueryUseCase(accounts: accounts),
            passwordRemoval: PasswordRemovalUseCase(
                accounts: accounts, notifier: notifier, clock: clock, mail: policy.mail, events: events),
            passwordSet: PasswordSetUseCase(
                accounts: accounts, hasher: hasher, notifier: notifier, clock: clock, events: events),
            accountDeletion: AccountDeletionUseCase(accounts: accounts, notifier: notifier, clock: clock),
            logger: logger
        ).register(in: &routes)
        AccountRecoveryCodesController(
            creation: RecoveryCodeSetCreationUseCase(
                recoveryCodes: recoveryCodes, random: random, digester: digester, notifier: notifier, clock: clock),
            logger: logger
        ).register(in: &routes)
        AccountSessionsController(
            list: SessionListUseCase(sessions: sessions, clock: clock),
            end: SessionEndUseCase(sessions: sessions, clock: clock, events: events)
        ).register(in: &routes)
        AccountActivityController(activity: AccountActivityUseCase(events: d.accountEvents)).register(in: &routes)
        RecoverySessionsController(
            authentication: RecoveryAuthenticationUseCase(
                recoveryCodes: recoveryCodes, rateLimits: rateLimits, digester: digester, issuer: issuer,
                policy: policy, notifier: notifier, clock: clock, gate: gate, events: events),
            ceremonies: ceremonies, logger: logger
        ).register(in: &routes)
        AccountEmailController(
            verification: EmailVerificationUseCase(
                codes: emailCodes, accounts: accounts, rateLimits: rateLimits, maker: codeMaker, composer: composer,
                policy: policy, clock: clock, gate: gate),
            change: EmailChangeUseCase(
                codes: emailCodes, accounts: accounts, rateLimits: rateLimits, maker: codeMaker, composer: composer,
                policy: policy, clock: clock, gate: gate),
            logger: logger
        ).register(in: &routes)
        RecoveryEmailController(
            request: EmailRecoveryRequestUseCase(
                codes: emailCodes, limiter: limiter, maker: codeMaker, composer: composer, policy: policy,
                clock: clock),
            signIn: EmailSignInUseCase(
                codes: emailCodes, rateLimits: rateLimits, maker: codeMaker, issuer: issuer, notifier: notifier,
                policy: policy, clock: clock, gate: gate),
            logger: logger
        ).register(in: &routes)
        OperationsController(
            maintenance: maintenance, drain: drain, metrics: metrics, openAPI: openAPI,
            metricsToken: ConfiguredTokenCheck(token: configuration.metricsToken, digester: digester),
            passwordHashing: d.passwordHashingLoad,
            accountStages: AccountStagesGauge(adoption: d.adoption, clock: clock)
        ).register(in: &routes)
        if let operatorToken = configuration.operatorToken {
            OperatorController(
                figures: AdoptionFiguresUseCase(adoption: d.adoption, clock: clock),
                token: ConfiguredTokenCheck(token: operatorToken, digester: digester)
            ).register(in: &routes)
        }
        let wellKnown: WellKnownDocuments
        do {
            wellKnown = try WellKnownDocuments(configuration: configuration)
        } catch {
            throw ConfigurationError(variable: "PASSKEY_APPLE_APP_IDS", problem: "cannot be encoded (\(error))")
        }
        WellKnownController(documents: wellKnown).register(in: &routes)
        if configuration.webClientEnabled {
            WebClientController(files: webClient, operatorPageEnabled: configuration.operatorToken != nil)
                .register(in: &routes)
        }

        // The pipeline, outermost first: every request passes each of these, in this order.
        let router = routes.router
        self.pipeline = RequestPipeline(
            [
                RequestIDMiddleware(),
                ClientAddressMiddleware(
                    resolver: ClientAddressResolver(trustedProxies: configuration.trustedProxies), logger: logger),
                AccessLogMiddleware(logger: logger),
                MetricsMiddleware(metrics: metrics),
                CacheControlMiddleware(),
                CORSMiddleware(allowedOrigins: configuration.corsAllowedOrigins, methods: router.methods(for:)),
                HeadMiddleware(),
                DrainMiddleware(drain: drain),
            ], router: router)
        self.router = router
        self.logger = logger
        self.metrics = metrics
        self.maintenance = maintenance
        self.drain = drain
    }

    /// Every request passes here: the pipeline (`Pipeline/`), then the router.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await pipeline.respond(to: request)
    }
}
