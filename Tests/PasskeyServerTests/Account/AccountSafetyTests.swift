import Foundation
import PasskeyTestSupport
import Testing

/// Spec v2 "Account safety": sensitive changes need a recent sign-in, and removing a way in
/// signs out the sessions that came through it.
@Suite struct AccountSafetyTests {
    /// The review's takeover: a stolen, older bearer token could add the thief's passkey, delete
    /// the owner's and remove the password. Now it can read, rename and list, but not take over.
    @Test func aStolenOlderTokenCannotTakeTheAccountOver() async throws {
        // A whole second: timestamps are stored to the microsecond, so a sub-microsecond start
        // would read back earlier and make "exactly at the window's end" a hair past it.
        let clock = FixedClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await withServer(environment: ["REAUTHENTICATION_WINDOW_SECONDS": "600"], clock: clock) { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "owner's password")
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            #expect(try await client.signIn(&passkey).status == 200)
            let passkeyID = Base64URLEncoding.encode(passkey.credentialID)

            clock.advance(by: 601)
            let start = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token)
            #expect(start.status == 403)
            #expect(start.code == "reauthentication-required")
            let delete = try await client.send("DELETE", "/v1/passkeys/\(passkeyID)", token: token)
            #expect(delete.code == "reauthentication-required")
            // The check comes before every other error of the endpoint, a 404 included.
            #expect(
                try await client.send("DELETE", "/v1/passkeys/AAAA", token: token).code == "reauthentication-required")
            let removal = try await client.send("DELETE", "/v1/account/password", token: token)
            #expect(removal.status == 403)
            #expect(removal.code == "reauthentication-required")
            // Reading and renaming stay possible.
            #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
            #expect(
                try await client.send("PATCH", "/v1/passkeys/\(passkeyID)", json: ["name": "Phone"], token: token)
                    .status == 200)
            // Nothing changed: the passkey and the password are still there.
            let account = try await client.send("GET", "/v1/account", token: token)
            #expect(account.json["hasPassword"] as? Bool == true)
            #expect((account.json["passkeys"] as? [Any])?.count == 1)
            // Without a token it is still 401 first.
            #expect(try await client.send("DELETE", "/v1/account/password", token: nil).status == 401)

            // The owner signs in again and may make the change.
            let fresh = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "owner's password"])
            let freshToken = try #require(fresh.string("accessToken"))
            let again = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: freshToken)
            #expect(again.status == 200)
            try await client.recoveryCodes(token: freshToken)
            // Exactly at the window's end it is still recent.
            clock.advance(by: 600)
            #expect(try await client.send("DELETE", "/v1/account/password", token: freshToken).status == 204)
        }
    }

    @Test func aPasskeySignInIsARecentSignInToo() async throws {
        let clock = FixedClock(Date())
        try await withServer(clock: clock) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            clock.advance(by: 3_600)
            let signIn = try await client.signIn(&passkey)
            let passkeyToken = try #require(signIn.string("accessToken"))
            #expect(
                try await client.send(
                    "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: passkeyToken
                )
                .status == 200)
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token)
                    .code == "reauthentication-required")
        }
    }

    /// Before, removing the password left every old password session working.
    @Test func removingThePasswordEndsTheOtherPasswordSessions() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (caller, email) = try await client.passwordUser(password: "my password")
            let other = try #require(
                try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "my password"])
                    .string("accessToken"))
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: caller).status == 204)
            let passkeySession = try #require(try await client.signIn(&passkey).string("accessToken"))
            try await client.recoveryCodes(token: caller)
            #expect(try await client.send("DELETE", "/v1/account/password", token: caller).status == 204)
            #expect(try await client.send("GET", "/v1/account", token: other).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: caller).status == 200)
            #expect(try await client.send("GET", "/v1/account", token: passkeySession).status == 200)
        }
    }

    @Test func deletingAPasskeyEndsTheOtherSessionsSignedInWithIt() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (password, _) = try await client.passwordUser()
            var first = try TestPasskey()
            var second = try TestPasskey()
            #expect(try await client.addPasskey(&first, token: password).status == 204)
            #expect(try await client.addPasskey(&second, token: password).status == 204)
            let caller = try #require(try await client.signIn(&first).string("accessToken"))
            let stolen = try #require(try await client.signIn(&first).string("accessToken"))
            let viaSecond = try #require(try await client.signIn(&second).string("accessToken"))
            let firstID = Base64URLEncoding.encode(first.credentialID)
            #expect(try await client.send("DELETE", "/v1/passkeys/\(firstID)", token: caller).status == 204)
            #expect(try await client.send("GET", "/v1/account", token: stolen).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: caller).status == 200)
            #expect(try await client.send("GET", "/v1/account", token: viaSecond).status == 200)
            #expect(try await client.send("GET", "/v1/account", token: password).status == 200)
        }
    }

    /// Issue 20, finding 2: with a step-up window (60 s) shorter than the upgrade window (300 s),
    /// a stolen password token too old for a modal start added the thief's passkey with
    /// `mode: "conditional"` and UP = UV = 0, and from that passkey's fresh session took the
    /// account over. Now conditional mode is bounded by both windows.
    @Test func conditionalModeCannotSideStepAShorterReauthenticationWindow() async throws {
        let clock = FixedClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let environment = ["REAUTHENTICATION_WINDOW_SECONDS": "60", "CONDITIONAL_UPGRADE_WINDOW_SECONDS": "300"]
        try await withServer(environment: environment, clock: clock) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            // Exactly at the step-up window's end it is still recent.
            clock.advance(by: 60)
            let edge = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "conditional"], token: token)
            #expect(edge.status == 200, "\(edge.text)")

            clock.advance(by: 1)
            let modal = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token)
            #expect(modal.code == "reauthentication-required")
            let options = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "conditional"], token: token)
            #expect(options.status == 403)
            #expect(options.code == "conditional-not-allowed")
            #expect(options.json["challengeID"] == nil)
            let account = try await client.send("GET", "/v1/account", token: token)
            #expect((account.json["passkeys"] as? [Any])?.isEmpty == true)
        }
    }
}
