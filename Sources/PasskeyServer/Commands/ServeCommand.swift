internal import Dispatch
internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyEventLoop
internal import PasskeyHTTP
internal import PasskeyWire

/// `passkey-server serve`: configuration, then a `ServiceGroup` (`Lifecycle/`) that runs until
/// SIGTERM or SIGINT. On SIGTERM the drain goes first for `SHUTDOWN_DRAIN_SECONDS` (`/readyz`
/// 503, answers with `Connection: close`, requests still served) so a balancer stops routing
/// here; SIGINT (Ctrl-C at a terminal) skips the drain. Then the HTTP server stops accepting
/// connections, finishes the requests in flight (up to 10 s) and closes idle keep-alive
/// connections, the mail sender and the sweeper stop (waiting for a transfer in progress), the
/// pool closes, and the process exits 0.
enum ServeCommand {
    static func run(environment: [String: String]) async -> Int32 {
        let root: CompositionRoot
        do {
            root = try CompositionRoot.fromEnvironment(environment)
        } catch {
            Console.error("passkey-server: \(error)")
            return 1
        }
        let configuration = root.configuration
        let openAPI = ResourceLocator.openAPI(environment).flatMap { FileManager.default.contents(atPath: $0.path) }
        let app: PasskeyServerApp
        let webClient: WebClientFiles?
        do {
            webClient = try loadWebClient(
                configuration: configuration, environment: environment, digester: root.dependencies.digester)
            app = try PasskeyServerApp(
                configuration: configuration, dependencies: root.dependencies, openAPI: openAPI.map { Array($0) },
                webClient: webClient)
        } catch {
            Console.error("passkey-server: \(error)")
            root.shutdown()
            return 1
        }
        var problem = await checkSigningKeys(root: root, app: app)
        if problem == nil { problem = await checkWebhookSecrets(root: root, app: app) }
        if let problem {
            Console.error("passkey-server: \(problem)")
            root.shutdown()
            return 1
        }
        let server = HTTPServer(
            configuration: httpConfiguration(configuration, loops: root.dependencies.loops),
            handler: app.handle)
        // A closed log pipe or client socket must not kill the server: writes report EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
        let signals = SignalWaiter(signals: [SIGTERM, SIGINT])
        do {
            try server.start()
        } catch {
            Console.error("passkey-server: cannot listen on \(configuration.host):\(configuration.port): \(error)")
            root.shutdown()
            return 1
        }
        app.logger.info([
            .event: "listening", .host: configuration.host, .port: String(server.port),
            .relyingPartyID: configuration.policy.relyingPartyID,
        ])
        if configuration.webClientEnabled, webClient == nil {
            app.logger.warning([
                .event: "web_client", .outcome: "missing",
                .detail: "no WebClient folder found (set PASSKEY_WEB_CLIENT_DIR); / answers 404",
            ])
        }
        // Started in this order, shut down in reverse: the mail sender is asked first (it finishes
        // the transfer in flight and gives the rest of its batch back, while the drain runs), then
        // the drain (SIGTERM only), then the listener and the requests in flight, then the
        // sweeper; the group waits for every loop, then the pool closes.
        var services: [any Service] = [
            TaskService(name: "sweeper") { await sweep(app) }, HTTPServerService(server: server),
            DrainService(drain: app.drain, seconds: configuration.shutdownDrainSeconds, logger: app.logger),
        ]
        if let mailer = mailDelivery(root: root, app: app) { services.append(TaskService(name: "mail", mailer.run)) }
        if let sender = webhookDelivery(root: root, app: app) {
            services.append(TaskService(name: "webhooks", sender.run))
        }
        if let rotation = root.useCases.signingKeyRotation {
            services.append(TaskService(name: "signing-keys") { await rotateKeys(rotation, app: app) })
        }
        await ServiceGroup(services: services, logger: app.logger).run(until: signals)
        // The pool's connections close, then the event loop's thread ends and is joined.
        root.shutdown()
        app.logger.info([.event: "stopped"])
        return 0
    }

