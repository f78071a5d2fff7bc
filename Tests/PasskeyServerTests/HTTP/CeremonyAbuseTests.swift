import Foundation
import PasskeyTestSupport
import Testing

/// Issue 20 (v3), over HTTP on the real server: findings 1 (testing addresses through the
/// new-account finish), 5 (RSA keys with huge parameters) and 7 (races with deletion).
@Suite struct CeremonyAbuseTests {
    private static let finishPath = "/v1/passkey-accounts/registrations/finish"

    /// A new-account registration's options, and a finish body for them with `passkey`.
    private func finishBody(
        _ client: TestHTTPClient, _ passkey: inout TestPasskey, email: String,
        adjust: (inout SoftwareAuthenticatorRegistration) -> Void = { _ in }
    ) async throws -> [String: Any] {
        let options = try await client.send("POST", "/v1/passkey-accounts/registrations")
        try #require(options.status == 200, "start: \(options.text)")
        var body = try passkey.registrationBody(options: options.json, adjust: adjust)
        body["email"] = email
        body["displayName"] = "Probe"
        return body
    }

    @Test func aRegisteredCredentialCannotTestAddressesAndTheRegistrationIsUsedUpAfterFiveFailures() async throws {
        try await withServer { server, _ in
            let client = server.client
            _ = try await client.passwordUser(email: "taken@example.com")
            var passkey = try TestPasskey()
            let first = try await finishBody(client, &passkey, email: "owner@example.com")
            #expect(try await client.send("POST", Self.finishPath, json: first).status == 201)
            // The same credential with a taken and with a free email: one answer, credential-exists.
            var body = try await finishBody(client, &passkey, email: "taken@example.com")
            var codes: [String?] = []
            for email in ["taken@example.com", "free-1@example.com", "taken@example.com", "free-2@example.com"] {
                body["email"] = email
                codes.append(try await client.send("POST", Self.finishPath, json: body).code)
            }
            #expect(codes == Array(repeating: "credential-exists", count: 4))
            body["email"] = "free-3@example.com"
            #expect(try await client.send("POST", Self.finishPath, json: body).code == "credential-exists")
            // That was the fifth failure: the registration is used up.
            body["email"] = "taken@example.com"
            let sixth = try await client.send("POST", Self.finishPath, json: body)
            #expect(sixth.status == 400)
            #expect(sixth.code == "registration-unavailable")
        }
    }

    @Test func eachTakenEmailCountsAgainstTheSignupsPerAddress() async throws {
        try await withServer(environment: ["RATE_LIMIT_SIGNUPS_PER_ADDRESS": "3"]) { server, _ in
            let client = server.client
            _ = try await client.passwordUser(email: "taken@example.com")  // sign-up 1 of 3
            var answers: [Int] = []
            for _ in 0..<3 {
                var passkey = try TestPasskey()
                let body = try await finishBody(client, &passkey, email: "taken@example.com")
                answers.append(try await client.send("POST", Self.finishPath, json: body).status)
            }
            #expect(answers == [409, 409, 429])
            // The budget is shared: a password sign-up from the address is refused too.
            let signup = try await client.send(
                "POST", "/v1/accounts",
                json: ["email": "new@example.com", "displayName": "New", "password": "correct horse battery"])
            #expect(signup.status == 429)
        }
    }

    @Test func ofConcurrentFailingFinishesOfOneRegistrationAtMostFiveAnswerTheirFailure() async throws {
        try await withServer { server, _ in
            let client = server.client
            var passkey = try TestPasskey()
            let body = try await finishBody(client, &passkey, email: "race@example.com") { registration in
                registration.clientData.origin = "https://evil.example"
            }
            let raw = [UInt8](try JSONSerialization.data(withJSONObject: body))
            let codes = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.send("POST", Self.finishPath, raw: raw).code }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(codes.filter { $0 == "registration-verification-failed" }.count == 5)
            #expect(codes.filter { $0 == "registration-unavailable" }.count == 7)
        }
    }

    /// A big-endian odd integer of exactly `bits` bits.
    private static func integer(bits: Int) -> [UInt8] {
        var bytes = (0..<(bits + 7) / 8).map { _ in UInt8.random(in: 0...255) }
        let top = bits % 8 == 0 ? 8 : bits % 8
        bytes[0] = (bytes[0] & UInt8((1 << top) - 1)) | UInt8(1 << (top - 1))
        bytes[bytes.count - 1] |= 1
        return bytes
    }

    @Test(arguments: [
        (2047, [UInt8]([1, 0, 1])), (4097, [1, 0, 1]), (16384, [1, 0, 1]), (2048, [3]), (2048, integer(bits: 3070)),
    ])
    func anRSAKeyOutsideTheLimitsIsAnUnsupportedAlgorithm(modulusBits: Int, exponent: [UInt8]) async throws {
        try await withServer { server, _ in
            let client = server.client
            var passkey = try TestPasskey(algorithm: .rs256)
            let body = try await finishBody(client, &passkey, email: "rsa@example.com") { registration in
                registration.attestation = .packedSelf()
                registration.coseKeyBytes =
                    SoftwareAuthenticatorCBOR.map([
                        (.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(Self.integer(bits: modulusBits))),
                        (.int(-2), .bytes(exponent)),
                    ]).encoded
            }
            let refused = try await client.send("POST", Self.finishPath, json: body)
            #expect(refused.status == 400)
            #expect(refused.code == "registration-verification-failed")
            #expect(refused.string("reason") == "unsupportedAlgorithm")
        }
    }

    @Test func signInsRacingTheAccountsDeletionAnswerAsIfItWereGoneNever500() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            var passkey = try TestPasskey(backupEligible: true)
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            var assertions: [[String: Any]] = []
            for _ in 0..<8 { assertions.append(try passkey.assertionBody(options: try await client.startSignIn())) }
            let signIns = try assertions.map { [UInt8](try JSONSerialization.data(withJSONObject: $0)) }
            let statuses = try await withThrowingTaskGroup(of: (String, Int, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let answer = try await client.send(
                            "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
                        return ("password", answer.status, answer.code)
                    }
                }
                for body in signIns {
                    group.addTask {
                        let answer = try await client.send("POST", "/v1/passkeys/authentications/finish", raw: body)
                        return ("passkey", answer.status, answer.code)
                    }
                }
                group.addTask {
                    let answer = try await client.send("DELETE", "/v1/account", token: token)
                    return ("delete", answer.status, answer.code)
                }
                return try await group.reduce(into: [(String, Int, String?)]()) { $0.append($1) }
            }
            #expect(statuses.contains { $0.0 == "delete" && $0.1 == 204 })
            for (kind, status, code) in statuses where kind != "delete" {
                #expect(status == 200 || status == 401, "\(kind): \(status) \(code ?? "")")
                if status == 401 {
                    // unknown-credential: what a passkey of an account already gone answers.
                    let gone: [String?] = ["invalid-credentials", "authentication-failed", "unknown-credential"]
                    #expect(gone.contains(code), "\(kind): \(code ?? "")")
                }
            }
        }
    }
}
