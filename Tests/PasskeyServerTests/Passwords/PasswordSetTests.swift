import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// Spec v3: `PUT /v1/account/password`, and a verified email as recovery set up for
/// `DELETE /v1/account/password`.
@Suite struct PasswordSetTests {
    @Test func aPasswordIsReplacedAndEveryOtherPasswordSessionEnds() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "old password 1")
            let other = try #require(
                try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "old password 1"])
                    .string("accessToken"))
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let viaPasskey = try #require(try await client.signIn(&passkey).string("accessToken"))

            let weak = try await client.send("PUT", "/v1/account/password", json: ["password": "short"], token: token)
            #expect(weak.status == 400)
            #expect(weak.code == "weak-password")
            let missing = try await client.send("PUT", "/v1/account/password", json: [:], token: token)
            #expect(missing.status == 400)
            #expect(missing.code == "invalid-request")
            #expect(
                try await client.send("PUT", "/v1/account/password", json: ["password": "new password 2"]).status
                    == 401)

            let set = try await client.send(
                "PUT", "/v1/account/password", json: ["password": "new password 2"], token: token)
            #expect(set.status == 204)
            #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
            #expect(try await client.send("GET", "/v1/account", token: other).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: viaPasskey).status == 200)
            let old = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "old password 1"])
            #expect(old.status == 401)
            let new = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "new password 2"])
            #expect(new.status == 200)
            // Unverified address: no notice (only the sign-up's code mail).
            #expect(try await MailedCode.mails(to: email, in: database).count == 1)
        }
    }

    @Test func aPasskeyOnlyAccountGetsAPasswordAndAVerifiedAddressIsNoticed() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let email = "passkey-\(UUID().uuidString.prefix(8))@example.com"
            let options = try await client.send(
                "POST", "/v1/passkey-accounts/registrations", json: ["email": email, "displayName": "Kenji"])
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = email
            body["displayName"] = "Kenji"
            let finished = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            let token = try #require(finished.string("accessToken"))
            let code = try await MailedCode.latest(to: email, in: database)
            #expect(
                try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token
                ).status == 200)
            #expect(
                try await client.send(
                    "PUT", "/v1/account/password", json: ["password": "a new password"], token: token
                ).status == 204)
            #expect(try await client.send("GET", "/v1/account", token: token).json["hasPassword"] as? Bool == true)
            #expect(
                try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "a new password"])
                    .status == 200)
            // The sign-up's code, then the notice.
            let mails = try await MailedCode.mails(to: email, in: database)
            #expect(mails.count == 2)
        }
    }

    @Test func settingThePasswordNeedsARecentSignIn() async throws {
        let clock = FixedClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await withServer(
            environment: try await MailEnvironment.on(["REAUTHENTICATION_WINDOW_SECONDS": "600"]), clock: clock
        ) {
            server, _ in
            let (token, _) = try await server.client.passwordUser()
            clock.advance(by: 601)
            for (method, path, body) in [
                ("PUT", "/v1/account/password", ["password": "long enough!"]),
                ("PUT", "/v1/account/email", ["email": "other@example.com"]),
            ] {
                let refused = try await server.client.send(method, path, json: body, token: token)
                #expect(refused.status == 403, "\(path)")
                #expect(refused.code == "reauthentication-required", "\(path)")
            }
        }
    }

    @Test func aVerifiedEmailCountsAsRecoverySetUpWhileMailIsOn() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            #expect(try await client.signIn(&passkey).status == 200)
            // Unverified: recovery is not set up.
            #expect(
                try await client.send("DELETE", "/v1/account/password", token: token).code == "recovery-not-set-up")
            let code = try await MailedCode.latest(to: email, in: database)
            #expect(
                try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token
                ).status == 200)
            #expect(try await client.send("DELETE", "/v1/account/password", token: token).status == 204)
        }
    }

    @Test func withMailOffAVerifiedEmailDoesNotCount() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            #expect(try await client.signIn(&passkey).status == 200)
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            _ = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(
                    "UPDATE account_emails SET verified_at = now() WHERE normalized_email = \(email.lowercased())")
            }
            #expect(
                try await client.send("DELETE", "/v1/account/password", token: token).code == "recovery-not-set-up")
        }
    }
}