    /// The HTTP layer's configuration: address, limits (trusted proxies are not counted by the
    /// per-address connection limit) and the problem+json answers it gives by itself.
    static func httpConfiguration(
        _ configuration: ServerConfiguration, loops: EventLoopGroup?
    ) -> HTTPServer.Configuration {
        let proxies = ClientAddressResolver(trustedProxies: configuration.trustedProxies)
        return HTTPServer.Configuration(
            host: configuration.host, port: configuration.port,
            tooLarge: { Problem.payloadTooLarge.response },
            shutdownResponse: { Problem.unavailable.response },
            maximumConnections: configuration.httpMaxConnections,
            maximumConnectionsPerAddress: configuration.httpMaxConnectionsPerAddress,
            isUnlimitedPeer: { proxies.isTrusted($0) },
            requestHeadTimeoutSeconds: configuration.httpRequestHeadTimeoutSeconds,
            requestBodyTimeoutSeconds: configuration.httpRequestBodyTimeoutSeconds,
            layerError: { Problem.httpLayer(status: $0.code).response },
            overloaded: { Problem.tooManyConnections.response }, loops: loops)
    }

    /// The web client's files when `WEB_CLIENT` is on: a folder named by `PASSKEY_WEB_CLIENT_DIR`
    /// must load; a folder found by looking around may be missing (nil, logged at start).
    private static func loadWebClient(
        configuration: ServerConfiguration, environment: [String: String], digester: any SecretDigester
    ) throws(ConfigurationError) -> WebClientFiles? {
        guard configuration.webClientEnabled, let folder = ResourceLocator.webClient(environment) else { return nil }
        return try WebClientFiles.load(from: folder, digester: digester)
    }

    /// (v3) The background mail sender, when mail is on, started in a task of its own (what the
    /// tests' servers run; `serve` runs it as a service).
    static func startMailDelivery(root: CompositionRoot, app: PasskeyServerApp) -> Task<Void, Never>? {
        guard let loop = mailDelivery(root: root, app: app) else { return nil }
        return Task { await loop.run() }
    }

    /// (v3) The background mail sender, when mail is on; says where mails go (the folder, or the
    /// relay's host and port: never credentials).
    static func mailDelivery(root: CompositionRoot, app: PasskeyServerApp) -> MailDeliveryLoop? {
        guard let settings = root.configuration.mail, let transport = root.dependencies.mailTransport else {
            return nil
        }
        app.logger.info([.event: "mail", .outcome: "on", .destination: transport.destination])
        let d = root.dependencies
        let batchSize = 20
        let loop = MailDeliveryLoop(
            sender: MailOutboxSender(
                outbox: d.mailOutbox, transport: transport, clock: d.clock, random: d.random,
                maxAttempts: settings.maxAttempts, batchSize: batchSize, lease: settings.lease,
                backoff: MailRetryBackoff(base: settings.retryBase)),
            outbox: d.mailOutbox, metrics: app.metrics.mail, logger: app.logger, pollInterval: settings.pollInterval,
            batchSize: batchSize)
        return loop
    }

    /// (v4) The background webhook sender, when `DATA_ENCRYPTION_KEY` is set, started in a task of
    /// its own (what the tests' servers run; `serve` runs it as a service).
    static func startWebhookDelivery(root: CompositionRoot, app: PasskeyServerApp) -> Task<Void, Never>? {
        guard let loop = webhookDelivery(root: root, app: app) else { return nil }
        return Task { await loop.run() }
    }

    /// (v4) The background webhook sender; nil without `DATA_ENCRYPTION_KEY` (no endpoint can be
    /// registered, and none stored could be signed for).
    static func webhookDelivery(root: CompositionRoot, app: PasskeyServerApp) -> WebhookDeliveryLoop? {
        let configuration = root.configuration
        guard
            let sender = root.useCases.webhookSender(
                timeoutSeconds: configuration.webhookTimeoutSeconds, maxAttempts: configuration.webhookMaxAttempts)
        else { return nil }
        return WebhookDeliveryLoop(
            sender: sender, deliveries: root.dependencies.webhookDeliveries, metrics: app.metrics.webhooks,
            logger: app.logger)
    }

