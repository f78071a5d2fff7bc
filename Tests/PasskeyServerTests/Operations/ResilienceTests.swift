import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct ResilienceTests {
    /// With the database down the API answers 503 service-unavailable (health stays 200), and it
    /// recovers without a restart once the database is back.
    @Test func databaseDownIs503AndRecoveryNeedsNoRestart() async throws {
        let cluster = try ThrowawayCluster()
        defer { cluster.destroy() }
        let setup = PostgresConnectionPool(configuration: .init(conninfo: cluster.conninfo, maximumConnections: 1))
        _ = try await MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations)).migrate(
            pool: setup)
        setup.close()

        let server = try TestServer(conninfo: cluster.conninfo)
        let client = server.client
        let (token, _) = try await client.passwordUser()
        #expect(try await client.send("GET", "/readyz").status == 200)

        try cluster.stop()
        for _ in 0..<3 {
            let down = try await client.send("GET", "/v1/account", token: token)
            #expect(down.status == 503)
            #expect(down.code == "service-unavailable")
            #expect(!down.text.contains("PostgreSQL") && !down.text.contains("connection to server"))
        }
        #expect(try await client.send("POST", "/v1/passkeys/authentications").status == 503)
        #expect(try await client.send("GET", "/healthz").status == 200)
        #expect(try await client.send("GET", "/readyz").status == 503)

        try cluster.start()
        #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
        #expect(try await client.send("GET", "/readyz").status == 200)
        await server.stop()
    }

    /// Operators scale out: a ceremony started on one instance finishes on another, and rate
    /// limits count across both.
    @Test func twoInstancesShareCeremoniesAndLimits() async throws {
        try await withTestDatabase { database, _ in
            let environment = ["RATE_LIMIT_STARTS_PER_MINUTE": "4", "RATE_LIMIT_PASSWORD_PER_EMAIL": "2"]
            let first = try TestServer(conninfo: database.conninfo, environment: environment)
            let second = try TestServer(conninfo: database.conninfo, environment: environment)
            let (token, email) = try await first.client.passwordUser()

            var passkey = try TestPasskey()
            let options = try await first.client.send("POST", "/v1/passkeys/registrations", token: token)
            let body = try passkey.registrationBody(options: options.json)
            #expect(
                try await second.client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
                    .status == 204)

            let signIn = try await second.client.startSignIn()
            let assertion = try passkey.assertionBody(options: signIn)
            #expect(
                try await first.client.send("POST", "/v1/passkeys/authentications/finish", json: assertion).status
                    == 200)

            // Starts so far: 2 (one per instance). Two more allowed, then both instances refuse.
            #expect(try await first.client.send("POST", "/v1/passkeys/authentications").status == 200)
            #expect(try await second.client.send("POST", "/v1/passkeys/authentications").status == 200)
            #expect(try await first.client.send("POST", "/v1/passkeys/authentications").status == 429)
            #expect(try await second.client.send("POST", "/v1/passkeys/authentications").status == 429)

            // Password failures counted on one instance limit the other.
            _ = try await first.client.send("POST", "/v1/sessions", json: ["email": email, "password": "wrong-1"])
            _ = try await second.client.send("POST", "/v1/sessions", json: ["email": email, "password": "wrong-2"])
            let limited = try await first.client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
            #expect(limited.status == 429)
            await first.stop()
            await second.stop()
        }
    }
}
