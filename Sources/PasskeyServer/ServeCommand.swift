internal import Dispatch
internal import Foundation
internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyPersistence
internal import PasskeyWebAuthn

/// `passkey-server serve`: runs until SIGTERM or SIGINT, then stops accepting connections,
/// finishes the requests in flight (up to 10 s), stops the sweeper, closes the pool, exits 0.
enum ServeCommand {
    static func run(environment: [String: String]) async -> Int32 {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(from: environment)
        } catch {
            Console.error("passkey-server: \(error)")
            return 1
        }
        guard let migrationsFolder = ResourceLocator.migrations(environment),
            let migrations = try? Migration.load(from: migrationsFolder)
        else {
            Console.error("passkey-server: cannot read the Migrations folder (set PASSKEY_MIGRATIONS_DIR)")
            return 1
        }
        let openAPI = ResourceLocator.openAPI(environment).flatMap { FileManager.default.contents(atPath: $0.path) }
        let webClient: WebClientFiles?
        do {
            webClient = try loadWebClient(configuration: configuration, environment: environment)
        } catch {
            Console.error("passkey-server: \(error)")
            return 1
        }
        let trustAnchors: TrustAnchors
        do {
            trustAnchors = try configuration.loadTrustAnchors()
        } catch {
            Console.error("passkey-server: \(error)")
            return 1
        }
        let app: PasskeyServerApp
        do {
            app = try PasskeyServerApp(
                configuration: configuration, migrations: MigrationRunner(migrations: migrations),
                openAPI: openAPI.map { Array($0) }, webClient: webClient, trustAnchors: trustAnchors)
        } catch {
            Console.error("passkey-server: \(error)")
            return 1
        }
        let server = HTTPServer(
            configuration: .init(
                host: configuration.host, port: configuration.port,
                tooLarge: { Problem.payloadTooLarge.response },
                shutdownResponse: { Problem.unavailable.response },
                maximumConnections: configuration.httpMaxConnections,
                maximumConnectionsPerAddress: configuration.httpMaxConnectionsPerAddress,
                requestHeadTimeoutSeconds: configuration.httpRequestHeadTimeoutSeconds,
                layerError: { Problem.httpLayer(status: $0).response }, taskExecutor: app.pool.loop),
            handler: app.handle)
        // A closed log pipe or client socket must not kill the server: writes report EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
        let signals = SignalWaiter(signals: [SIGTERM, SIGINT])
        do {
            try server.start()
        } catch {
            Console.error("passkey-server: cannot listen on \(configuration.host):\(configuration.port): \(error)")
            return 1
        }
        app.logger.info([
            "event": "listening", "host": configuration.host, "port": String(server.port),
            "rp_id": configuration.policy.relyingPartyID,
        ])
        if configuration.webClientEnabled, webClient == nil {
            app.logger.warning([
                "event": "web_client", "outcome": "missing",
                "detail": "no WebClient folder found (set PASSKEY_WEB_CLIENT_DIR); / answers 404",
            ])
        }
        let sweeper = Task { await sweep(app) }
        let signal = await signals.wait()
        app.logger.info(["event": "shutdown", "signal": signal == SIGTERM ? "SIGTERM" : "SIGINT"])
        await server.shutdown(gracePeriod: .seconds(10))
        sweeper.cancel()
        await sweeper.value
        app.pool.close()
        app.logger.info(["event": "stopped"])
        return 0
    }

    /// The web client's files when `WEB_CLIENT` is on: a folder named by `PASSKEY_WEB_CLIENT_DIR`
    /// must load; a folder found by looking around may be missing (nil, logged at start).
    private static func loadWebClient(
        configuration: ServerConfiguration, environment: [String: String]
    ) throws(ConfigurationError) -> WebClientFiles? {
        guard configuration.webClientEnabled, let folder = ResourceLocator.webClient(environment) else { return nil }
        return try WebClientFiles.load(from: folder)
    }

    /// Deletes expired rows every minute in bounded batches, until cancelled.
    private static func sweep(_ app: PasskeyServerApp) async {
        while !Task.isCancelled {
            do {
                let deleted = try await app.maintenance.sweepExpired(batchSize: 500)
                if deleted > 0 { app.logger.info(["event": "sweep", "deleted": String(deleted)]) }
            } catch {
                app.logger.warning(["event": "sweep", "outcome": "failed", "error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(60))
        }
    }
}
