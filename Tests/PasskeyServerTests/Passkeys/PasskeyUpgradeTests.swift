import Foundation
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// Existing password users add a passkey: by a button (modal) or silently (conditional).
@Suite struct PasskeyUpgradeTests {
    @Test func modalRegistrationThenDiscoverableSignIn() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let options = try await client.send("POST", "/v1/passkeys/registrations", json: [:], token: token)
            #expect(options.status == 200)
            #expect(options.string("mode") == "modal")
            #expect(options.string("userName") == email)
            #expect(options.string("relyingPartyID") == "localhost")
            let publicKey = try #require(options.json["publicKey"] as? [String: Any])
            #expect(publicKey["challenge"] as? String == options.string("challenge"))
            #expect(publicKey["timeout"] as? Int == 300_000)
            #expect(publicKey["attestation"] as? String == "none")
            let selection = try #require(publicKey["authenticatorSelection"] as? [String: Any])
            #expect(selection["residentKey"] as? String == "required")
            #expect(selection["userVerification"] as? String == "required")
            let params = try #require(publicKey["pubKeyCredParams"] as? [[String: Any]])
            #expect(params.compactMap { $0["alg"] as? Int } == [-7, -8, -257])
            #expect((publicKey["user"] as? [String: Any])?["id"] as? String == options.string("userID"))

            let body = try passkey.registrationBody(options: options.json)
            let finish = try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
            #expect(finish.status == 204, "\(finish.text)")
            #expect(finish.body.isEmpty)

            let signIn = try await client.signIn(&passkey)
            #expect(signIn.status == 200, "\(signIn.text)")
            let passkeyToken = try #require(signIn.string("accessToken"))
            let account = try await client.send("GET", "/v1/account", token: passkeyToken)
            let passkeys = try #require(account.json["passkeys"] as? [[String: Any]])
            #expect(passkeys.count == 1)
            #expect(passkeys.first?["name"] as? String == "Passkey")
            #expect(passkeys.first?["attestationFormat"] as? String == "none")
            #expect(passkeys.first?["transports"] as? [String] == ["internal", "hybrid"])
            #expect(passkeys.first?["lastUsedAt"] is String)

