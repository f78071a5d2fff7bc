import Foundation
import PasskeyTestSupport
import Testing

@Suite struct PasswordFlowTests {
    @Test func signUpSignInAccountAndSignOut() async throws {
        try await withServer { server, _ in
            let client = server.client
            let created = try await client.send(
                "POST", "/v1/accounts",
                json: ["email": " Hanako@Example.COM ", "displayName": " Hanako ", "password": "12345678"])
            #expect(created.status == 201)
            #expect(created.string("displayName") == "Hanako")
            let accountID = try #require(created.string("accountID"))
            #expect(accountID == accountID.lowercased() && UUID(uuidString: accountID) != nil)

            let session = try await client.send(
                "POST", "/v1/sessions", json: ["email": "hanako@example.com", "password": "12345678"])
            #expect(session.status == 200)
            #expect(session.string("tokenType") == "Bearer")
            #expect(session.string("accountID") == accountID)
            let expires = try #require(session.string("expiresAt"))
            #expect(expires.hasSuffix("Z") && expires.count == 20)
            let token = try #require(session.string("accessToken"))
            #expect(Base64URLCheck.isUnpadded(token) && token.count == 43)

            let account = try await client.send("GET", "/v1/account", token: token)
            #expect(account.status == 200)
            #expect(account.string("email") == "Hanako@Example.COM")
            #expect(account.json["hasPassword"] as? Bool == true)
            #expect((account.json["passkeys"] as? [Any])?.isEmpty == true)

            #expect(try await client.send("DELETE", "/v1/sessions/current", token: token).status == 204)
            let after = try await client.send("GET", "/v1/account", token: token)
            #expect(after.status == 401)
            #expect(after.code == "unauthorized")
            #expect(try await client.send("DELETE", "/v1/sessions/current", token: token).status == 401)
        }
    }

    @Test func signUpRefusesBadInputAndTakenEmails() async throws {
        try await withServer { server, _ in
            let client = server.client
            let cases: [([String: Any], String)] = [
                (["email": "not-an-email", "displayName": "A", "password": "12345678"], "invalid-request"),
                (["email": "a@b.c", "displayName": "", "password": "12345678"], "invalid-request"),
                (
                    ["email": "a@b.c", "displayName": String(repeating: "x", count: 65), "password": "12345678"],
                    "invalid-request"
                ),
                (["email": "a@b.c", "displayName": "A", "password": "1234567"], "weak-password"),
                (
                    ["email": "a@b.c", "displayName": "A", "password": String(repeating: "p", count: 1025)],
                    "weak-password"
                ),
                (["email": "a@b.c", "displayName": "A"], "invalid-request"),
                (["email": "a@b.c", "displayName": "A", "password": 12_345_678], "invalid-request"),
            ]
            for (body, code) in cases {
                let response = try await client.send("POST", "/v1/accounts", json: body)
                #expect(response.status == 400, "\(body)")
                #expect(response.code == code, "\(body)")
                #expect(response.headers["content-type"] == "application/problem+json")
            }
            _ = try await client.passwordUser(email: "taken@example.com")
            let taken = try await client.send(
                "POST", "/v1/accounts",
                json: ["email": "TAKEN@example.com", "displayName": "B", "password": "12345678"])
            #expect(taken.status == 409)
            #expect(taken.code == "email-taken")
        }
    }

    @Test func unknownEmailAndWrongPasswordGetTheSameAnswer() async throws {
        try await withServer { server, _ in
            let client = server.client
            _ = try await client.passwordUser(email: "known@example.com")
            let wrong = try await client.send(
                "POST", "/v1/sessions", json: ["email": "known@example.com", "password": "wrong password"])
            let unknown = try await client.send(
                "POST", "/v1/sessions", json: ["email": "nobody@example.com", "password": "wrong password"])
            #expect(wrong.status == 401)
            #expect(unknown.status == 401)
            #expect(wrong.code == "invalid-credentials")
            #expect(wrong.string("detail") == unknown.string("detail"))
            #expect(wrong.code == unknown.code)
        }
    }

    @Test func failedPasswordsAreLimitedPerEmailEvenForTheRightPassword() async throws {
        try await withServer(environment: ["RATE_LIMIT_PASSWORD_PER_EMAIL": "3", "RATE_LIMIT_WINDOW_SECONDS": "600"]) {
            server, _ in
            let client = server.client
            _ = try await client.passwordUser(email: "victim@example.com", password: "the right one")
            for _ in 0..<3 {
                let failed = try await client.send(
                    "POST", "/v1/sessions", json: ["email": "victim@example.com", "password": "guess"])
                #expect(failed.status == 401)
            }
            let limited = try await client.send(
                "POST", "/v1/sessions", json: ["email": "victim@example.com", "password": "the right one"])
            #expect(limited.status == 429)
            #expect(limited.code == "rate-limited")
            let retryAfter = try #require(limited.headers["retry-after"].flatMap(Int.init))
            #expect((1...600).contains(retryAfter))
            // Another email from the same address is not limited by the per-email limit.
            _ = try await client.passwordUser(email: "other@example.com")
        }
    }

    @Test func failedPasswordsAreLimitedPerClientAddress() async throws {
        try await withServer(environment: ["RATE_LIMIT_PASSWORD_PER_ADDRESS": "2"]) { server, _ in
            let client = server.client
            for i in 0..<2 {
                _ = try await client.send(
                    "POST", "/v1/sessions", json: ["email": "x\(i)@example.com", "password": "guess"])
            }
            let limited = try await client.send(
                "POST", "/v1/sessions", json: ["email": "fresh@example.com", "password": "guess"])
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] != nil)
        }
    }
}

enum Base64URLCheck {
    static func isUnpadded(_ s: String) -> Bool {
        s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
