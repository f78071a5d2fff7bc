import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

@Suite struct CommandLineTests {

    /// The built executable (next to the test bundle).
    static var executablePath: String { PackagePaths.serverExecutable }

    private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (
        status: Int32, output: String
    ) {
        try await runServerCommand(arguments, environment)
    }

    @Test func verifyResponseGivesEveryVectorsVerdict() async throws {
        let folder = PackagePaths.shared.appendingPathComponent("webauthn-vectors/vectors")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        try #require(files.count == 98, "the shared vectors must be present")
        let (status, output) = try await run(["verify-response"] + files.map { folder.appendingPathComponent($0).path })
        #expect(status == 0)
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("refused ") }
        #expect(lines.count == 98)
        #expect(lines.contains { $0.hasPrefix("ok auth-es256-localhost-pywebauthn ") && $0.contains("signCount=78") })
        #expect(lines.contains { $0 == "refused auth-es256-localhost-pywebauthn--wrong-origin reason=originMismatch" })
        let unreadable = try await run(["verify-response", "/nonexistent.json"])
        #expect(unreadable.status == 2)
        await #expect(try run(["verify-response", "--help"]).status == 0)
    }

    @Test func migrateAndConfigurationErrorsAreOneLine() async throws {
        let missing = try await run(["migrate"], environment: ["DATABASE_URL": ""])
        #expect(missing.status != 0)
        #expect(missing.output.contains("DATABASE_URL"))
        let unreachable = try await run(
            ["migrate"], environment: ["DATABASE_URL": "host=/nonexistent port=1 user=x dbname=y"])
        #expect(unreachable.status != 0)
        #expect(unreachable.output.split(separator: "\n").count == 1)
        let badPort = try await run(["serve"], environment: ["DATABASE_URL": "host=/tmp dbname=x", "PORT": "nope"])
        #expect(badPort.status != 0)
        #expect(badPort.output.contains("PORT"))
        for command in [
            "serve", "migrate", "sweep", "recovery-code", "healthcheck", "import-passwords", "verify-response",
            "adoption",
        ] {
            await #expect(try run([command, "--help"]).status == 0, "\(command) --help")
        }
    }

    /// The container health check through the real executable: 0 against a live server, 1 when
    /// nothing listens, `--ready` asks /readyz.
    @Test func healthcheckAnswersForTheLocalServer() async throws {
        try await withServer(transport: .socket) { server, _ in
            let port = String(server.server!.port)
            // A generous timeout: the whole suite shares two cores with this server.
            let live = try await self.run(["healthcheck", "--timeout", "60"], environment: ["PORT": port])
            #expect(live.status == 0, "\(live.output)")
            let ready = try await self.run(["healthcheck", "--ready", "--timeout", "60"], environment: ["PORT": port])
            #expect(ready.status == 0, "\(ready.output)")
        }
        let closed = try await run(["healthcheck"], environment: ["PORT": "1"])
        #expect(closed.status == 1)
        #expect(closed.output.contains("no answer"))
        await #expect(try run(["healthcheck", "--bogus"]).status == 2)
        await #expect(try run(["healthcheck", "--timeout", "0"]).status == 2)
    }

    /// Runs `passkey-server recovery-code --issued-by NAME EMAIL` on `database` (or the command
    /// with `arguments` instead, and `environment` added); stdout and stderr apart.
    static func recoveryCode(
        for email: String, issuedBy: String = "Mika (desk 3)", arguments: [String]? = nil, database: TestDatabase,
        environment: [String: String] = [:]
    ) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let folder = FileManager.default.temporaryDirectory
        let out = folder.appendingPathComponent("cli-out-\(UUID().uuidString).log").path
        let err = folder.appendingPathComponent("cli-err-\(UUID().uuidString).log").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        var env = ProcessInfo.processInfo.environment
        env["DATABASE_URL"] = database.conninfo
        env.removeValue(forKey: "PASSKEY_TEST_DATABASE_URL")
        env.merge(environment) { $1 }
        var status: Int32 = 0
        do {
            try await ChildProcess.run(
                [executablePath, "recovery-code"] + (arguments ?? ["--issued-by", issuedBy, email]), logFile: out,
                errorFile: err, environment: env)
        } catch let failure as ChildProcess.Failure {
            status = failure.status
        }
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        // The code it printed is a secret (SecretAudit: no event may hold it).
        SecretAudit.record(secret: stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        return (status, stdout, (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// The support desk's command through the real executable: the code alone on stdout, the
    /// operator action on stderr without it, and the code signs the user in once.
    @Test func recoveryCodeCommandIssuesOneSingleUseCode() async throws {
        try await withServer { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser()
            let issued = try await Self.recoveryCode(for: email.uppercased(), database: database)
            #expect(issued.status == 0)
            let lines = issued.stdout.split(separator: "\n")
            #expect(lines.count == 1)
            let code = String(try #require(lines.first))
            #expect(RecoveryTests.hasCodeShape(code))
            #expect(issued.stderr.contains("event=operator_recovery_code_issued"))
            #expect(issued.stderr.contains("level=warning"))
            #expect(issued.stderr.contains("issued_by=\"Mika (desk 3)\""))
            #expect(issued.stderr.contains("account_id="))
            #expect(!issued.stderr.contains(code))
            let session = try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": code])
            #expect(session.status == 200)
            #expect(session.string("method") == "recovery")
            #expect(
                try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": code]).status
                    == 401)

            let unknown = try await Self.recoveryCode(for: "nobody@example.com", database: database)
            #expect(unknown.status == 1)
            #expect(unknown.stdout.isEmpty)
            #expect(unknown.stderr.split(separator: "\n").count == 1)
            #expect(unknown.stderr.contains("no account"))
        }
    }

    /// Issuing a code voids the earlier unused one: of three issued before any use, only the last
    /// signs in (the finding: all three did). Without a valid `--issued-by` nothing is issued.
    @Test func recoveryCodeCommandKeepsOneLiveCodeAndNeedsItsIssuer() async throws {
        try await withServer { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser()
            var codes: [String] = []
            for issuer in ["Mika", "Jun", "Mika"] {
                let issued = try await Self.recoveryCode(for: email, issuedBy: issuer, database: database)
                #expect(issued.status == 0)
                #expect(issued.stderr.contains("issued_by=\(issuer)"))
                codes.append(issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(Set(codes).count == 3)
            for voided in codes.dropLast() {
                let refused = try await client.send(
                    "POST", "/v1/recovery/sessions", json: ["email": email, "code": voided])
                #expect(refused.status == 401)
                #expect(refused.code == "invalid-credentials")
            }
            let session = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[2]])
            #expect(session.status == 200)

            for arguments in [
                [email], ["--issued-by", email], ["--issued-by", "", email],
                ["--issued-by", "Mika\nlevel=info", email],
                ["--issued-by", "Mika\u{202E}", email], ["--issued-by=" + String(repeating: "M", count: 65), email],
                ["--issued-by", "Mika", "--issued-by", "Jun", email], ["--issued-by", "Mika", email, email],
                ["--issued-by", "Mika", "--bogus", email],
            ] {
                let refused = try await Self.recoveryCode(for: email, arguments: arguments, database: database)
                #expect(refused.status == 2, "\(arguments)")
                #expect(refused.stdout.isEmpty)
                #expect(refused.stderr.contains("usage: passkey-server recovery-code --issued-by NAME EMAIL"))
            }
            let accepted = try await Self.recoveryCode(
                for: email, arguments: ["--issued-by=Jun", email], database: database)
            #expect(accepted.status == 0)
            #expect(accepted.stderr.contains("issued_by=Jun"))
        }
    }

    @Test func importPasswordsIsAllOrNothingAndUsersSignInWithLegacyHashes() async throws {
        try await withTestDatabase { database, pool in
            // bcrypt of "correct horse battery staple" at cost 4 (made with Python's bcrypt package).
            let bcrypt = "$2b$04$cSLtjkxpAZcwPsDtveNc2.jTllJfJ1L8bKg0XTrl2vQFifoB8oAM6"
            let good = """
                {"email": "legacy1@example.com", "displayName": "Legacy One", "passwordHash": "\(bcrypt)"}
                {"email": "legacy2@example.com", "displayName": "Legacy Two", "passwordHash": "\(bcrypt)"}
                """
            let bad =
                good
                + "\n{\"email\": \"LEGACY1@example.com\", \"displayName\": \"Dup\", \"passwordHash\": \"\(bcrypt)\"}\n"
            let folder = FileManager.default.temporaryDirectory
            let badFile = folder.appendingPathComponent("import-bad-\(UUID().uuidString).jsonl")
            let goodFile = folder.appendingPathComponent("import-good-\(UUID().uuidString).jsonl")
            try bad.write(to: badFile, atomically: true, encoding: .utf8)
            try good.write(to: goodFile, atomically: true, encoding: .utf8)
            defer {
                try? FileManager.default.removeItem(at: badFile)
                try? FileManager.default.removeItem(at: goodFile)
            }
            let env = ["DATABASE_URL": database.conninfo]
            #expect(await ImportPasswordsCommand.run(arguments: [badFile.path], environment: env) == 1)
            let none = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT count(*) FROM accounts").first!.decode(Int.self, column: "count")
            }
            #expect(none == 0)
            #expect(await ImportPasswordsCommand.run(arguments: [goodFile.path], environment: env) == 0)

            let server = try TestServer(conninfo: database.conninfo)
            let session = try await server.client.send(
                "POST", "/v1/sessions",
                json: ["email": "legacy1@example.com", "password": "correct horse battery staple"])
            #expect(session.status == 200, "\(session.text)")
            let hash = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(
                    "SELECT p.password_hash FROM password_credentials p JOIN account_emails e USING (account_id) WHERE e.normalized_email = 'legacy1@example.com'"
                ).first!.decode(String.self, column: "password_hash")
            }
            #expect(hash.hasPrefix("$argon2id$"), "re-hashed on sign-in")
            await server.stop()
        }
    }
}

