import Foundation
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

/// Spec v3 "Email addresses and mail": proving and changing the address of a signed-in account.
@Suite struct EmailVerificationTests {
    @Test func aMailedCodeVerifiesTheAddressOnce() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            #expect(try await client.send("GET", "/v1/account", token: token).json["emailVerified"] as? Bool == false)
            let requested = try await client.send("POST", "/v1/account/email/verification", token: token)
            #expect(requested.status == 202)
            let code = try await MailedCode.latest(to: email, in: database)

            let wrong = code == "000000" ? "000001" : "000000"
            let refused = try await client.send(
                "POST", "/v1/account/email/verification/confirm", json: ["code": wrong], token: token)
            #expect(refused.status == 400)
            #expect(refused.code == "invalid-code")

            let confirmed = try await client.send(
                "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token)
            #expect(confirmed.status == 200)
            #expect(confirmed.json["emailVerified"] as? Bool == true)
            #expect(confirmed.string("email") == email)

            for path in ["/v1/account/email/verification", "/v1/account/email/verification/confirm"] {
                let again = try await client.send("POST", path, json: ["code": code], token: token)
                #expect(again.status == 409)
                #expect(again.code == "email-already-verified")
            }
        }
    }

    @Test func aNewCodeVoidsTheEarlierOneAndFiveWrongTriesVoidACode() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            let first = try await MailedCode.latest(to: email, in: database)
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            let second = try await MailedCode.latest(to: email, in: database)
            if first != second {
                let old = try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": first], token: token)
                #expect(old.code == "invalid-code")
            }
            // Four more wrong tries (five in all when the codes differed) and the live code is void.
            let wrong = second == "999999" ? "999998" : "999999"
            for _ in 0..<5 {
                let refused = try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": wrong], token: token)
                #expect(refused.code == "invalid-code")
            }
            let late = try await client.send(
                "POST", "/v1/account/email/verification/confirm", json: ["code": second], token: token)
            #expect(late.status == 400)
            #expect(late.code == "invalid-code")
        }
    }

    @Test func wrongCodesCountAgainstTheAccountsFailureLimit() async throws {
        try await withServer(environment: try await MailEnvironment.on(["RATE_LIMIT_PASSWORD_PER_EMAIL": "3"])) {
            server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            var statuses: [Int] = []
            for _ in 0..<4 {
                statuses.append(
                    try await client.send(
                        "POST", "/v1/account/email/verification/confirm", json: ["code": "abcdef"], token: token
                    ).status)
            }
            #expect(statuses == [400, 400, 400, 429])
            let limited = try await client.send(
                "POST", "/v1/account/email/confirm", json: ["code": "abcdef"], token: token)
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] != nil)
        }
    }

    @Test func theSendingLimitAnswers429WithRetryAfter() async throws {
        // The sign-up's own verification code is the first of the hour's three.
        try await withServer(environment: try await MailEnvironment.on(["EMAIL_SENDS_PER_HOUR": "3"])) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            let limited = try await client.send("POST", "/v1/account/email/verification", token: token)
            #expect(limited.status == 429)
            #expect(limited.code == "rate-limited")
            let retryAfter = try #require(limited.headers["retry-after"].flatMap { Int($0) })
            #expect(retryAfter > 3000 && retryAfter <= 3600)
        }
    }

    @Test func theSendingLimitHoldsAcrossTwoInstancesOnOneDatabase() async throws {
        try await withServer(environment: try await MailEnvironment.on(["EMAIL_SENDS_PER_HOUR": "4"])) {
            first, database in
            let second = try TestServer(
                conninfo: database.conninfo, environment: try await MailEnvironment.on(["EMAIL_SENDS_PER_HOUR": "4"]))
            do {
                let (token, email) = try await first.client.passwordUser()
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<10 {
                        let client = index.isMultiple(of: 2) ? first.client : second.client
                        group.addTask {
                            try await client.send("POST", "/v1/account/email/verification", token: token).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == 202 }.count == 3)
                #expect(statuses.filter { $0 == 429 }.count == 7)
                #expect(try await MailedCode.mails(to: email, in: database).count == 4)
            } catch {
                await second.stop()
                throw error
            }
            await second.stop()
        }
    }

    @Test func changingTheAddressMailsTheNewOneAndTellsTheOldVerifiedOne() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            let (_, otherEmail) = try await client.passwordUser()
            // Verify the current address first, so the change is noticed there.
            #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
            let verify = try await MailedCode.latest(to: email, in: database)
            #expect(
                try await client.send(
                    "POST", "/v1/account/email/verification/confirm", json: ["code": verify], token: token
                ).status == 200)

            let invalid = try await client.send("PUT", "/v1/account/email", json: ["email": "nope"], token: token)
            #expect(invalid.status == 400)
            #expect(invalid.code == "invalid-request")
            let taken = try await client.send(
                "PUT", "/v1/account/email", json: ["email": otherEmail.uppercased()], token: token)
            #expect(taken.status == 409)
            #expect(taken.code == "email-taken")

            let newEmail = "new-\(UUID().uuidString.prefix(8))@example.com"
            let requested = try await client.send("PUT", "/v1/account/email", json: ["email": newEmail], token: token)
            #expect(requested.status == 202)
            // Nothing changes yet.
            #expect(try await client.send("GET", "/v1/account", token: token).string("email") == email)
            let code = try await MailedCode.latest(to: newEmail, in: database)
            let wrong = try await client.send(
                "POST", "/v1/account/email/confirm", json: ["code": "x" + code], token: token)
            #expect(wrong.code == "invalid-code")
            let noticesBefore = try await MailedCode.mails(to: email, in: database).count
            let confirmed = try await client.send(
                "POST", "/v1/account/email/confirm", json: ["code": code], token: token)
            #expect(confirmed.status == 200)
            #expect(confirmed.string("email") == newEmail)
            #expect(confirmed.json["emailVerified"] as? Bool == true)
            #expect(try await MailedCode.mails(to: email, in: database).count == noticesBefore + 1)
            // The new address signs in; the old one is free.
            let signIn = try await client.send(
                "POST", "/v1/sessions", json: ["email": newEmail, "password": "correct horse battery"])
            #expect(signIn.status == 200)
            _ = try await client.passwordUser(email: email)
        }
    }

    /// Verifies the account's address (so notices go to it).
    static func verify(_ email: String, token: String, client: TestHTTPClient, database: TestDatabase) async throws {
        #expect(try await client.send("POST", "/v1/account/email/verification", token: token).status == 202)
        let code = try await MailedCode.latest(to: email, in: database)
        let confirmed = try await client.send(
            "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token)
        try #require(confirmed.status == 200, "verification: \(confirmed.text)")
    }

    /// Security round 4, findings 4 and 5: 600 `PUT /v1/account/email` mailed 600 strangers in
    /// 13 s, and `email-taken` told 500 addresses a second whether they had an account. Now
    /// every request spends the account's change budget (twice `EMAIL_SENDS_PER_HOUR` an hour)
    /// whatever it answers, and past it a taken and a free address both get 429.
    @Test func oneAccountMailsAndProbesABoundedNumberOfAddresses() async throws {
        try await withServer(environment: try await MailEnvironment.on(["EMAIL_SENDS_PER_HOUR": "2"])) {
            server, database in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let (_, taken) = try await client.passwordUser()
            let strangers = (0..<6).map { "stranger-\($0)-\(UUID().uuidString.prefix(6))@example.com" }
            var statuses: [Int] = []
            for (index, stranger) in strangers.enumerated() {
                let address = index == 1 ? taken : stranger
                statuses.append(
                    try await client.send("PUT", "/v1/account/email", json: ["email": address], token: token).status)
            }
            #expect(statuses == [202, 409, 202, 202, 429, 429])
            let probe = try await client.send("PUT", "/v1/account/email", json: ["email": taken], token: token)
            #expect(probe.status == 429)
            #expect(probe.code == "rate-limited")
            var mailed = 0
            for stranger in strangers { mailed += try await MailedCode.mails(to: stranger, in: database).count }
            #expect(mailed == 3)
        }
    }

    /// Security round 4, finding 4: 200 recovery-code sets queued 200 notices. At most three of
    /// one kind go to an address in an hour; a change of another kind is still noticed.
    @Test func noticesOfOneKindAreCappedButOtherKindsStillGo() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            try await Self.verify(email, token: token, client: client, database: database)
            for _ in 0..<6 { try await client.recoveryCodes(token: token) }
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let mails = try await MailedCode.mails(to: email, in: database)
            let subjects = Dictionary(grouping: mails.map(\.subject), by: { $0 }).mapValues(\.count)
            let recoveryNotices = subjects.filter { $0.key.lowercased().contains("new recovery codes") }
            #expect(recoveryNotices.values.reduce(0, +) == 3, "\(subjects)")
            #expect(subjects.keys.contains { $0.lowercased().contains("passkey") }, "\(subjects)")
        }
    }

    /// Security round 4, finding 10: a sign-in code mailed to the old address still worked after
    /// the address changed.
    @Test func aChangeVoidsTheSignInCodeMailedToTheOldAddress() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            try await Self.verify(email, token: token, client: client, database: database)
            #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let oldCode = try await MailedCode.latest(to: email, in: database)
            let newEmail = "moved-\(UUID().uuidString.prefix(8))@example.com"
            #expect(
                try await client.send("PUT", "/v1/account/email", json: ["email": newEmail], token: token).status
                    == 202)
            let code = try await MailedCode.latest(to: newEmail, in: database)
            let confirmed = try await client.send(
                "POST", "/v1/account/email/confirm", json: ["code": code], token: token)
            #expect(confirmed.status == 200)
            let notice = try #require(try await MailedCode.latestBody(to: email, in: database))
            #expect(!notice.contains(newEmail), "the notice to the old address named the new one")
            for address in [email, newEmail] {
                let stale = try await client.send(
                    "POST", "/v1/recovery/email/sessions", json: ["email": address, "code": oldCode])
                #expect(stale.status == 401, "the old address's code still signs in as \(address)")
            }
        }
    }

    @Test func aNewAddressTakenMeanwhileIsRefusedAtConfirmation() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let newEmail = "contested-\(UUID().uuidString.prefix(8))@example.com"
            #expect(
                try await client.send("PUT", "/v1/account/email", json: ["email": newEmail], token: token).status
                    == 202)
            let code = try await MailedCode.latest(to: newEmail, in: database)
            _ = try await client.passwordUser(email: newEmail)
            let refused = try await client.send("POST", "/v1/account/email/confirm", json: ["code": code], token: token)
            #expect(refused.status == 409)
            #expect(refused.code == "email-taken")
        }
    }

    @Test func withMailOffEveryEmailEndpointAnswers503AfterTheToken() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            let bearer: [(String, String, [String: Any])] = [
                ("POST", "/v1/account/email/verification", [:]),
                ("POST", "/v1/account/email/verification/confirm", ["code": "123456"]),
                ("PUT", "/v1/account/email", ["email": "x@example.com"]),
                ("POST", "/v1/account/email/confirm", ["code": "123456"]),
            ]
            for (method, path, body) in bearer {
                let anonymous = try await client.send(method, path, json: body)
                #expect(anonymous.status == 401, "\(path)")
                let off = try await client.send(method, path, json: body, token: token)
                #expect(off.status == 503, "\(path)")
                #expect(off.code == "mail-unavailable", "\(path)")
            }
            for (path, body) in [
                ("/v1/recovery/email", ["email": email]),
                ("/v1/recovery/email/sessions", ["email": email, "code": "1"]),
            ] {
                let off = try await client.send("POST", path, json: body)
                #expect(off.status == 503, "\(path)")
                #expect(off.code == "mail-unavailable", "\(path)")
            }
        }
    }
}
