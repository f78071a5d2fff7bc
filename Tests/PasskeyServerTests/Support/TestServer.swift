import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyEventLoop
import PasskeyHTTP
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Synchronization

@testable import PasskeyServer

/// The real server (composition root, pipeline, router, use cases, PostgreSQL adapters) on a
/// throwaway database, reached either through libmicrohttpd on a real socket (127.0.0.1, any free
/// port: `.socket`, for tests of the HTTP layer, connections and threads) or in process, each
/// request handed to the application's pipeline as libmicrohttpd would hand it (`.inProcess`, the
/// default for endpoint tests: no socket, the same code from the pipeline inwards).
final class TestServer: Sendable {
    enum Transport: Sendable {
        case socket
        case inProcess
    }

    let root: CompositionRoot
    let app: PasskeyServerApp
    /// The HTTP server, for `.socket`.
    let server: HTTPServer?
    let client: TestHTTPClient
    /// The background mail sender, as `serve` runs it, when mail is on.
    let mailer: Task<Void, Never>?
    /// (v4) The background webhook sender, as `serve` runs it, when `DATA_ENCRYPTION_KEY` is set.
    let webhookSender: Task<Void, Never>?

    static let origin = "http://localhost:8080"

    /// Test defaults: generous limits (tests that exercise limits set their own).
    static let baseEnvironment: [String: String] = [
        "PASSKEY_RP_ID": "localhost", "PASSKEY_ORIGINS": origin, "RATE_LIMIT_STARTS_PER_MINUTE": "0",
        "HOST": "127.0.0.1", "PORT": "0", "LOG_LEVEL": "error", "DATABASE_POOL_SIZE": "8",
    ]

    init(
        conninfo: String, environment: [String: String] = [:], clock: any WallClock = SystemClock(),
        logSink: @escaping @Sendable (String) -> Void = Logger.standardError, servesAsConfigured: Bool = false,
        threads: ThreadObserver? = nil, transport: Transport = .inProcess
    ) throws {
        var env = Self.baseEnvironment.merging(environment) { $1 }
        env["DATABASE_URL"] = conninfo
        let configuration = try ServerConfiguration.load(from: env)
        let openAPI = FileManager.default.contents(
            atPath: PackagePaths.root.appendingPathComponent("openapi.json").path)
        var statementObserver: (@Sendable () -> Void)?
        if let threads {
            statementObserver = { threads.record(.statement(EventLoop.current?.index)) }
        }
        let root = try CompositionRoot(
            configuration: configuration, migrationsFolder: PackagePaths.migrations, clock: clock,
            statementObserver: statementObserver)
        do {
            let webClient =
                configuration.webClientEnabled
                ? try WebClientFiles.load(
                    from: PackagePaths.root.appendingPathComponent("WebClient"), digester: root.dependencies.digester)
                : nil
            app = try PasskeyServerApp(
                configuration: configuration, dependencies: root.dependencies, openAPI: openAPI.map { Array($0) },
                webClient: webClient, logSink: logSink)
            let app = self.app
            guard transport == .socket else {
                server = nil
                self.root = root
                client = TestHTTPClient { request in await app.handle(request) }
                mailer = ServeCommand.startMailDelivery(root: root, app: app)
                webhookSender = ServeCommand.startWebhookDelivery(root: root, app: app)
                return
            }
            var http = HTTPServer.Configuration(
                host: "127.0.0.1", port: 0, tooLarge: { Problem.payloadTooLarge.response },
                loops: root.dependencies.loops)
            if servesAsConfigured {
                // `serve`'s own HTTP configuration (its connection limits), on any free port.
                http = ServeCommand.httpConfiguration(configuration, loops: root.dependencies.loops)
                http.host = "127.0.0.1"
                http.port = 0
            }
            server = HTTPServer(
                configuration: http,
                handler: { request in
                    threads?.record(.read(request.eventLoopIndex, request.path))
                    threads?.record(.handlerStart(EventLoop.current?.index))
                    let response = await app.handle(request)
                    threads?.record(.handlerEnd(EventLoop.current?.index))
                    return response
                })
            try server?.start()
            mailer = ServeCommand.startMailDelivery(root: root, app: app)
            webhookSender = ServeCommand.startWebhookDelivery(root: root, app: app)
        } catch {
            root.shutdown()
            throw error
        }
        self.root = root
        client = TestHTTPClient(base: "http://127.0.0.1:\(server?.port ?? 0)")
    }

    func stop() async {
        await server?.shutdown(gracePeriod: .seconds(5))
        mailer?.cancel()
        webhookSender?.cancel()
        await mailer?.value
        await webhookSender?.value
        root.shutdown()
    }
}

/// Records, in order, which event loop read each request, ran its handler and sent each statement.
final class ThreadObserver: Sendable {
    enum Event: Equatable, Sendable {
        case read(Int?, String)
        case handlerStart(Int?)
        case statement(Int?)
        case handlerEnd(Int?)
    }

    private let events = Mutex<[Event]>([])

    func record(_ event: Event) { events.withLock { $0.append(event) } }
    var all: [Event] { events.withLock { $0 } }
    func reset() { events.withLock { $0 = [] } }
}

/// Runs `body` against a fresh server on a fresh database; stops and drops both afterwards.
func withServer(
    environment: [String: String] = [:], clock: any WallClock = SystemClock(),
    logSink: @escaping @Sendable (String) -> Void = Logger.standardError, servesAsConfigured: Bool = false,
    threads: ThreadObserver? = nil, transport: TestServer.Transport = .inProcess,
    _ body: (TestServer, TestDatabase) async throws -> Void
) async throws {
    try await withTestDatabase { database, _ in
        let server = try TestServer(
            conninfo: database.conninfo, environment: environment, clock: clock, logSink: logSink,
            servesAsConfigured: servesAsConfigured, threads: threads,
            transport: servesAsConfigured || threads != nil ? .socket : transport)
        do {
            try await body(server, database)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
