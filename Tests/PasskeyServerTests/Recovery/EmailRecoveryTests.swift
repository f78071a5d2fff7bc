import Foundation
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

/// Spec v3: recovery by email, and the take-back of a pre-registered account.
@Suite struct EmailRecoveryTests {
    /// Mails a sign-in code to `email` and signs in with it.
    static func signInByEmail(_ email: String, client: TestHTTPClient, database: TestDatabase) async throws
        -> TestResponse
    {
        let requested = try await client.send("POST", "/v1/recovery/email", json: ["email": email])
        try #require(requested.status == 202, "recovery email: \(requested.text)")
        let code = try await MailedCode.latest(to: email, in: database)
        return try await client.send("POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code])
    }

    @Test func unknownUnverifiedAndVerifiedAddressesAreAnsweredAlike() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (_, unverified) = try await client.passwordUser()
            let (token, verified) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            let code = try await MailedCode.latest(to: verified, in: database)
            #expect(
                try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token
                ).status == 200)
            let unknown = "nobody-\(UUID().uuidString.prefix(8))@example.com"
            var answers: [String: (Int, String, String?)] = [:]
            for email in [unknown, unverified, verified] {
                let answer = try await client.send("POST", "/v1/recovery/email", json: ["email": email])
                answers[email] = (answer.status, answer.text, answer.headers["content-type"])
            }
            #expect(Set(answers.values.map(\.0)) == [202])
            #expect(Set(answers.values.map(\.1)) == ["{}"])
            #expect(Set(answers.values.map(\.2)).count == 1)
            // Mail only where an account has the address, never to an unknown one.
            #expect(try await MailedCode.mails(to: unknown, in: database).isEmpty)
            #expect(try await MailedCode.mails(to: unverified, in: database).count == 2)  // sign-up's and this
            #expect(
                try await MailedCode.count("SELECT count(*) FROM email_codes WHERE purpose = 'sign-in'", in: database)
                    == 2)

            // Over the sending limit (5 an hour) the answer stays 202 {} and nothing more is mailed.
            for _ in 0..<6 {
                let answer = try await client.send("POST", "/v1/recovery/email", json: ["email": unverified])
                #expect(answer.status == 202)
                #expect(answer.text == "{}")
            }
            #expect(try await MailedCode.mails(to: unverified, in: database).count == 5)
            let invalid = try await client.send("POST", "/v1/recovery/email", json: ["email": "nope"])
            #expect(invalid.status == 400)
            #expect(invalid.code == "invalid-request")
        }
    }

    @Test func theRequestIsUnderTheStartLimitPerClientAddress() async throws {
        try await withServer(environment: try await MailEnvironment.on(["RATE_LIMIT_STARTS_PER_MINUTE": "2"])) {
            server, _ in
            let client = server.client
            var statuses: [Int] = []
            for index in 0..<3 {
                statuses.append(
                    try await client.send("POST", "/v1/recovery/email", json: ["email": "a\(index)@example.com"]).status
                )
            }
            #expect(statuses == [202, 202, 429])
        }
    }

    @Test func anEmailSignInOnAVerifiedAddressDeletesNothing() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            let verify = try await MailedCode.latest(to: email, in: database)
            #expect(
                try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": verify], token: token
                ).status == 200)
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)

            let session = try await Self.signInByEmail(email, client: client, database: database)
            #expect(session.status == 200)
            #expect(session.string("method") == "email")
            let expiresAt = try #require(session.string("expiresAt").flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(expiresAt.timeIntervalSinceNow - 900) < 120)
            #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
            #expect(try await client.signIn(&passkey).status == 200)
            #expect(
                try await client.send(
                    "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"]
                )
                .status == 200)
            // A security notice went to the verified address.
            let mails = try await MailedCode.mails(to: email, in: database)
            #expect(mails.last?.body.contains("UTC") == true)
        }
    }

    @Test func anEmailSignInTakesANeverVerifiedAccountBack() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            // The attacker pre-registers the owner's address with a password and a passkey.
            let (attackerToken, email) = try await client.passwordUser(password: "attacker password")
            var attackerPasskey = try TestPasskey()
            #expect(try await client.addPasskey(&attackerPasskey, token: attackerToken).status == 204)
            let attackerPasskeySession = try await client.signIn(&attackerPasskey)
            #expect(attackerPasskeySession.status == 200)
            let passkeyToken = try #require(attackerPasskeySession.string("accessToken"))
            _ = try await client.recoveryCodes(token: attackerToken)

            let owner = try await Self.signInByEmail(email, client: client, database: database)
            #expect(owner.status == 200)
            #expect(owner.string("method") == "email")
            let ownerToken = try #require(owner.string("accessToken"))

            // The attacker's sessions, password and passkey stop working.
            #expect(try await client.send("GET", "/v1/account", token: attackerToken).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: passkeyToken).status == 401)
            let password = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "attacker password"])
            #expect(password.status == 401)
            #expect(try await client.signIn(&attackerPasskey).status != 200)

            let account = try await client.send("GET", "/v1/account", token: ownerToken)
            #expect(account.json["emailVerified"] as? Bool == true)
            #expect(account.json["hasPassword"] as? Bool == false)
            #expect((account.json["passkeys"] as? [Any])?.isEmpty == true)
            #expect(account.json["recoveryCodesRemaining"] as? Int == 0)
            // The owner adds their own passkey at once (a recent sign-in), but not conditionally.
            var ownerPasskey = try TestPasskey()
            #expect(try await client.addPasskey(&ownerPasskey, token: ownerToken).status == 204)
            let conditional = try await client.send(
                "POST", "/v1/passkeys/registrations", json: ["mode": "conditional"], token: ownerToken)
            #expect(conditional.code == "conditional-not-allowed")
        }
    }

    /// Security round 4, finding 1: requests the attacker's session authorised before the
    /// take-back committed, and password sign-ins whose hash was read before it, must not leave
    /// the attacker a way in after it, whichever order PostgreSQL runs them in. Each round races
    /// the take-back with password sign-ins, a new password and a passkey addition; afterwards
    /// every token the attacker got is dead and nothing the attacker set survives.
    @Test func aTakeBackHoldsAgainstTheAttackersRacingRequests() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            for round in 0..<4 {
                let (attackerToken, email) = try await client.passwordUser(password: "attacker password")
                #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
                let code = try await MailedCode.latest(to: email, in: database)
                var passkey = try TestPasskey()
                let options = try await client.send(
                    "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: attackerToken)
                try #require(options.status == 200, "registration start: \(options.text)")
                let registration = [UInt8](
                    try JSONSerialization.data(withJSONObject: try passkey.registrationBody(options: options.json)))
                enum Outcome: Sendable {
                    case owner(TestResponse)
                    case attackerToken(String?)
                    case other(Int)
                }
                let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                    for _ in 0..<3 {
                        group.addTask {
                            let signIn = try await client.send(
                                "POST", "/v1/sessions", json: ["email": email, "password": "attacker password"])
                            return .attackerToken(signIn.status == 200 ? signIn.string("accessToken") : nil)
                        }
                    }
                    group.addTask {
                        let set = try await client.send(
                            "PUT", "/v1/account/password", json: ["password": "attacker's new password"],
                            token: attackerToken)
                        return .other(set.status)
                    }
                    group.addTask {
                        let finish = try await client.send(
                            "POST", "/v1/passkeys/registrations/finish", raw: registration, token: attackerToken)
                        return .other(finish.status)
                    }
                    group.addTask {
                        .owner(
                            try await client.send(
                                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code]))
                    }
                    return try await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
                var ownerAnswer: TestResponse?
                var attackerTokens = [attackerToken]
                for outcome in outcomes {
                    switch outcome {
                    case .owner(let answer): ownerAnswer = answer
                    case .attackerToken(let token): if let token { attackerTokens.append(token) }
                    case .other(let status): #expect([200, 204, 401].contains(status), "round \(round): \(status)")
                    }
                }
                let owner = try #require(ownerAnswer)
                try #require(owner.status == 200, "round \(round): \(owner.text)")
                let ownerToken = try #require(owner.string("accessToken"))
                for token in attackerTokens {
                    let answer = try await client.send("GET", "/v1/account", token: token)
                    #expect(answer.status == 401, "round \(round): an attacker's session outlived the take-back")
                }
                for password in ["attacker password", "attacker's new password"] {
                    let signIn = try await client.send(
                        "POST", "/v1/sessions", json: ["email": email, "password": password])
                    #expect(signIn.status == 401, "round \(round): the attacker's password outlived the take-back")
                }
                let account = try await client.send("GET", "/v1/account", token: ownerToken)
                #expect(account.json["hasPassword"] as? Bool == false, "round \(round)")
                #expect((account.json["passkeys"] as? [Any])?.isEmpty == true, "round \(round)")
                let live = try await MailedCode.count(
                    """
                    SELECT count(*) FROM authentication_sessions s JOIN account_emails e USING (account_id)
                    WHERE e.normalized_email = \(email.lowercased()) AND s.revoked_at IS NULL
                    """, in: database)
                #expect(live == 1, "round \(round): only the owner's session is live")
            }
        }
    }

    @Test func unknownEmailWrongUsedAndExpiredCodesAreOneAnswer() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let code = try await MailedCode.latest(to: email, in: database)
            let wrong = code == "000000" ? "000001" : "000000"
            for (address, presented) in [("nobody@example.com", code), (email, wrong)] {
                let refused = try await client.send(
                    "POST", "/v1/recovery/email/sessions", json: ["email": address, "code": presented])
                #expect(refused.status == 401)
                #expect(refused.code == "invalid-credentials")
            }
            let session = try await client.send(
                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code])
            #expect(session.status == 200)
            let used = try await client.send(
                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code])
            #expect(used.code == "invalid-credentials")
        }
    }

    @Test func ofConcurrentUsesOfOneCodeExactlyOneWins() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let code = try await MailedCode.latest(to: email, in: database)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await client.send(
                            "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code]
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 7)
            #expect(
                try await MailedCode.count(
                    "SELECT count(*) FROM authentication_sessions WHERE method = 'email'", in: database) == 1)
        }
    }

    /// Security round 4, finding 13: twenty concurrent uses of the right code (a double-submitted
    /// form) gave 1×200, 10×401 and 9×429, and counted the losers as failures. Now exactly one signs
    /// in, the rest get the used-code 401, and none is counted: the address is not locked.
    @Test func aDoubleSubmittedCodeSignsInOnceAndCountsNoFailure() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser(password: "the password")
            #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let code = try await MailedCode.latest(to: email, in: database)
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let answer = try await client.send(
                            "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code])
                        return (answer.status, answer.code)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == 200 }.count == 1)
            #expect(answers.filter { $0.0 == 401 && $0.1 == "invalid-credentials" }.count == 19)
            #expect(
                try await MailedCode.count(
                    "SELECT count(*) FROM password_failures", in: database) == 0,
                "no use of the right code was counted as a failure")
            // The address was never verified, so the sign-in took the account back and its password is
            // gone: a password sign-in is the plain 401, not the 429 of a locked-out address.
            let password = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "the password"])
            #expect(password.status == 401)
            #expect(password.code == "invalid-credentials")
        }
    }

    @Test func failuresCountLikePasswordFailures() async throws {
        try await withServer(environment: try await MailEnvironment.on(["RATE_LIMIT_PASSWORD_PER_EMAIL": "2"])) {
            server, _ in
            let client = server.client
            let (_, email) = try await client.passwordUser()
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(
                    try await client.send(
                        "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": "123456"]
                    ).status)
            }
            #expect(statuses == [401, 401, 429])
        }
    }

    /// Security round 4, finding 3: wrong codes from strangers filled the address's failure
    /// budget, so the owner's right code answered 429 while the attacker's passkey kept working.
    /// A spent email budget now lets the right code through (a code bounds its own guesses: 5
    /// tries, 5 codes an hour); a wrong one still answers 429, and the per-address budget still
    /// refuses an address that spent its own.
    @Test func strangersWrongCodesCannotLockTheOwnerOutOfTheTakeBack() async throws {
        let environment = try await MailEnvironment.on([
            "TRUSTED_PROXIES": "127.0.0.1", "RATE_LIMIT_PASSWORD_PER_EMAIL": "3",
            "RATE_LIMIT_PASSWORD_PER_ADDRESS": "4",
        ])
        try await withServer(environment: environment) { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser(password: "attacker password")
            func use(_ code: String, from address: String) async throws -> TestResponse {
                try await client.send(
                    "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code],
                    headers: ["X-Forwarded-For": address])
            }
            // Strangers from several addresses spend the address's budget.
            for index in 0..<3 { #expect(try await use("000000", from: "198.51.100.\(index)").status == 401) }
            #expect(try await use("000000", from: "198.51.100.9").status == 429)
            // One stranger address spends its own budget too.
            for _ in 0..<4 { _ = try await use("000001", from: "198.51.100.20") }
            let requested = try await client.send(
                "POST", "/v1/recovery/email", json: ["email": email], headers: ["X-Forwarded-For": "203.0.113.7"])
            #expect(requested.status == 202)
            let code = try await MailedCode.latest(to: email, in: database)
            // The right code from an address with a spent budget is still refused...
            #expect(try await use(code, from: "198.51.100.20").status == 429)
            // ...and from the owner's, it signs in and takes the account back.
            let owner = try await use(code, from: "203.0.113.7")
            #expect(owner.status == 200, "\(owner.text)")
            #expect(owner.string("method") == "email")
            let ownerToken = try #require(owner.string("accessToken"))
            let account = try await client.send("GET", "/v1/account", token: ownerToken)
            #expect(account.json["hasPassword"] as? Bool == false)
        }
    }

    @Test func expiredCodesAreRefusedAtEveryEndpoint() async throws {
        let clock = FixedClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await withServer(
            environment: try await MailEnvironment.on(["EMAIL_CODE_LIFETIME_SECONDS": "600"]), clock: clock
        ) {
            server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            let verify = try await MailedCode.latest(to: email, in: database)  // the sign-up's
            #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let signIn = try await MailedCode.latest(to: email, in: database)
            clock.advance(by: 601)
            let late = try await client.send(
                "POST", "/v1/account/email/verification/confirm", json: ["code": verify], token: token)
            #expect(late.code == "invalid-code")
            let lateSignIn = try await client.send(
                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": signIn])
            #expect(lateSignIn.status == 401)
            #expect(lateSignIn.code == "invalid-credentials")
        }
    }

    @Test func everyEmailSignInIsLoggedAtWarningWithoutTheCode() async throws {
        let log = LogCapture()
        try await withServer(environment: try await MailEnvironment.on(["LOG_LEVEL": "warning"]), logSink: log.sink) {
            server, database in
            let (_, email) = try await server.client.passwordUser()
            #expect(try await server.client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let code = try await MailedCode.latest(to: email, in: database)
            let session = try await server.client.send(
                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code])
            #expect(session.status == 200)
            let line = try #require(log.all.first { $0.contains("email_sign_in") })
            #expect(line.contains("warn"))
            #expect(line.contains("reclaimed"))
            #expect(!log.text.contains(code))
        }
    }
}
