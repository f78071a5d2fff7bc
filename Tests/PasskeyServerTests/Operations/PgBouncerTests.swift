import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The server behind Debian's PgBouncer 1.18 in transaction pooling mode (named prepared
/// statements and session state do not survive there) with `DATABASE_PREPARED_STATEMENTS=off`:
/// migrate, the ceremonies, the consume-once race and the attempt limits, all through it.
/// `make test` starts the PgBouncer (scripts/pgbouncer.sh); without it these tests fail loudly.
@Suite struct PgBouncerTests {
    private static let environment = ["DATABASE_PREPARED_STATEMENTS": "off", "RATE_LIMIT_PASSWORD_PER_EMAIL": "5"]

    /// Runs `body` against a server whose every connection goes through PgBouncer.
    private func withBouncedServer(_ body: (TestServer, TestDatabase) async throws -> Void) async throws {
        let database = try await TestDatabaseServer.shared.createDatabase()
        do {
            let server = try TestServer(
                conninfo: try TestDatabaseServer.pgBouncerConninfo(for: database), environment: Self.environment)
            do {
                try await body(server, database)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        } catch {
            try? await TestDatabaseServer.shared.drop(database)
            throw error
        }
        try await TestDatabaseServer.shared.drop(database)
    }

    @Test func migrateRunsThroughPgBouncerAndConcurrentRunsApplyEachFileOnce() async throws {
        let database = try await TestDatabaseServer.shared.createEmptyDatabase()
        let conninfo = try TestDatabaseServer.pgBouncerConninfo(for: database)
        let runner = MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations))
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let pool = PostgresConnectionPool(
                        configuration: .init(conninfo: conninfo, maximumConnections: 1, preparedStatements: false))
                    defer { pool.close() }
                    return try await runner.migrate(pool: pool)
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(applied.sorted() == runner.migrations.map(\.name).sorted())
        let pool = PostgresConnectionPool(
            configuration: .init(conninfo: conninfo, maximumConnections: 1, preparedStatements: false))
        #expect(await runner.isCurrent(pool: pool))
        pool.close()
        try await TestDatabaseServer.shared.drop(database)
    }

    @Test func theCeremoniesWorkThroughPgBouncer() async throws {
        try await withBouncedServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "through the bouncer")
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token, mode: "conditional").status == 204)
            let signIn = try await client.signIn(&passkey)
            #expect(signIn.status == 200)
            let account = try await client.send("GET", "/v1/account", token: token)
            #expect((account.json["passkeys"] as? [[String: Any]])?.first?["lastUsedAt"] is String)
            // Timestamps read right whatever the pooled server connection's TimeZone.
            let expiresAt = try #require(signIn.string("expiresAt").flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(expiresAt.timeIntervalSinceNow - 2_592_000) < 600)
            let codes = try await client.recoveryCodes(token: token)
            #expect(try await client.send("DELETE", "/v1/account/password", token: token).status == 204)
            let recovered = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
            #expect(recovered.status == 200)
            #expect(try await client.send("GET", "/readyz").status == 200)
        }
    }

    @Test func consumeOnceAndAttemptLimitsHoldThroughPgBouncer() async throws {
        try await withBouncedServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "the real one")
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let options = try await client.startSignIn()
            let body = try Array(JSONSerialization.data(withJSONObject: try passkey.assertionBody(options: options)))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await client.send("POST", "/v1/passkeys/authentications/finish", raw: body).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 400 }.count == 15)
            let guesses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await client.send(
                            "POST", "/v1/sessions", json: ["email": email, "password": "guess \(index)"]
                        )
                        .status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(guesses.filter { $0 == 401 }.count == 5)
        }
    }
}