    /// (v4) `DATA_ENCRYPTION_KEY` must open every stored webhook secret, as every signing key; an
    /// endpoint stored while the key is unset cannot be signed for, which is said at start.
    static func checkWebhookSecrets(root: CompositionRoot, app: PasskeyServerApp) async -> String? {
        let d = root.dependencies
        let secrets: [(id: WebhookID, sealed: [UInt8])]
        do {
            secrets = try await d.webhooks.sealedSecrets()
        } catch {
            app.logger.warning([.event: "webhook_secrets", .outcome: "unchecked", .cause: FailureCause(error).logText])
            return nil
        }
        guard let sealer = d.sealer else {
            if !secrets.isEmpty {
                app.logger.warning([
                    .event: "webhooks", .outcome: "off",
                    .detail: "webhook endpoints exist but DATA_ENCRYPTION_KEY is unset: nothing is sent to them",
                ])
            }
            return nil
        }
        for secret in secrets where sealer.open(secret.sealed, context: secret.id.description) == nil {
            return "invalid configuration: DATA_ENCRYPTION_KEY: cannot open the stored secret of webhook \(secret.id)"
                + " (set the key it was made with, or remove the webhook: docs/webhooks.md)"
        }
        return nil
    }

    /// (v4) `DATA_ENCRYPTION_KEY` must open every stored signing key: a key that does not is a
    /// configuration error that stops the server at start, with one line naming the variable.
    /// (A database that cannot answer now is not: the periodic check tries again.)
    static func checkSigningKeys(root: CompositionRoot, app: PasskeyServerApp) async -> String? {
        let d = root.dependencies
        guard let sealer = d.sealer else { return nil }
        let keys: [SigningKey]
        do {
            keys = try await d.signingKeys.keys(includingRevoked: false)
        } catch {
            app.logger.warning([.event: "signing_keys", .outcome: "unchecked", .cause: FailureCause(error).logText])
            return nil
        }
        for key in keys where sealer.open(key.sealedPrivateKey, context: key.id.value) == nil {
            return "invalid configuration: DATA_ENCRYPTION_KEY: cannot open the stored signing key \(key.id)"
                + " (set the key it was made with; docs/tokens.md says how to replace a lost key)"
        }
        return nil
    }

    /// (v4) The signing keys' periodic check, every minute until cancelled: the first key, then
    /// the next one every `TOKEN_KEY_ROTATION_DAYS` (one instance makes it; the others find it).
    @Sendable private static func rotateKeys(_ rotation: SigningKeyRotationUseCase, app: PasskeyServerApp) async {
        while !Task.isCancelled {
            do {
                if let made = try await rotation.ensure() {
                    app.logger.info([
                        .event: "signing_key", .outcome: "made",
                        .detail: "\(made.key.id) signs from \(WireJSON.timestamp(made.key.signsFrom))",
                    ])
                }
            } catch {
                app.logger.warning([.event: "signing_key", .outcome: "failed", .cause: "\(error)"])
            }
            try? await Task.sleep(for: .seconds(60))
        }
    }

    /// Deletes expired rows every minute in bounded batches, until cancelled.
    @Sendable private static func sweep(_ app: PasskeyServerApp) async {
        while !Task.isCancelled {
            do {
                let deleted = try await app.maintenance.sweepExpired(batchSize: 500)
                if deleted > 0 { app.logger.info([.event: "sweep", .deleted: String(deleted)]) }
            } catch {
                app.logger.warning([.event: "sweep", .outcome: "failed", .error: FailureCause(error).logText])
            }
            // Cancellation (shutdown) ends the sleep early; the loop then sees it and stops.
            try? await Task.sleep(for: .seconds(60))
        }
    }
}