            // The new passkey is excluded from the next registration.
            let again = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let exclude = ((again.json["publicKey"] as? [String: Any])?["excludeCredentials"] as? [[String: Any]]) ?? []
            #expect(exclude.compactMap { $0["id"] as? String } == [Base64URLEncoding.encode(passkey.credentialID)])
        }
    }

    @Test func conditionalUpgradeAcceptsUPAndUVZeroRightAfterAPasswordSignIn() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let finish = try await client.addPasskey(&passkey, token: token, mode: "conditional") { registration in
                registration.flags.userPresent = false
                registration.flags.userVerified = false
            }
            #expect(finish.status == 204, "\(finish.text)")
            #expect(try await client.signIn(&passkey).status == 200)
        }
    }

    @Test func modalRegistrationRefusesUPZeroAndKeepsThePasswordSession() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let finish = try await client.addPasskey(&passkey, token: token, mode: "modal") { registration in
                registration.flags.userPresent = false
            }
            #expect(finish.status == 400)
            #expect(finish.code == "registration-verification-failed")
            #expect(finish.string("reason") == "userPresentFlagNotSet")
            let noUV = try await client.addPasskey(&passkey, token: token, mode: "modal") { registration in
                registration.flags.userVerified = false
            }
            #expect(noUV.string("reason") == "userVerifiedFlagNotSet")
            // Slide 40: a failed upgrade never ends the password session.
            #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
        }
    }

    @Test func conditionalModeNeedsARecentPasswordSession() async throws {
        let clock = FixedClock(Date())
        try await withServer(environment: ["CONDITIONAL_UPGRADE_WINDOW_SECONDS": "300"], clock: clock) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            clock.advance(by: 301)
            let old = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "conditional"], token: token)
            #expect(old.status == 403)
            #expect(old.code == "conditional-not-allowed")
            // Modal still works for the same session.
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token)
                    .status == 200)

            // A passkey session may never start a conditional upgrade.
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let signedIn = try await client.signIn(&passkey)
            let passkeyToken = try #require(signedIn.string("accessToken"))
            let refused = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "conditional"], token: passkeyToken)
            #expect(refused.code == "conditional-not-allowed")
            let badMode = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "silent"], token: token)
            #expect(badMode.code == "invalid-request")
        }
    }

    @Test func aModalChallengeCannotBeFinishedWithoutPresenceEvenIfTheClientClaimsConditional() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let options = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token)
            var body = try passkey.registrationBody(options: options.json) {
                $0.flags.userPresent = false
                $0.flags.userVerified = false
            }
            body["mode"] = "conditional"
            let finish = try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
            #expect(finish.string("reason") == "userPresentFlagNotSet")
        }
    }

    @Test func challengesAreConsumedOnceAndOnlyByTheirAccount() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let (otherToken, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let body = try passkey.registrationBody(options: options.json)
            let stolen = try await client.send(
                "POST", "/v1/passkeys/registrations/finish", json: body, token: otherToken)
            #expect(stolen.code == "challenge-unavailable")
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token).status
                    == 204)
            let replay = try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
            #expect(replay.status == 400)
            #expect(replay.code == "challenge-unavailable")
            let unknown = try await client.send(
                "POST", "/v1/passkeys/registrations/finish",
                json: body.merging(["challengeID": UUID().uuidString.lowercased()]) { $1 }, token: token)
            #expect(unknown.code == "challenge-unavailable")
        }
    }

    @Test func aFailedVerificationConsumesTheChallengeButAMalformedBodyDoesNot() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            var body = try passkey.registrationBody(options: options.json)
            var malformed = body
            malformed["attestationObject"] = "***"
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: malformed, token: token).code
                    == "invalid-request")
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token).status
                    == 204)

            let second = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            var other = try TestPasskey()
            body = try other.registrationBody(options: second.json) { $0.relyingPartyID = "evil.example" }
            let failed = try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
            #expect(failed.string("reason") == "rpIdHashMismatch")
            body = try other.registrationBody(options: second.json)
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token).code
                    == "challenge-unavailable")
        }
    }

    /// Expiry is decided by the application's clock, the one that set `expiresAt` (a fixed
    /// clock moved past the lifetime expires every kind of challenge; no SQL needed).
    @Test func anExpiredChallengeIsUnavailable() async throws {
        let clock = FixedClock(Date())
        try await withServer(environment: ["CHALLENGE_LIFETIME_SECONDS": "60"], clock: clock) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let account = try await client.send("POST", "/v1/passkey-accounts/registrations")
            let signIn = try await client.startSignIn()
            var stranger = try TestPasskey()
            stranger.userHandle = Array(repeating: 7, count: 16)
            clock.advance(by: 61)
            let body = try passkey.registrationBody(options: options.json)
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token).code
                    == "challenge-unavailable")
            var other = try TestPasskey()
            var accountBody = try other.registrationBody(options: account.json)
            accountBody["email"] = "late@example.com"
            accountBody["displayName"] = "Late"
            #expect(
                try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: accountBody).code
                    == "registration-unavailable")
            let assertion = try stranger.assertionBody(options: signIn)
            #expect(
                try await client.send("POST", "/v1/passkeys/authentications/finish", json: assertion).code
                    == "challenge-unavailable")
        }
    }

    @Test func aCredentialRegisteredTwiceIsAConflict() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let (otherToken, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let twice = try await client.addPasskey(&passkey, token: otherToken)
            #expect(twice.status == 409)
            #expect(twice.code == "credential-exists")
        }
    }

    @Test func startsAreRateLimitedPerClientAddress() async throws {
        try await withServer(environment: ["RATE_LIMIT_STARTS_PER_MINUTE": "3"]) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/passkeys/authentications").status == 200)
            #expect(try await client.send("POST", "/v1/passkey-accounts/registrations").status == 200)
            #expect(try await client.send("POST", "/v1/passkeys/registrations", token: token).status == 200)
            let limited = try await client.send("POST", "/v1/passkeys/authentications")
            #expect(limited.status == 429)
            #expect(limited.code == "rate-limited")
            #expect(limited.headers["retry-after"].flatMap(Int.init).map { (1...60).contains($0) } == true)
        }
    }
}

enum Base64URLEncoding {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }
}