/// `serve` as operators run it: the real executable, stopped by SIGTERM.
@Suite struct ServeLifecycleTests {
    /// Starts `serve` on a fresh database with `environment` added, and returns the child, its
    /// port and its log's path once it listens.
    private static func serve(
        database: TestDatabase, environment: [String: String] = [:]
    ) async throws -> (ChildProcess.Running, Int, String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log").path
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["DATABASE_URL"] = database.conninfo
        env["PORT"] = "0"
        env["PASSKEY_MIGRATIONS_DIR"] = PackagePaths.migrations.path
        let child = try ChildProcess.start([CommandLineTests.executablePath, "serve"], logFile: log, environment: env)
        for _ in 0..<1200 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "port="), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) {
                return (child, port, log)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        child.signal(SIGKILL)
        _ = await child.exit()
        Issue.record("serve did not log its port: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        throw CancellationError()
    }

    /// (v3) SIGTERM drains first: `/readyz` turns 503 at once while the listener stays open and
    /// requests are still served (with `Connection: close`), and only after
    /// `SHUTDOWN_DRAIN_SECONDS` does the process stop and exit 0.
    @Test func sigtermDrainsBeforeTheListenerCloses() async throws {
        try await withTestDatabase { database, _ in
            let (child, port, log) = try await Self.serve(
                database: database, environment: ["SHUTDOWN_DRAIN_SECONDS": "4"])
            defer { try? FileManager.default.removeItem(atPath: log) }
            let client = TestHTTPClient(base: "http://127.0.0.1:\(port)")
            let before = try await client.send("GET", "/readyz")
            #expect(before.status == 200)
            #expect(before.headers["connection"] != "close")
            child.signal(SIGTERM)
            var draining = false
            for _ in 0..<200 where !draining {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                draining = text.contains("event=draining seconds=4")
                if !draining { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(draining, "the server logged that it drains")
            let ready = try await client.send("GET", "/readyz")
            #expect(ready.status == 503)
            #expect(ready.code == "service-unavailable")
            #expect(ready.headers["connection"] == "close")
            // Still serving while it drains: liveness and a whole request.
            #expect(try await client.send("GET", "/healthz").status == 200)
            let start = try await client.send("POST", "/v1/passkeys/authentications")
            #expect(start.status == 200)
            #expect(start.headers["connection"] == "close")
            let code = await child.exit()
            #expect(code == 0)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(text.contains("event=stopped"))
            // The listener is closed now.
            await #expect(throws: (any Error).self) { _ = try await client.send("GET", "/healthz") }
        }
    }

    /// SIGINT (Ctrl-C at a terminal) stops at once, without the drain.
    @Test func sigintSkipsTheDrain() async throws {
        try await withTestDatabase { database, _ in
            let (child, _, log) = try await Self.serve(
                database: database, environment: ["SHUTDOWN_DRAIN_SECONDS": "300"])
            defer { try? FileManager.default.removeItem(atPath: log) }
            child.signal(SIGINT)
            #expect(await child.exit() == 0)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(text.contains("event=shutdown signal=SIGINT"))
            #expect(!text.contains("event=draining"))
        }
    }

    @Test func sigtermFinishesTheRequestInFlightAndExitsZero() async throws {
        try await withTestDatabase { database, _ in
            let executable = CommandLineTests.executablePath
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log")
                .path
            defer { try? FileManager.default.removeItem(atPath: log) }
            var env = ProcessInfo.processInfo.environment
            env["DATABASE_URL"] = database.conninfo
            env["PORT"] = "0"
            env["PASSKEY_MIGRATIONS_DIR"] = PackagePaths.migrations.path
            env["SHUTDOWN_DRAIN_SECONDS"] = "0"
            let child = try ChildProcess.start([executable, "serve"], logFile: log, environment: env)
            var port: Int?
            for _ in 0..<200 where port == nil {
                try await Task.sleep(for: .milliseconds(25))
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: "port=") {
                    port = Int(text[range.upperBound...].prefix { $0.isNumber })
                }
            }
            let bound = try #require(port, "the server logged where it listens")
            let client = TestHTTPClient(base: "http://127.0.0.1:\(bound)")
            #expect(try await client.send("GET", "/readyz").status == 200)
            #expect(try await client.send("POST", "/v1/passkeys/authentications").status == 200)
            let password = "very secret password 1"
            let (token, _) = try await client.passwordUser(password: password)
            _ = try await client.send("POST", "/v1/sessions", json: ["email": "x@example.com", "password": password])
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let challenge = try #require(options.string("challenge"))
            child.signal(SIGTERM)
            let code = await child.exit()
            #expect(code == 0)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(text.contains("event=shutdown signal=SIGTERM"))
            #expect(text.contains("event=stopped"))
            // Logs never carry a password, a token or a challenge.
            #expect(
                text.contains("[PasswordAuthentication] step=password.verify event=failed reason=invalidCredentials"))
            #expect(!text.contains(password))
            #expect(!text.contains(token))
            #expect(!text.contains(challenge))
        }
    }
}
