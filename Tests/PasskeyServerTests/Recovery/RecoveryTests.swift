import Foundation
import PasskeyTestSupport
import Testing

/// Spec v2 recovery codes and recovery sign-in: stage ③ made safe.
@Suite struct RecoveryTests {
    /// `XXXX-XXXX-XXXX-XXXX` in Crockford's alphabet.
    static func hasCodeShape(_ code: String) -> Bool {
        let groups = code.split(separator: "-", omittingEmptySubsequences: false)
        let alphabet = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        return groups.count == 4 && groups.allSatisfy { $0.count == 4 && $0.allSatisfy(alphabet.contains) }
    }

    @Test func aSetIsShownOnceCountedAndReplacedWhole() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            #expect(
                try await client.send("GET", "/v1/account", token: token).json["recoveryCodesRemaining"] as? Int == 0)
            let first = try await client.send("POST", "/v1/account/recovery-codes", token: token)
            #expect(first.status == 201)
            let codes = try #require(first.json["codes"] as? [String])
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10)
            #expect(codes.allSatisfy(Self.hasCodeShape))
            #expect(first.string("createdAt") != nil)
            #expect(
                try await client.send("GET", "/v1/account", token: token).json["recoveryCodesRemaining"] as? Int == 10)

            let second = try await client.send("POST", "/v1/account/recovery-codes", token: token)
            let newCodes = try #require(second.json["codes"] as? [String])
            #expect(Set(newCodes).isDisjoint(with: codes))
            // Every code of the replaced set stopped working.
            let old = try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
            #expect(old.status == 401)
            #expect(old.code == "invalid-credentials")

            // Case, hyphens and spaces do not matter.
            let typed = newCodes[3].lowercased().replacingOccurrences(of: "-", with: " ")
            let session = try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": typed])
            #expect(session.status == 200)
            #expect(session.string("method") == "recovery")
            let expiresAt = try #require(session.string("expiresAt").flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(expiresAt.timeIntervalSinceNow - 900) < 120)
            let recoveryToken = try #require(session.string("accessToken"))
            #expect(
                try await client.send("GET", "/v1/account", token: recoveryToken).json["recoveryCodesRemaining"] as? Int
                    == 9)
            // Used once, never again.
            let again = try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": typed])
            #expect(again.code == "invalid-credentials")
        }
    }

    @Test func unknownEmailWrongUsedAndMalformedCodesAreRefused() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            let codes = try #require(
                try await client.send("POST", "/v1/account/recovery-codes", token: token).json["codes"] as? [String])
            for (address, code) in [
                ("nobody@example.com", codes[0]), (email, "0000-0000-0000-0000"),
                (email.uppercased(), "ZZZZ-ZZZZ-ZZZZ-ZZZZ"),
            ] {
                let refused = try await client.send(
                    "POST", "/v1/recovery/sessions", json: ["email": address, "code": code])
                #expect(refused.status == 401)
                #expect(refused.code == "invalid-credentials")
            }
            for malformed in ["", "1234", String(repeating: "A", count: 17), "UUUU-UUUU-UUUU-UUUU"] {
                let refused = try await client.send(
                    "POST", "/v1/recovery/sessions", json: ["email": email, "code": malformed])
                #expect(refused.status == 400)
                #expect(refused.code == "invalid-request")
            }
            #expect(try await client.send("POST", "/v1/recovery/sessions", json: ["email": email]).status == 400)
            // The codes are still all there.
            #expect(
                try await client.send("GET", "/v1/account", token: token).json["recoveryCodesRemaining"] as? Int == 10)
        }
    }

    @Test func ofSixteenConcurrentUsesOfOneCodeExactlyOneSignsIn() async throws {
        // A budget above 16, so that every loser is a plain 401 (not the attempt limit's 429).
        try await withServer(environment: ["RATE_LIMIT_PASSWORD_PER_EMAIL": "100"]) { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            let codes = try #require(
                try await client.send("POST", "/v1/account/recovery-codes", token: token).json["codes"] as? [String])
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await client.send(
                            "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]]
                        )
                        .status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 15)
        }
    }

    /// The finding: thirty parallel uses of one valid code (a double-submitted form) gave 1×200,
    /// 9×401 counted as failures and 20×429, locking the user out. With the default budget (10
    /// per email): exactly one signs in, the rest are the used-code 401, and none was counted, so
    /// the password still signs in afterwards.
    @Test func aDoubleSubmittedCodeSignsInOnceAndDoesNotLockTheUserOut() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "the password")
            let codes = try #require(
                try await client.send("POST", "/v1/account/recovery-codes", token: token).json["codes"] as? [String])
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        let answer = try await client.send(
                            "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
                        return (answer.status, answer.code)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == 200 }.count == 1)
            #expect(answers.filter { $0.0 == 401 && $0.1 == "invalid-credentials" }.count == 29)
            let password = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "the password"])
            #expect(password.status == 200)
            let second = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[1]])
            #expect(second.status == 200)
        }
    }

    @Test func failedCodesCountAgainstThePasswordLimits() async throws {
        try await withServer(environment: ["RATE_LIMIT_PASSWORD_PER_EMAIL": "2"]) { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "the password")
            let codes = try #require(
                try await client.send("POST", "/v1/account/recovery-codes", token: token).json["codes"] as? [String])
            for _ in 0..<2 {
                let wrong = try await client.send(
                    "POST", "/v1/recovery/sessions", json: ["email": email, "code": "0000-0000-0000-0000"])
                #expect(wrong.status == 401)
            }
            let limited = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] != nil)
            // The same budget: the password is limited too.
            let password = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "the password"])
            #expect(password.status == 429)
        }
    }

    /// The README's story: a passkey-only user sets up recovery, loses the device, recovers with a
    /// code, adds a new passkey at once (modal, not conditional) and signs in with it.
    @Test func aPasskeyOnlyUserWhoLostTheDeviceGetsBackIn() async throws {
        try await withServer { server, _ in
            let client = server.client
            let email = "lost-\(UUID().uuidString.prefix(8))@example.com"
            var oldDevice = try TestPasskey()
            let start = try await client.send(
                "POST", "/v1/passkey-accounts/registrations", json: ["email": email, "displayName": "Hanako"])
            var body = try oldDevice.registrationBody(options: start.json)
            body["email"] = email
            body["displayName"] = "Hanako"
            let created = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            let token = try #require(created.string("accessToken"))
            let codes = try #require(
                try await client.send("POST", "/v1/account/recovery-codes", token: token).json["codes"] as? [String])

            let recovered = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[5]])
            let recoveryToken = try #require(recovered.string("accessToken"))
            let conditional = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "conditional"], token: recoveryToken)
            #expect(conditional.code == "conditional-not-allowed")
            var newDevice = try TestPasskey()
            #expect(try await client.addPasskey(&newDevice, token: recoveryToken).status == 204)
            let signIn = try await client.signIn(&newDevice)
            #expect(signIn.status == 200)
            #expect(signIn.string("accountID") == created.string("accountID"))
        }
    }

    @Test func thePasswordGoesOnlyWithRecoverySetUpInTheContractsOrder() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            // No passkey has signed in yet: that is said first.
            #expect(
                try await client.send("DELETE", "/v1/account/password", token: token).code == "passkey-not-yet-used")
            #expect(try await client.signIn(&passkey).status == 200)
            let refused = try await client.send("DELETE", "/v1/account/password", token: token)
            #expect(refused.status == 409)
            #expect(refused.code == "recovery-not-set-up")
            // A support desk's code does not count.
            let operatorCode = try await CommandLineTests.recoveryCode(for: email, database: database)
            #expect(operatorCode.status == 0)
            #expect(
                try await client.send("DELETE", "/v1/account/password", token: token).code == "recovery-not-set-up")
            #expect(
                try await client.send("GET", "/v1/account", token: token).json["recoveryCodesRemaining"] as? Int == 0)
            #expect(try await client.send("POST", "/v1/account/recovery-codes", token: token).status == 201)
            #expect(try await client.send("DELETE", "/v1/account/password", token: token).status == 204)
        }
    }

    @Test func creatingCodesNeedsARecentSignIn() async throws {
        let clock = FixedClock(Date())
        try await withServer(clock: clock) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            clock.advance(by: 601)
            let refused = try await client.send("POST", "/v1/account/recovery-codes", token: token)
            #expect(refused.status == 403)
            #expect(refused.code == "reauthentication-required")
            #expect(try await client.send("POST", "/v1/account/recovery-codes", token: nil).status == 401)
        }
    }
}
