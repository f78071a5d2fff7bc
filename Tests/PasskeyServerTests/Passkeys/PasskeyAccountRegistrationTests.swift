import Foundation
import PasskeyTestSupport
import Testing

/// New users: an account with a passkey only (form, or the iOS 26 sheet that gives email and name at the end).
@Suite struct PasskeyAccountRegistrationTests {
    @Test func theFormFlowCreatesAnAccountWithoutAPassword() async throws {
        try await withServer { server, _ in
            let client = server.client
            let options = try await client.send(
                "POST", "/v1/passkey-accounts/registrations",
                json: ["email": "new@example.com", "displayName": "New User"])
            #expect(options.status == 200)
            let publicKey = try #require(options.json["publicKey"] as? [String: Any])
            let user = try #require(publicKey["user"] as? [String: Any])
            #expect(user["name"] as? String == "new@example.com")
            #expect(user["displayName"] as? String == "New User")
            #expect(user["id"] as? String == options.string("userID"))
            #expect(Base64URLDecoding.decode(options.string("userID") ?? "")?.count == 16)

            var passkey = try TestPasskey(backupEligible: true)
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = "New@Example.com"
            body["displayName"] = "New User"
            let finish = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            #expect(finish.status == 201, "\(finish.text)")
            let token = try #require(finish.string("accessToken"))
            // The account ID is the user handle the device holds.
            let accountID = try #require(finish.string("accountID"))
            #expect(Base64URLDecoding.decode(options.string("userID")!) == UUIDBytes.of(accountID))

            let account = try await client.send("GET", "/v1/account", token: token)
            #expect(account.json["hasPassword"] as? Bool == false)
            #expect(account.string("email") == "New@Example.com")
            let passkeys = try #require(account.json["passkeys"] as? [[String: Any]])
            #expect(passkeys.first?["backupEligible"] as? Bool == true)
            #expect(try await client.signIn(&passkey).status == 200)
            // Without a password there is nothing to sign in with by password.
            let password = try await client.send(
                "POST", "/v1/sessions", json: ["email": "new@example.com", "password": "anything-at-all"])
            #expect(password.code == "invalid-credentials")
        }
    }

    @Test func theSystemSheetFlowGivesEmailAndNameOnlyAtTheEnd() async throws {
        try await withServer { server, _ in
            let client = server.client
            let options = try await client.send("POST", "/v1/passkey-accounts/registrations")
            #expect(options.status == 200)
            let user = try #require((options.json["publicKey"] as? [String: Any])?["user"] as? [String: Any])
            #expect(user["name"] as? String == "")
            #expect(user["displayName"] as? String == "")
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = "sheet@example.com"
            body["displayName"] = "Sheet User"
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).status == 201)
            // Completed: a second finish finds nothing.
            let again = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            #expect(again.code == "registration-unavailable")
        }
    }

    @Test func aTakenEmailRollsBackAndTheRegistrationCanBeRetried() async throws {
        try await withServer { server, database in
            let client = server.client
            _ = try await client.passwordUser(email: "taken@example.com")
            let options = try await client.send("POST", "/v1/passkey-accounts/registrations")
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = "Taken@Example.com"
            body["displayName"] = "Someone"
            let conflict = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            #expect(conflict.status == 409)
            #expect(conflict.code == "email-taken")
            body["email"] = "free@example.com"
            let retried = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            #expect(retried.status == 201, "\(retried.text)")
        }
    }

    @Test func emailAndNameMustMatchWhatStartRecorded() async throws {
        try await withServer { server, _ in
            let client = server.client
            let options = try await client.send(
                "POST", "/v1/passkey-accounts/registrations",
                json: ["email": "form@example.com", "displayName": "Form"])
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = "other@example.com"
            body["displayName"] = "Form"
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).code
                    == "registration-mismatch")
            body["email"] = "FORM@example.com"
            body["displayName"] = "Other"
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).code
                    == "registration-mismatch")
            body["displayName"] = "Form"
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).status == 201)
        }
    }

    @Test func aFailedVerificationLeavesTheRegistrationUsable() async throws {
        try await withServer { server, _ in
            let client = server.client
            let options = try await client.send("POST", "/v1/passkey-accounts/registrations")
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json) {
                $0.clientData.origin = "https://evil.example"
            }
            body["email"] = "late@example.com"
            body["displayName"] = "Late"
            let refused = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            #expect(refused.code == "registration-verification-failed")
            #expect(refused.string("reason") == "originMismatch")
            body = try passkey.registrationBody(options: options.json)
            body["email"] = "late@example.com"
            body["displayName"] = "Late"
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).status == 201)
        }
    }

    @Test func unknownRegistrationsAndBadInputAreRefused() async throws {
        try await withServer { server, _ in
            let client = server.client
            let bad = try await client.send("POST", "/v1/passkey-accounts/registrations", json: ["email": "nope"])
            #expect(bad.code == "invalid-request")
            let options = try await client.send("POST", "/v1/passkey-accounts/registrations")
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = "x@example.com"
            body["displayName"] = "X"
            body["registrationID"] = UUID().uuidString
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).code
                    == "registration-unavailable")
            body.removeValue(forKey: "email")
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body).code
                    == "invalid-request")
        }
    }
}

enum Base64URLDecoding {
    static func decode(_ s: String) -> [UInt8]? {
        var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while t.count % 4 != 0 { t += "=" }
        return Data(base64Encoded: t).map(Array.init)
    }
}

enum UUIDBytes {
    static func of(_ string: String) -> [UInt8]? {
        guard let u = UUID(uuidString: string)?.uuid else { return nil }
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }
}
