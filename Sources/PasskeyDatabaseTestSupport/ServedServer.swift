package import Foundation
internal import PasskeyTestSupport

/// The built `passkey-server serve`, as operators run it, on a throwaway database: the client's
/// end-to-end tests (and the example app's, Examples/PasskeyMigrationApp) reach it only over
/// HTTP, as an app does, so they need none of the server's types (the server's own tests start
/// it in-process instead).
package enum ServedServer {
    /// The web origin the software authenticator signs for (one of `PASSKEY_ORIGINS`).
    package static let origin = "http://localhost:8080"

    /// The environment of every served server; a test adds or overrides variables.
    package static let baseEnvironment: [String: String] = [
        "PASSKEY_RP_ID": "localhost", "PASSKEY_ORIGINS": origin, "RATE_LIMIT_STARTS_PER_MINUTE": "0",
        "HOST": "127.0.0.1", "PORT": "0", "DATABASE_POOL_SIZE": "8", "WEB_CLIENT": "off",
        // `info` logs the `event=listening … port=N` line the port is read from.
        "LOG_LEVEL": "info",
        // Stopped by SIGTERM after each test: no balancer to drain for.
        "SHUTDOWN_DRAIN_SECONDS": "0",
    ]

    package struct StartFailure: Error, CustomStringConvertible {
        let log: String
        package var description: String { "passkey-server did not report a port; its log:\n\(log)" }
    }

    /// Runs `body` with the base URL of a fresh server on a fresh database; stops the server
    /// (SIGTERM, then waits for its exit) and drops the database afterwards, also on failure.
    package static func with(environment: [String: String] = [:], _ body: (URL) async throws -> Void) async throws {
        try await with(environment: environment) { url, _ in try await body(url) }
    }

    /// The same, with the server's database too (for a test that seeds rows no flow of this
    /// version writes).
    package static func with(
        environment: [String: String] = [:], _ body: (URL, TestDatabase) async throws -> Void
    ) async throws {
        try await withTestDatabase { database, _ in
            let log = FileManager.default.temporaryDirectory
                .appendingPathComponent("client-e2e-\(UUID().uuidString).log").path
            defer { try? FileManager.default.removeItem(atPath: log) }
            var env = ProcessInfo.processInfo.environment.merging(baseEnvironment) { $1 }.merging(environment) { $1 }
            env["DATABASE_URL"] = database.conninfo
            env["PASSKEY_MIGRATIONS_DIR"] = PackagePaths.migrations.path
            let child = try ChildProcess.start(
                [PackagePaths.serverExecutable, "serve"], logFile: log, environment: env)
            do {
                let port = try await listeningPort(log: log)
                try await body(URL(string: "http://127.0.0.1:\(port)")!, database)
            } catch {
                child.signal(SIGTERM)
                _ = await child.exit()
                throw error
            }
            child.signal(SIGTERM)
            _ = await child.exit()
        }
    }

    /// Polls the log for the `event=listening` line (a start takes well under a second; the
    /// bound of 30 s only keeps a server that never starts from hanging the run).
    private static func listeningPort(log: String) async throws -> Int {
        for _ in 0..<1200 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains("event=listening") {
                if let range = line.range(of: " port="),
                    let port = Int(line[range.upperBound...].prefix(while: \.isNumber))
                {
                    return port
                }
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw StartFailure(log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
}
