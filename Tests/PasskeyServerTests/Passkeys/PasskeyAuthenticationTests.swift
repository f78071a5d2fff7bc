import Foundation
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Everyone signs in through one discoverable-credential flow.
@Suite struct PasskeyAuthenticationTests {
    /// A password user with one registered passkey.
    private func enrolled(_ client: TestHTTPClient, algorithm: COSEAlgorithm = .es256, backupEligible: Bool = false)
        async throws -> TestPasskey
    {
        let (token, _) = try await client.passwordUser()
        var passkey = try TestPasskey(algorithm: algorithm, backupEligible: backupEligible)
        let finish = try await client.addPasskey(&passkey, token: token)
        try #require(finish.status == 204, "\(finish.text)")
        return passkey
    }

    @Test(arguments: [COSEAlgorithm.es256, .edDSA, .rs256])
    func signInWorksForEveryDefaultAlgorithm(_ algorithm: COSEAlgorithm) async throws {
        try await withServer { server, _ in
            var passkey = try await enrolled(server.client, algorithm: algorithm)
            let options = try await server.client.startSignIn()
            let publicKey = try #require(options["publicKey"] as? [String: Any])
            #expect((publicKey["allowCredentials"] as? [Any])?.isEmpty == true)
            #expect(publicKey["rpId"] as? String == "localhost")
            #expect(publicKey["userVerification"] as? String == "required")
            let body = try passkey.assertionBody(options: options)
            let session = try await server.client.send("POST", "/v1/passkeys/authentications/finish", json: body)
            #expect(session.status == 200, "\(session.text)")
            #expect(session.string("tokenType") == "Bearer")
            let replay = try await server.client.send("POST", "/v1/passkeys/authentications/finish", json: body)
            #expect(replay.code == "challenge-unavailable")
        }
    }

    @Test func refusalsAnswerAuthenticationFailedAndLogTheReason() async throws {
        let log = LogCapture()
        try await withServer(environment: ["LOG_LEVEL": "info"], logSink: log.sink) { server, _ in
            let client = server.client
            var passkey = try await enrolled(client)
            let cases: [(String, (inout SoftwareAuthenticatorAssertion) -> Void)] = [
                ("originMismatch", { $0.clientData.origin = "https://evil.example" }),
                ("rpIdHashMismatch", { $0.relyingPartyID = "evil.example" }),
                ("signatureInvalid", { $0.corruptSignature = true }),
                ("userHandleMismatch", { $0.userHandle = [UInt8](repeating: 7, count: 16) }),
                ("userHandleMissing", { $0.userHandle = nil }),
                ("typeMismatch", { $0.clientData.type = "webauthn.create" }),
                ("userVerifiedFlagNotSet", { $0.flags.userVerified = false }),
                ("userPresentFlagNotSet", { $0.flags.userPresent = false }),
            ]
            for (reason, adjust) in cases {
                let response = try await client.signIn(&passkey, adjust: adjust)
                #expect(response.status == 401, "\(reason)")
                #expect(response.code == "authentication-failed", "\(reason)")
                #expect(response.string("reason") == nil, "the reason is not told: \(reason)")
            }
            let metrics = try await client.send("GET", "/metrics").text
            let lines = log.all.filter { $0.contains("[PasskeyAuthentication]") && $0.contains("event=failed") }
            for (reason, _) in cases {
                #expect(metrics.contains("reason=\"\(reason)\""), "metrics count \(reason)")
                #expect(lines.contains { $0.contains("reason=\(reason) ") }, "the log names \(reason)")
            }
            #expect(try await client.signIn(&passkey).status == 200)
        }
    }

    /// Consume-once covers failures: a finish that reached verification and failed, or named an
    /// unknown credential, used its challenge up, so a correct response cannot follow on it.
    @Test func aFailedFinishUsesItsChallengeUp() async throws {
        try await withServer { server, _ in
            let client = server.client
            var passkey = try await enrolled(client)
            let options = try await client.startSignIn()
            let forged = try passkey.assertionBody(options: options) { $0.corruptSignature = true }
            #expect(try await client.send("POST", "/v1/passkeys/authentications/finish", json: forged).status == 401)
            let honest = try passkey.assertionBody(options: options)
            let retry = try await client.send("POST", "/v1/passkeys/authentications/finish", json: honest)
            #expect(retry.code == "challenge-unavailable")

            var stranger = try TestPasskey()
            stranger.userHandle = [UInt8](repeating: 1, count: 16)
            let second = try await client.startSignIn()
            let unknown = try await client.send(
                "POST", "/v1/passkeys/authentications/finish", json: try stranger.assertionBody(options: second))
            #expect(unknown.code == "unknown-credential")
            let after = try await client.send(
                "POST", "/v1/passkeys/authentications/finish", json: try passkey.assertionBody(options: second))
            #expect(after.code == "challenge-unavailable")
            #expect(try await client.signIn(&passkey).status == 200)
        }
    }

    @Test func anUnknownCredentialIsSaidSoForTheSignalAPI() async throws {
        try await withServer { server, _ in
            var stranger = try TestPasskey()
            stranger.userHandle = [UInt8](repeating: 1, count: 16)
            let response = try await server.client.signIn(&stranger)
            #expect(response.status == 401)
            #expect(response.code == "unknown-credential")
        }
    }

    @Test func aDeviceBoundCounterThatDoesNotIncreaseIsRefused() async throws {
        try await withServer { server, _ in
            var passkey = try await enrolled(server.client, backupEligible: false)
            #expect(try await server.client.signIn(&passkey, counterStep: 5).status == 200)
            passkey.signCount -= 2
            let cloned = try await server.client.signIn(&passkey, counterStep: 0)
            #expect(cloned.code == "authentication-failed")
            #expect(try await server.client.signIn(&passkey, counterStep: 10).status == 200)
        }
    }

