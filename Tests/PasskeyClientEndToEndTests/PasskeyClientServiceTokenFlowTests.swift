import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import Testing

/// (v4) `serviceToken(audience:)` against the built server: a JWT for the held session, kept and
/// shared, and the server's refusals as typed errors.
@Suite struct PasskeyClientServiceTokenFlowTests {
    static let environment = [
        "DATA_ENCRYPTION_KEY": Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
        "TOKEN_ISSUER": "https://auth.example.com",
        "TOKEN_AUDIENCES": "https://api.example.com,https://reports.example.com",
    ]

    @Test func theHeldSessionGetsAJWTThatIsKeptAndShared() async throws {
        try await ServedServer.with(environment: Self.environment) { server in
            let client = PasskeyClient(baseURL: server)
            let email = "kei-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await client.createPasswordAccount(
                email: email, displayName: "Kei", password: "correct horse battery")
            _ = try await client.signIn(email: email, password: "correct horse battery")
            let token = try await client.serviceToken()
            #expect(token.audience == "https://api.example.com")
            #expect(token.token.split(separator: ".").count == 3)
            #expect(token.expiresAt.timeIntervalSinceNow > 250)
            #expect(try await client.serviceToken() == token)
            let shared = try await withThrowingTaskGroup(of: PasskeyServiceToken.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await client.serviceToken(audience: "https://reports.example.com") }
                }
                return try await group.reduce(into: [PasskeyServiceToken]()) { $0.append($1) }
            }
            #expect(Set(shared).count == 1)
            #expect(shared[0].audience == "https://reports.example.com")
            await #expect {
                try await client.serviceToken(audience: "https://evil.example.com")
            } throws: { error in
                (error as? PasskeyClientError)?.code == .invalidRequest
            }
        }
    }

    @Test func withoutADataEncryptionKeyTheErrorIsTokensUnavailable() async throws {
        try await ServedServer.with { server in
            let client = PasskeyClient(baseURL: server)
            let email = "ren-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await client.createPasswordAccount(
                email: email, displayName: "Ren", password: "correct horse battery")
            _ = try await client.signIn(email: email, password: "correct horse battery")
            await #expect {
                try await client.serviceToken()
            } throws: { error in
                (error as? PasskeyClientError)?.code == .tokensUnavailable
            }
        }
    }
}
