import Foundation
import PasskeyTestSupport
import Testing

/// Spec v3: an account holds at most `MAX_PASSKEYS_PER_ACCOUNT` passkeys. The review's attack:
/// 1,500 passkeys with 1,023-byte IDs made `GET /v1/account` and the registration options 2.4 MB
/// each. Now a start or finish that would go beyond answers 409 `passkey-limit-reached`, and
/// concurrent finishes cannot overshoot.
@Suite struct PasskeyLimitTests {
    private static func passkeyCount(_ client: TestHTTPClient, token: String) async throws -> Int {
        let account = try await client.send("GET", "/v1/account", token: token)
        return try #require(account.json["passkeys"] as? [Any]).count
    }

    @Test func aStartOnAFullAccountIsRefusedAndADeletionMakesRoomAgain() async throws {
        try await withServer(environment: ["MAX_PASSKEYS_PER_ACCOUNT": "2"]) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var first = try TestPasskey()
            var second = try TestPasskey()
            #expect(try await client.addPasskey(&first, token: token).status == 204)
            #expect(try await client.addPasskey(&second, token: token).status == 204)
            for mode in ["modal", "conditional"] {
                let refused = try await client.send(
                    "POST", "/v1/passkeys/registrations", json: ["mode": mode], token: token)
                #expect(refused.status == 409, "\(refused.text)")
                #expect(refused.code == "passkey-limit-reached")
            }
            #expect(try await Self.passkeyCount(client, token: token) == 2)
            let firstID = Base64URLEncoding.encode(first.credentialID)
            #expect(try await client.send("DELETE", "/v1/passkeys/\(firstID)", token: token).status == 204)
            #expect(try await client.send("POST", "/v1/passkeys/registrations", token: token).status == 200)
        }
    }

    /// Two starts while there is room, two finishes: the second would go beyond and stores nothing.
    @Test func aFinishBeyondTheLimitIsRefusedAndStoresNothing() async throws {
        try await withServer(environment: ["MAX_PASSKEYS_PER_ACCOUNT": "1"]) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let firstOptions = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let secondOptions = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            var first = try TestPasskey()
            var second = try TestPasskey()
            let firstBody = try first.registrationBody(options: firstOptions.json)
            let secondBody = try second.registrationBody(options: secondOptions.json)
            let added = try await client.send(
                "POST", "/v1/passkeys/registrations/finish", json: firstBody, token: token)
            #expect(added.status == 204, "\(added.text)")
            let refused = try await client.send(
                "POST", "/v1/passkeys/registrations/finish", json: secondBody, token: token)
            #expect(refused.status == 409, "\(refused.text)")
            #expect(refused.code == "passkey-limit-reached")
            #expect(try await Self.passkeyCount(client, token: token) == 1)
            // The refused passkey was not stored: it cannot sign in.
            #expect(try await client.signIn(&second).status != 200)
        }
    }

    /// N parallel finishes on an account one short of the limit leave it at the limit.
    @Test func concurrentFinishesOneShortOfTheLimitAddExactlyOne() async throws {
        // Connections enough for every finish to reach the database at once.
        let environment = ["MAX_PASSKEYS_PER_ACCOUNT": "3", "DATABASE_POOL_SIZE": "16"]
        try await withServer(environment: environment) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            for _ in 0..<2 {
                var passkey = try TestPasskey()
                #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            }
            var bodies: [[UInt8]] = []
            for _ in 0..<16 {
                let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
                try #require(options.status == 200, "\(options.text)")
                var passkey = try TestPasskey()
                let body = try passkey.registrationBody(options: options.json)
                bodies.append(Array(try JSONSerialization.data(withJSONObject: body)))
            }
            let statuses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for body in bodies {
                    group.addTask {
                        try await client.send("POST", "/v1/passkeys/registrations/finish", raw: body, token: token)
                    }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0.status == 204 }.count == 1)
            #expect(statuses.filter { $0.code == "passkey-limit-reached" }.count == 15, "\(statuses.map(\.status))")
            #expect(try await Self.passkeyCount(client, token: token) == 3)
        }
    }
}
