import Foundation
import PasskeyTestSupport
import Testing

/// Wire conventions: body limit, malformed input, unknown paths and methods, CORS, HEAD, request IDs.
@Suite struct WireConventionTests {
    /// The HTTP layer's own limit: over the socket.
    @Test func bodiesOver64KiBAreRefusedBeforeParsing() async throws {
        try await withServer(transport: .socket) { server, _ in
            let over = try await server.client.send(
                "POST", "/v1/accounts", raw: [UInt8](repeating: 0x20, count: 65_537))
            #expect(over.status == 413)
            #expect(over.code == "payload-too-large")
            #expect(over.headers["content-type"] == "application/problem+json")
            // Exactly 65,536 bytes is accepted (and then parsed: it is JSON here, with padding).
            let padding = String(repeating: " ", count: 65_536 - 2)
            let exact = try await server.client.send(
                "POST", "/v1/passkeys/authentications", raw: Array(("{" + padding + "}").utf8))
            #expect(exact.status == 200)
        }
    }

    @Test func malformedJSONAndMistypedFieldsAre400() async throws {
        try await withServer { server, _ in
            let client = server.client
            let broken = try await client.send("POST", "/v1/sessions", raw: Array("{\"email\":".utf8))
            #expect(broken.status == 400)
            #expect(broken.code == "invalid-request")
            #expect(
                try await client.send("POST", "/v1/sessions", json: ["email": 5, "password": "x"]).code
                    == "invalid-request")
            let finish = try await client.send(
                "POST", "/v1/passkeys/authentications/finish", json: ["challengeID": "not-a-uuid"])
            #expect(finish.code == "invalid-request")
            // Unknown fields are ignored.
            let extra = try await client.send(
                "POST", "/v1/sessions", json: ["email": "a@b.c", "password": "12345678", "extra": true])
            #expect(extra.code == "invalid-credentials")
            // The detail never echoes input.
            let secret = "hunter2-secret-value"
            let echoed = try await client.send(
                "POST", "/v1/accounts", json: ["email": secret, "displayName": "x", "password": secret])
            #expect(!echoed.text.contains(secret))
        }
    }

    @Test func unknownPathsAre404AndUnsupportedMethods405WithAllow() async throws {
        try await withServer { server, _ in
            let client = server.client
            let missing = try await client.send("GET", "/v1/nothing-here")
            #expect(missing.status == 404)
            #expect(missing.code == "not-found")
            let wrong = try await client.send("GET", "/v1/sessions")
            #expect(wrong.status == 405)
            #expect(wrong.code == "method-not-allowed")
            #expect(wrong.headers["allow"]?.contains("POST") == true)
            let passkey = try await client.send("PUT", "/v1/passkeys/AAAA")
            #expect(passkey.headers["allow"]?.contains("PATCH") == true)
            #expect(passkey.headers["allow"]?.contains("DELETE") == true)
        }
    }

    @Test func corsIsAnsweredForConfiguredOriginsOnly() async throws {
        try await withServer(environment: ["CORS_ALLOWED_ORIGINS": "https://app.example"]) { server, _ in
            let client = server.client
            let preflight = try await client.send(
                "OPTIONS", "/v1/passkeys/authentications",
                headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "https://app.example")
            #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
            #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
            let stranger = try await client.send(
                "OPTIONS", "/v1/passkeys/authentications",
                headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
            #expect(stranger.headers["access-control-allow-origin"] == nil)
            let actual = try await client.send("GET", "/healthz", headers: ["Origin": "https://app.example"])
            #expect(actual.headers["access-control-allow-origin"] == "https://app.example")
        }
    }

    @Test func requestIDsAreEchoedOrMade() async throws {
        try await withServer { server, _ in
            let given = try await server.client.send("GET", "/healthz", headers: ["X-Request-ID": "abc-123"])
            #expect(given.headers["x-request-id"] == "abc-123")
            let made = try await server.client.send("GET", "/healthz", headers: ["X-Request-ID": "bad id with spaces"])
            #expect(made.headers["x-request-id"].flatMap(UUID.init(uuidString:)) != nil)
            let head = try await server.client.send("HEAD", "/healthz")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }
}
