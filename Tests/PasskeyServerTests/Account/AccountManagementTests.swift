import Foundation
import PasskeyTestSupport
import Testing

/// Passkey list, rename, delete, and stage ③: dropping the password.
@Suite struct AccountManagementTests {
    @Test func passkeysCanBeListedRenamedAndDeletedButNotTheLastWayIn() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var first = try TestPasskey()
            var second = try TestPasskey()
            #expect(try await client.addPasskey(&first, token: token).status == 204)
            #expect(try await client.addPasskey(&second, token: token).status == 204)
            let firstID = Base64URLEncoding.encode(first.credentialID)
            let secondID = Base64URLEncoding.encode(second.credentialID)

            let list = try await client.send("GET", "/v1/passkeys", token: token)
            #expect(list.jsonArray.compactMap { $0["credentialID"] as? String } == [firstID, secondID])

            let renamed = try await client.send(
                "PATCH", "/v1/passkeys/\(firstID)", json: ["name": "  Work phone "], token: token)
            #expect(renamed.status == 200)
            #expect(renamed.string("name") == "Work phone")
            #expect(
                try await client.send("PATCH", "/v1/passkeys/\(firstID)", json: ["name": ""], token: token).code
                    == "invalid-request")
            #expect(
                try await client.send("PATCH", "/v1/passkeys/AAAA", json: ["name": "x"], token: token).status == 404)

            // Another account cannot touch them.
            let (stranger, _) = try await client.passwordUser()
            #expect(try await client.send("DELETE", "/v1/passkeys/\(firstID)", token: stranger).status == 404)
            #expect(try await client.send("GET", "/v1/passkeys", token: nil).status == 401)

            // Drop the password (after a passkey sign-in), then the last passkey is protected.
            #expect(try await client.signIn(&first).status == 200)
            try await client.recoveryCodes(token: token)
            #expect(try await client.send("DELETE", "/v1/account/password", token: token).status == 204)
            #expect(try await client.send("DELETE", "/v1/passkeys/\(secondID)", token: token).status == 204)
            let last = try await client.send("DELETE", "/v1/passkeys/\(firstID)", token: token)
            #expect(last.status == 409)
            #expect(last.code == "last-credential")
            #expect(try await client.send("DELETE", "/v1/passkeys/\(secondID)", token: token).status == 404)
        }
    }

    @Test func thePasswordGoesOnlyAfterAPasskeyHasSignedIn() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "my old password")
            let noPasskey = try await client.send("DELETE", "/v1/account/password", token: token)
            #expect(noPasskey.status == 409)
            #expect(noPasskey.code == "passkey-not-yet-used")
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            #expect(
                try await client.send("DELETE", "/v1/account/password", token: token).code == "passkey-not-yet-used")
            #expect(try await client.signIn(&passkey).status == 200)
            try await client.recoveryCodes(token: token)
            #expect(try await client.send("DELETE", "/v1/account/password", token: token).status == 204)
            let again = try await client.send("DELETE", "/v1/account/password", token: token)
            #expect(again.status == 404)
            #expect(again.code == "not-found")
            let account = try await client.send("GET", "/v1/account", token: token)
            #expect(account.json["hasPassword"] as? Bool == false)
            let oldPassword = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "my old password"])
            #expect(oldPassword.code == "invalid-credentials")
        }
    }
}
