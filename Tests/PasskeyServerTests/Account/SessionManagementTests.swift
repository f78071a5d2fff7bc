import Foundation
import PasskeyTestSupport
import Testing

/// Spec v2 session list and ending sessions.
@Suite struct SessionManagementTests {
    @Test func sessionsAreListedNewestFirstWithoutSecretsAndCanBeEnded() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (first, email) = try await client.passwordUser(password: "the password")
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: first).status == 204)
            let viaPasskey = try #require(try await client.signIn(&passkey).string("accessToken"))
            let latest = try #require(
                try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "the password"])
                    .string("accessToken"))

            let listed = try await client.send("GET", "/v1/account/sessions", token: latest)
            #expect(listed.status == 200)
            let sessions = listed.jsonArray
            #expect(sessions.count == 3)
            #expect(sessions.map { $0["method"] as? String } == ["password", "passkey", "password"])
            #expect(sessions.map { $0["current"] as? Bool } == [true, false, false])
            #expect(sessions[1]["credentialID"] as? String == Base64URLEncoding.encode(passkey.credentialID))
            #expect(sessions[0]["credentialID"] == nil)
            let created = sessions.compactMap { $0["createdAt"] as? String }
            #expect(created == created.sorted(by: >))
            for session in sessions {
                #expect(
                    Set(session.keys).isSubset(of: [
                        "sessionID", "method", "createdAt", "expiresAt", "current", "credentialID",
                    ]))
            }
            #expect(!listed.text.contains(first) && !listed.text.contains(latest))

            // End the passkey session; it stops working at once and leaves the list.
            let passkeySessionID = try #require(sessions[1]["sessionID"] as? String)
            #expect(
                try await client.send("DELETE", "/v1/account/sessions/\(passkeySessionID)", token: latest).status == 204
            )
            #expect(try await client.send("GET", "/v1/account", token: viaPasskey).status == 401)
            #expect(
                try await client.send("DELETE", "/v1/account/sessions/\(passkeySessionID)", token: latest).status == 404
            )
            #expect(try await client.send("GET", "/v1/account/sessions", token: latest).jsonArray.count == 2)

            // Another account's session, an unknown one and a malformed ID are all 404.
            let (stranger, _) = try await client.passwordUser()
            let strangerID = try #require(
                try await client.send("GET", "/v1/account/sessions", token: stranger).jsonArray.first?["sessionID"]
                    as? String)
            #expect(try await client.send("DELETE", "/v1/account/sessions/\(strangerID)", token: latest).status == 404)
            #expect(try await client.send("GET", "/v1/account", token: stranger).status == 200)
            #expect(
                try await client.send("DELETE", "/v1/account/sessions/\(UUID().uuidString)", token: latest).status
                    == 404)
            let malformed = try await client.send("DELETE", "/v1/account/sessions/not-a-uuid", token: latest)
            #expect(malformed.status == 404)
            #expect(malformed.code == "not-found")
            #expect(try await client.send("GET", "/v1/account/sessions", token: nil).status == 401)

            // End every other session: only the caller's stays.
            #expect(try await client.send("DELETE", "/v1/account/sessions", token: latest).status == 204)
            #expect(try await client.send("GET", "/v1/account", token: first).status == 401)
            let left = try await client.send("GET", "/v1/account/sessions", token: latest).jsonArray
            #expect(left.count == 1)
            #expect(left.first?["current"] as? Bool == true)

            // The caller may end its own session.
            let ownID = try #require(left.first?["sessionID"] as? String)
            #expect(try await client.send("DELETE", "/v1/account/sessions/\(ownID)", token: latest).status == 204)
            #expect(try await client.send("GET", "/v1/account", token: latest).status == 401)
        }
    }
}
