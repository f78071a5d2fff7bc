import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// Spec v2: a 500 says nothing more than `internal` to the client, and logs one `error` line
/// with the request ID, the step and the cause for the operator. Before, the log said only
/// `reason=internal`.
@Suite struct InternalErrorLoggingTests {
    @Test func aDatabaseErrorIsLoggedWithItsCauseAndTheRequestID() async throws {
        let log = LogCapture()
        try await withServer(environment: ["LOG_LEVEL": "info"], logSink: log.sink) { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser(password: "a secret password")
            // Break the schema under the running server: the attempt table disappears.
            let pool = database.makePool(maximumConnections: 1)
            _ = try await pool.withConnection { connection async throws(PostgresError) in
                try await connection.query("ALTER TABLE password_failures RENAME TO password_failures_moved")
            }
            pool.close()
            let response = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "a secret password"],
                headers: ["X-Request-ID": "req-forced-500"])
            #expect(response.status == 500)
            #expect(response.code == "internal")
            #expect(!response.text.contains("password_failures"))
            #expect(!response.text.contains("42P01"))
            let lines = log.all.filter { $0.contains("request_id=req-forced-500") && $0.contains("level=error") }
            #expect(lines.count == 1)
            let line = try #require(lines.first)
            #expect(line.contains("event=internal_error"))
            #expect(line.contains("route=/v1/sessions"))
            #expect(line.contains("PostgresRateLimitRepository.beginAttempt"))
            #expect(line.contains("SQLSTATE 42P01"))
            #expect(line.contains("password_failures"))
            #expect(!log.text.contains("a secret password"))
        }
    }

    @Test func metricsNeedTheirTokenWhenOneIsConfigured() async throws {
        let token = "metrics-token-0123456789"
        try await withServer(environment: ["METRICS_TOKEN": token]) { server, _ in
            let client = server.client
            let anonymous = try await client.send("GET", "/metrics")
            #expect(anonymous.status == 401)
            #expect(anonymous.code == "unauthorized")
            #expect(try await client.send("GET", "/metrics", token: token + "x").status == 401)
            #expect(try await client.send("GET", "/metrics", token: String(token.dropLast())).status == 401)
            let allowed = try await client.send("GET", "/metrics", token: token)
            #expect(allowed.status == 200)
            #expect(allowed.text.contains("passkey_http_requests_total"))
        }
        try await withServer { server, _ in
            let open = try await server.client.send("GET", "/metrics")
            #expect(open.status == 200)
        }
    }
}
