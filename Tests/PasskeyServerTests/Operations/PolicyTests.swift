import Foundation
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Configuration that changes ceremony rules: USER_VERIFICATION, PASSKEY_ALGORITHMS,
/// PASSKEY_ATTESTATION_POLICY, SESSION_LIFETIME_SECONDS. (Under the default `any` policy the
/// options ask for `attestation: "none"`: PasskeyUpgradeTests.)
@Suite struct PolicyTests {
    @Test func preferredUserVerificationAcceptsUVZero() async throws {
        try await withServer(environment: ["USER_VERIFICATION": "preferred"]) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let selection = (options.json["publicKey"] as? [String: Any])?["authenticatorSelection"] as? [String: Any]
            #expect(selection?["userVerification"] as? String == "preferred")
            var passkey = try TestPasskey()
            let body = try passkey.registrationBody(options: options.json) { $0.flags.userVerified = false }
            #expect(
                try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token).status
                    == 204)
            // UP is still required outside conditional mode.
            var other = try TestPasskey()
            let noUP = try await client.addPasskey(&other, token: token) { $0.flags.userPresent = false }
            #expect(noUP.string("reason") == "userPresentFlagNotSet")
            #expect(try await client.signIn(&passkey) { $0.flags.userVerified = false }.status == 200)
        }
    }

    @Test func onlyConfiguredAlgorithmsAreOfferedAndAccepted() async throws {
        try await withServer(environment: ["PASSKEY_ALGORITHMS": "ES256"]) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            let params = (options.json["publicKey"] as? [String: Any])?["pubKeyCredParams"] as? [[String: Any]]
            #expect(params?.compactMap { $0["alg"] as? Int } == [-7])
            var passkey = try TestPasskey(algorithm: .edDSA)
            let body = try passkey.registrationBody(options: options.json)
            let refused = try await client.send("POST", "/v1/passkeys/registrations/finish", json: body, token: token)
            #expect(refused.string("reason") == "unsupportedAlgorithm")
        }
    }

    @Test func theTrustedPolicyRefusesUnattestedPasskeys() async throws {
        let anchors = PackagePaths.root.appendingPathComponent("TrustAnchors").path
        try await withServer(environment: [
            "PASSKEY_ATTESTATION_POLICY": "trusted", "PASSKEY_TRUST_ANCHORS_DIR": anchors,
        ]) {
            server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            // Spec v3: the chain is checked, so the options ask for the statement (with "none"
            // a browser sends none and every registration is refused).
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            #expect((options.json["publicKey"] as? [String: Any])?["attestation"] as? String == "direct")
            let signUp = try await client.send("POST", "/v1/passkey-accounts/registrations")
            #expect((signUp.json["publicKey"] as? [String: Any])?["attestation"] as? String == "direct")
            var passkey = try TestPasskey()
            let refused = try await client.addPasskey(&passkey, token: token)
            #expect(refused.code == "registration-verification-failed")
            #expect(refused.string("reason") == "untrustedAttestation")
        }
    }

    @Test func theAnyPolicyAsksForNoAttestation() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let options = try await client.send("POST", "/v1/passkeys/registrations", token: token)
            #expect((options.json["publicKey"] as? [String: Any])?["attestation"] as? String == "none")
            let signUp = try await client.send("POST", "/v1/passkey-accounts/registrations")
            #expect((signUp.json["publicKey"] as? [String: Any])?["attestation"] as? String == "none")
        }
    }

    @Test func expiredSessionsAre401() async throws {
        let clock = FixedClock(Date())
        try await withServer(environment: ["SESSION_LIFETIME_SECONDS": "3600"], clock: clock) { server, _ in
            let (token, _) = try await server.client.passwordUser()
            #expect(try await server.client.send("GET", "/v1/account", token: token).status == 200)
            clock.advance(by: 3601)
            let expired = try await server.client.send("GET", "/v1/account", token: token)
            #expect(expired.status == 401)
            #expect(expired.code == "unauthorized")
            #expect(try await server.client.send("GET", "/v1/account", token: "not-a-token").status == 401)
            #expect(
                try await server.client.send("GET", "/v1/account", token: String(repeating: "A", count: 43)).status
                    == 401)
        }
    }
}
