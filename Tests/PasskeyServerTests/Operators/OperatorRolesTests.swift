import Foundation
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyOpenSSL
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// (v4) Named operators and their roles on the real server: the roles matrix over every operator
/// endpoint (adoption, events, webhooks, (v4) the support desk's accounts), 401 before 403 and 403 before the body is read,
/// OPERATOR_TOKEN as the admin `operator`, a removed operator's token refused at once by another
/// instance, and the endpoints and page that exist only while an operator or OPERATOR_TOKEN does.
@Suite struct OperatorRolesTests {
    static let configured = "configured-operator-token-0123456789"

    /// A new operator's token, added through the server's own use case (as the CLI does).
    static func token(_ server: TestServer, _ name: String, _ role: OperatorRole) async throws -> String {
        try await server.root.useCases.operatorAddition.execute(name: name, role: role.rawValue).token
    }

    /// Every operator endpoint, the role it needs, and a request to it.
    static var endpoints: [(method: String, path: String, role: OperatorRole, body: [String: Any]?)] {
        [
            ("GET", "/v1/operator/adoption", .viewer, nil),
            ("GET", "/v1/operator/events", .viewer, nil),
            ("GET", "/v1/operator/webhooks", .admin, nil),
            ("POST", "/v1/operator/webhooks", .admin, ["url": "https://hooks.example.com/roles"]),
            ("DELETE", "/v1/operator/webhooks/\(UUID().uuidString.lowercased())", .admin, nil),
            ("POST", "/v1/operator/webhooks/\(UUID().uuidString.lowercased())/secret", .admin, nil),
            ("GET", "/v1/operator/accounts?email=nobody@example.com", .viewer, nil),
            ("GET", "/v1/operator/accounts/\(UUID())", .viewer, nil),
            ("GET", "/v1/operator/accounts/\(UUID())/activity", .viewer, nil),
            ("POST", "/v1/operator/accounts/\(UUID())/lock", .support, ["reason": "roles"]),
            ("POST", "/v1/operator/accounts/\(UUID())/unlock", .support, nil),
            ("DELETE", "/v1/operator/accounts/\(UUID())/sessions", .support, nil),
            ("DELETE", "/v1/operator/accounts/\(UUID())/passkeys/AAAA", .support, nil),
            ("POST", "/v1/operator/accounts/\(UUID())/recovery-code", .support, nil),
        ]
    }

    @Test func theRolesMatrixOverEveryOperatorEndpoint() async throws {
        let env = [
            "OPERATOR_TOKEN": Self.configured,
            "DATA_ENCRYPTION_KEY": Data(SecureRandom.bytes(count: 32)).base64EncodedString(),
        ]
        try await withServer(environment: env) { server, _ in
            let client = server.client
            var tokens: [(String, OperatorRole)] = [(Self.configured, .admin)]
            for role in OperatorRole.allCases {
                tokens.append((try await Self.token(server, "desk-\(role.rawValue)", role), role))
            }
            for (token, role) in tokens {
                for endpoint in Self.endpoints {
                    let answer = try await client.send(
                        endpoint.method, endpoint.path, json: endpoint.body, token: token)
                    let what = "\(role.rawValue) \(endpoint.method) \(endpoint.path)"
                    if role.includes(endpoint.role) {
                        #expect(![401, 403].contains(answer.status), "\(what): \(answer.status) \(answer.text)")
                    } else {
                        #expect(answer.status == 403, "\(what): \(answer.status)")
                        #expect(answer.string("code") == "forbidden", "\(what)")
                    }
                }
            }
            // 401 before 403: no token, an unknown one, the configured one misspelt.
            for token in [nil, "unknown-token", Self.configured + "x"] {
                let answer = try await client.send("GET", "/v1/operator/webhooks", token: token)
                #expect(answer.status == 401, "\(token ?? "no token")")
                #expect(answer.string("code") == "unauthorized")
            }
            // 403 before the body is read: a viewer's bad body is still 403, not 400.
            let viewer = try #require(tokens.first { $0.1 == .viewer }?.0)
            let refused = try await client.send(
                "POST", "/v1/operator/webhooks", raw: Array("not json".utf8), token: viewer)
            #expect(refused.status == 403)
        }
    }

    @Test func aRemovedOperatorIsRefusedAtOnceByAnotherInstance() async throws {
        try await withTestDatabase { database, _ in
            let first = try TestServer(conninfo: database.conninfo)
            let second = try TestServer(conninfo: database.conninfo)
            let token = try await Self.token(first, "Ann", .viewer)
            let before = try await second.client.send("GET", "/v1/operator/events", token: token)
            try await first.root.useCases.operatorRemoval.execute(name: "Ann")
            // No operator is left and OPERATOR_TOKEN is unset: the endpoints are gone again.
            let gone = try await second.client.send("GET", "/v1/operator/events", token: token)
            _ = try await Self.token(first, "Bob", .admin)
            let refused = try await second.client.send("GET", "/v1/operator/events", token: token)
            await first.stop()
            await second.stop()
            #expect(before.status == 200)
            #expect(gone.status == 404)
            #expect(refused.status == 401)
        }
    }

    @Test func theEndpointsAndPageExistOnlyWithAnOperatorOrTheConfiguredToken() async throws {
        try await withServer { server, _ in
            let client = server.client
            #expect(try await client.send("GET", "/v1/operator/adoption", token: "anything").status == 404)
            #expect(try await client.send("POST", "/v1/operator/adoption").status == 404, "not 405: no such path")
            #expect(try await client.send("OPTIONS", "/v1/operator/adoption").status == 404, "no preflight either")
            #expect(try await client.send("GET", "/operator/").status == 404)
            let token = try await Self.token(server, "Ann", .viewer)
            #expect(try await client.send("GET", "/v1/operator/adoption", token: token).status == 200)
            #expect(try await client.send("GET", "/v1/operator/adoption", token: "anything").status == 401)
            #expect(try await client.send("GET", "/operator/").status == 200)
            #expect(try await client.send("POST", "/v1/operator/adoption").status == 405)
            #expect(try await client.send("OPTIONS", "/v1/operator/adoption").status == 204)
        }
    }
}