    @Test func aSyncedPasskeyWithAStaleCounterIsAcceptedWithAWarning() async throws {
        try await withServer { server, _ in
            var passkey = try await enrolled(server.client, backupEligible: true)
            #expect(try await server.client.signIn(&passkey, counterStep: 5).status == 200)
            passkey.signCount = 1
            #expect(try await server.client.signIn(&passkey, counterStep: 0).status == 200)
            let metrics = try await server.client.send("GET", "/metrics").text
            #expect(
                metrics.contains(
                    "passkey_ceremony_outcomes_total{ceremony=\"passkey_authentication\",outcome=\"warning\",reason=\"cloneWarning\"} 1"
                ))
        }
    }

    @Test func backupEligibilityMayNotChange() async throws {
        try await withServer { server, _ in
            var passkey = try await enrolled(server.client, backupEligible: false)
            let response = try await server.client.signIn(&passkey) { $0.flags.backupEligible = true }
            #expect(response.code == "authentication-failed")
            #expect(
                try await server.client.send("GET", "/metrics").text.contains("reason=\"backupEligibilityChanged\""))
        }
    }

    /// 16 concurrent finishes of one challenge: exactly one session.
    @Test func sixteenConcurrentFinishesOfOneChallengeHaveOneWinner() async throws {
        try await withServer { server, _ in
            let client = server.client
            var passkey = try await enrolled(client)
            let options = try await client.startSignIn()
            let body = try passkey.assertionBody(options: options)
            let data = try JSONSerialization.data(withJSONObject: body)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await client.send("POST", "/v1/passkeys/authentications/finish", raw: Array(data)).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 400 }.count == 15)
        }
    }

    /// 16 concurrent forged finishes of one challenge: one verdict (401), the rest find it used.
    @Test func sixteenConcurrentForgeriesOfOneChallengeGetOneVerdict() async throws {
        try await withServer { server, _ in
            let client = server.client
            var passkey = try await enrolled(client)
            let options = try await client.startSignIn()
            let body = try passkey.assertionBody(options: options) { $0.corruptSignature = true }
            let data = try JSONSerialization.data(withJSONObject: body)
            let answers = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await client.send("POST", "/v1/passkeys/authentications/finish", raw: Array(data)).code
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(answers.filter { $0 == "authentication-failed" }.count == 1)
            #expect(answers.filter { $0 == "challenge-unavailable" }.count == 15)
        }
    }

    @Test func browserToJSONBodiesAndStandardBase64AreAccepted() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let flat = try passkey.registrationBody(options: options.json)
            let credential: [String: Any] = [
                "id": flat["credentialID"]!, "rawId": flat["credentialID"]!, "type": "public-key",
                "response": [
                    "clientDataJSON": flat["clientDataJSON"]!, "attestationObject": flat["attestationObject"]!,
                    "transports": ["usb"],
                ],
                "clientExtensionResults": ["credProps": ["rk": true]], "authenticatorAttachment": "cross-platform",
            ]
            var both: [String: Any] = flat
            both["credential"] = credential
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: both, token: token).code
                    == "invalid-request")
            let finish = try await client.send(
                "POST", "/v1/passkeys/registrations/finish",
                json: ["challengeID": flat["challengeID"]!, "credential": credential, "name": "My key"], token: token)
            #expect(finish.status == 204, "\(finish.text)")
            let list = try await client.send("GET", "/v1/passkeys", token: token)
            #expect(list.jsonArray.first?["name"] as? String == "My key")
            #expect(list.jsonArray.first?["transports"] as? [String] == ["usb"])

            // Sign in with iOS-style standard base64 (padding, + and /).
            let signInOptions = try await client.startSignIn()
            var assertion = try passkey.assertionBody(options: signInOptions)
            for field in ["credentialID", "clientDataJSON", "authenticatorData", "signature", "userHandle"] {
                let bytes = Base64URLDecoding.decode(assertion[field] as! String)!
                assertion[field] = Data(bytes).base64EncodedString()
            }
            let session = try await client.send("POST", "/v1/passkeys/authentications/finish", json: assertion)
            #expect(session.status == 200, "\(session.text)")

            // A sign-in as toJSON() gives it; both forms at once is refused before the challenge is used.
            let jsonOptions = try await client.startSignIn()
            let signed = try passkey.assertionBody(options: jsonOptions)
            let signInCredential: [String: Any] = [
                "id": signed["credentialID"]!, "rawId": signed["credentialID"]!, "type": "public-key",
                "response": [
                    "clientDataJSON": signed["clientDataJSON"]!, "authenticatorData": signed["authenticatorData"]!,
                    "signature": signed["signature"]!, "userHandle": signed["userHandle"]!,
                ],
                "clientExtensionResults": [String: Any](), "authenticatorAttachment": "platform",
            ]
            var mixed = signed
            mixed["credential"] = signInCredential
            let refused = try await client.send("POST", "/v1/passkeys/authentications/finish", json: mixed)
            #expect(refused.code == "invalid-request")
            var missing = signInCredential
            missing["response"] = ["clientDataJSON": signed["clientDataJSON"]!]
            let incomplete = try await client.send(
                "POST", "/v1/passkeys/authentications/finish",
                json: ["challengeID": signed["challengeID"]!, "credential": missing])
            #expect(incomplete.code == "invalid-request")
            #expect(incomplete.string("detail") == "credential.response.authenticatorData is required.")
            let viaJSON = try await client.send(
                "POST", "/v1/passkeys/authentications/finish",
                json: ["challengeID": signed["challengeID"]!, "credential": signInCredential])
            #expect(viaJSON.status == 200, "\(viaJSON.text)")
        }
    }
}
