import Foundation
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyOpenSSL
import PasskeyTestSupport
import PasskeyWire
import Testing

@testable import PasskeyServer

/// (v4) The support desk on the real server (spec v4, "Support desk"): an operator finds an
/// account by its exact address and reads it and its activity (each read one `info` line); locks
/// it (every session ends; each sign-in kind then answers 403 `account-locked` with the right
/// credential and 401 with a wrong one, uses nothing up and makes no session, on every instance),
/// unlocks it, ends its sessions, deletes its last passkey (the user then recovers by email) and
/// issues an operator code. Every action is in the user's activity with the operator as actor, in
/// a notice at the real SMTP server and in a webhook judged by the Standard Webhooks library.
@Suite struct SupportDeskTests {
    static let desk = "Hanako Sato"

    /// A new operator's token (as `passkey-server operators add` makes it).
    static func token(_ server: TestServer, _ name: String = desk, _ role: OperatorRole = .support) async throws
        -> String
    {
        try await server.root.useCases.operatorAddition.execute(name: name, role: role.rawValue).token
    }

    /// A password user whose address is verified (so notices reach it): token, email, account ID.
    static func verifiedUser(_ client: TestHTTPClient, _ database: TestDatabase) async throws
        -> (token: String, email: String, accountID: String)
    {
        let (token, email) = try await client.passwordUser()
        try await verify(email, token: token, client, database)
        let account = try await client.send("GET", "/v1/account", token: token)
        return (token, email, try #require(account.string("accountID")))
    }

    static func verify(_ email: String, token: String, _ client: TestHTTPClient, _ database: TestDatabase)
        async throws
    {
        let sent = try await client.send("POST", "/v1/account/email/verification", token: token)
        try #require(sent.status == 202, "verification: \(sent.text)")
        let code = try await MailedCode.latest(to: email, in: database)
        let confirmed = try await client.send(
            "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token)
        try #require(confirmed.status == 200, "confirm: \(confirmed.text)")
    }

    static func liveSessions(_ accountID: String, _ database: TestDatabase) async throws -> Int {
        try await MailedCode.count(
            """
            SELECT count(*) AS count FROM authentication_sessions
            WHERE account_id = \(accountID)::uuid AND revoked_at IS NULL AND expires_at > now()
            """, in: database)
    }

    static func events(_ kind: String, of accountID: String, _ database: TestDatabase) async throws -> Int {
        try await MailedCode.count(
            "SELECT count(*) AS count FROM account_events WHERE account_id = \(accountID)::uuid AND kind = \(kind)",
            in: database)
    }

    /// The account's activity as its user sees it (a fresh password sign-in's token).
    static func activity(_ client: TestHTTPClient, token: String) async throws -> [[String: Any]] {
        let page = try await client.send("GET", "/v1/account/activity?limit=100", token: token)
        try #require(page.status == 200, "activity: \(page.text)")
        return try #require(page.json["events"] as? [[String: Any]])
    }

    @Test func aViewerFindsAnAccountByItsExactAddressAndEachReadIsLogged() async throws {
        let log = LogCapture()
        try await withServer(environment: try await MailEnvironment.on(["LOG_LEVEL": "info"]), logSink: log.sink) {
            server, database in
            let client = server.client
            let viewer = try await Self.token(server, "Ann Viewer", .viewer)
            let (_, email, accountID) = try await Self.verifiedUser(client, database)

            let found = try await client.send(
                "GET", "/v1/operator/accounts?email=\(email.uppercased())", token: viewer)
            #expect(found.status == 200, "\(found.text)")
            let accounts = try #require(found.json["accounts"] as? [[String: Any]])
            let account = try #require(accounts.first)
            #expect(accounts.count == 1)
            #expect(
                Set(account.keys) == [
                    "accountID", "email", "emailVerified", "displayName", "createdAt", "stage", "hasPassword",
                    "passkeys", "activeSessions", "recoveryCodesRemaining", "lockedAt", "lockReason",
                ])
            #expect(account["accountID"] as? String == accountID)
            #expect(account["email"] as? String == email)
            #expect(account["emailVerified"] as? Bool == true)
            #expect(account["displayName"] as? String == "Taro Yamada")
            #expect(account["stage"] as? String == "password-only")
            #expect(account["hasPassword"] as? Bool == true)
            #expect((account["passkeys"] as? [Any])?.isEmpty == true)
            #expect(account["activeSessions"] as? Int == 1)
            #expect(account["recoveryCodesRemaining"] as? Int == 0)
            #expect(account["lockedAt"] is NSNull)
            #expect(account["lockReason"] is NSNull)

            let byID = try await client.send("GET", "/v1/operator/accounts/\(accountID)", token: viewer)
            #expect(byID.status == 200)
            #expect(byID.string("email") == email)

            let none = try await client.send(
                "GET", "/v1/operator/accounts?email=other-\(email)", token: viewer)
            #expect(none.status == 200)
            #expect((none.json["accounts"] as? [Any])?.isEmpty == true)
            for query in ["?email=not-an-address", "", "?email="] {
                let bad = try await client.send("GET", "/v1/operator/accounts\(query)", token: viewer)
                #expect(bad.status == 400, "\(query)")
                #expect(bad.code == "invalid-request")
            }
            for id in [UUID().uuidString, "not-a-uuid"] {
                #expect(try await client.send("GET", "/v1/operator/accounts/\(id)", token: viewer).status == 404)
                #expect(
                    try await client.send("GET", "/v1/operator/accounts/\(id)/activity", token: viewer).status == 404)
            }

            let activity = try await client.send(
                "GET", "/v1/operator/accounts/\(accountID)/activity?limit=2", token: viewer)
            #expect(activity.status == 200)
            let events = try #require(activity.json["events"] as? [[String: Any]])
            #expect(events.count == 2)
            #expect(activity.string("next") != nil)
            let bad = try await client.send(
                "GET", "/v1/operator/accounts/\(accountID)/activity?limit=0", token: viewer)
            #expect(bad.status == 400)

            // Reads are logged, not recorded: one `info` line each, naming the operator and the account.
            let reads = log.all.filter { $0.contains("operator_read") }
            #expect(reads.count >= 3)
            #expect(reads.allSatisfy { $0.contains("Ann Viewer") })
            #expect(reads.filter { $0.contains(accountID) }.count >= 3)
            #expect(try await Self.events("account.locked", of: accountID, database) == 0)
        }
    }

    /// Every sign-in kind of a locked account: the right credential is 403 `account-locked` and
    /// uses nothing up; a wrong one is 401 as always; no session, on a second instance too.
    @Test func aLockedAccountRefusesEverySignInKindWithTheRightCredentialOnly() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let env = try await MailEnvironment.on(WebhookDeliveryTests.environment())
        try await withServer(environment: env) { server, database in
            let client = server.client
            let desk = try await Self.token(server)
            let hook = try await WebhookDeliveryTests.register(
                client, receiver.url("desk"), events: ["account.locked", "account.unlocked"])
            try receiver.setSecret(hook.secret, for: "desk")
            let (token, email, accountID) = try await Self.verifiedUser(client, database)
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let codes = try await client.recoveryCodes(token: token)
            let passkeySession = try await client.signIn(&passkey)
            let passkeyToken = try #require(passkeySession.string("accessToken"))
            #expect(try await client.send("POST", "/v1/recovery/email", json: ["email": email]).status == 202)
            let mailedCode = try await MailedCode.latest(to: email, in: database)

            // Bad reasons change nothing.
            for reason in ["", "   ", String(repeating: "x", count: 201)] {
                let refused = try await client.send(
                    "POST", "/v1/operator/accounts/\(accountID)/lock", json: ["reason": reason], token: desk)
                #expect(refused.status == 400, "\(reason.prefix(8))")
            }
            #expect(
                try await client.send("POST", "/v1/operator/accounts/\(accountID)/lock", token: desk).status == 400)
            #expect(
                try await client.send(
                    "POST", "/v1/operator/accounts/\(UUID())/lock", json: ["reason": "x"], token: desk
                ).status == 404)
            #expect(try await Self.liveSessions(accountID, database) == 2)

            let reason = "Someone else is calling in the owner's name"
            let locked = try await client.send(
                "POST", "/v1/operator/accounts/\(accountID)/lock", json: ["reason": reason], token: desk)
            #expect(locked.status == 200, "\(locked.text)")
            #expect(locked.string("lockReason") == reason)
            #expect(locked.string("lockedAt") != nil)
            #expect(locked.json["activeSessions"] as? Int == 0)
            #expect(try await Self.liveSessions(accountID, database) == 0)
            #expect(try await client.send("GET", "/v1/account", token: token).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: passkeyToken).status == 401)
            let again = try await client.send(
                "POST", "/v1/operator/accounts/\(accountID)/lock", json: ["reason": "twice"], token: desk)
            #expect(again.status == 409)
            #expect(again.code == "account-locked")

            let failedBefore = try await Self.events("sign-in.failed", of: accountID, database)
            let signInsBefore = try await Self.events("sign-in", of: accountID, database)
            // Password.
            let password = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
            #expect(password.status == 403)
            #expect(password.code == "account-locked")
            #expect(
                try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "wrong one!"]).status
                    == 401)
            // Passkey: verified, refused; an unknown one is 401 as always.
            let assertion = try await client.signIn(&passkey)
            #expect(assertion.status == 403)
            #expect(assertion.code == "account-locked")
            var stranger = try TestPasskey()
            #expect(try await client.signIn(&stranger).status == 401)
            // Recovery code.
            let recovery = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
            #expect(recovery.status == 403)
            #expect(recovery.code == "account-locked")
            #expect(
                try await client.send(
                    "POST", "/v1/recovery/sessions", json: ["email": email, "code": "AAAA-BBBB-CCCC-DDDD"]
                ).status == 401)
            // Mailed code.
            let byEmail = try await client.send(
                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": mailedCode])
            #expect(byEmail.status == 403)
            #expect(byEmail.code == "account-locked")
            let wrongCode = mailedCode == "000000" ? "111111" : "000000"
            #expect(
                try await client.send(
                    "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": wrongCode]
                ).status == 401)
            // A second instance sees the lock.
            let second = try TestServer(conninfo: database.conninfo, environment: env)
            let elsewhere = try await second.client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
            #expect(elsewhere.status == 403)
            #expect(elsewhere.code == "account-locked")
            // No session, no sign-in event; only the wrong credentials are failed sign-ins.
            #expect(try await Self.liveSessions(accountID, database) == 0)
            #expect(try await Self.events("sign-in", of: accountID, database) == signInsBefore)
            #expect(try await Self.events("sign-in.failed", of: accountID, database) == failedBefore + 3)

            // Unlocked on the second instance: everything that was refused works, nothing was used up.
            let unlocked = try await second.client.send(
                "POST", "/v1/operator/accounts/\(accountID)/unlock", token: desk)
            await second.stop()
            #expect(unlocked.status == 200)
            #expect(unlocked.json["lockedAt"] is NSNull)
            #expect(unlocked.json["lockReason"] is NSNull)
            let asItWas = try await client.send("POST", "/v1/operator/accounts/\(accountID)/unlock", token: desk)
            #expect(asItWas.status == 200)
            #expect(try await Self.events("account.unlocked", of: accountID, database) == 1)
            let signedIn = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
            #expect(signedIn.status == 200)
            #expect(try await client.signIn(&passkey).status == 200)
            #expect(
                try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]]).status
                    == 200)
            #expect(
                try await client.send(
                    "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": mailedCode]
                ).status == 200)

            // The user sees who did it, and why; not from where.
            let events = try await Self.activity(client, token: try #require(signedIn.string("accessToken")))
            let lockEvent = try #require(events.first { $0["kind"] as? String == "account.locked" })
            #expect(lockEvent["actor"] as? String == Self.desk)
            #expect(lockEvent["reason"] as? String == reason)
            #expect(lockEvent["clientAddress"] is NSNull)
            #expect(lockEvent["userAgent"] is NSNull)
            let unlockEvent = try #require(events.first { $0["kind"] as? String == "account.unlocked" })
            #expect(unlockEvent["actor"] as? String == Self.desk)
            #expect(unlockEvent["reason"] is NSNull)
            // The notices, at the SMTP server: from the desk, without the reason.
            let mails = try await MailedCode.mails(to: email, in: database)
            let lockMail = try #require(mails.first { $0.subject.contains("support locked your account") })
            #expect(lockMail.body.contains("support desk"))
            #expect(!lockMail.body.contains(reason))
            #expect(!lockMail.body.contains(Self.desk))
            #expect(mails.contains { $0.subject.contains("support unlocked your account") })
            // The webhooks, signed, with the actor and the reason.
            let received = try await receiver.waitFor(2, name: "desk")
            #expect(received.map(\.verified) == [true, true])
            #expect(received.map { $0.json["type"] as? String } == ["account.locked", "account.unlocked"])
            let data = try #require(received.first?.json["data"] as? [String: Any])
            #expect(data["actor"] as? String == Self.desk)
            #expect(data["reason"] as? String == reason)
            #expect(data["accountID"] as? String == accountID)
            #expect(data["clientAddress"] is NSNull)
        }
    }

    /// A stolen laptop, then a lost phone: every session ends, then the account's last passkey is
    /// deleted; the user gets back in by email and adds a new passkey.
    @Test func endingSessionsAndDeletingTheLastPasskeyThenTheUserRecoversByEmail() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let desk = try await Self.token(server)
            let email = "lost-\(UUID().uuidString.prefix(8))@example.com"
            var phone = try TestPasskey()
            let start = try await client.send(
                "POST", "/v1/passkey-accounts/registrations", json: ["email": email, "displayName": "Hanako"])
            var body = try phone.registrationBody(options: start.json)
            body["email"] = email
            body["displayName"] = "Hanako"
            let created = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            let token = try #require(created.string("accessToken"))
            let accountID = try #require(created.string("accountID"))
            try await Self.verify(email, token: token, client, database)
            let laptop = try #require(try await client.signIn(&phone).string("accessToken"))

            #expect(
                try await client.send("DELETE", "/v1/operator/accounts/\(UUID())/sessions", token: desk).status == 404)
            let ended = try await client.send("DELETE", "/v1/operator/accounts/\(accountID)/sessions", token: desk)
            #expect(ended.status == 204)
            #expect(try await client.send("GET", "/v1/account", token: token).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: laptop).status == 401)
            #expect(try await Self.liveSessions(accountID, database) == 0)

            let credentialID = Base64URL.encode(phone.credentialID)
            for unknown in [Base64URL.encode([1, 2, 3]), "!!not-base64!!"] {
                #expect(
                    try await client.send(
                        "DELETE", "/v1/operator/accounts/\(accountID)/passkeys/\(unknown)", token: desk
                    ).status == 404)
            }
            let deleted = try await client.send(
                "DELETE", "/v1/operator/accounts/\(accountID)/passkeys/\(credentialID)", token: desk)
            #expect(deleted.status == 204)
            let account = try await client.send("GET", "/v1/operator/accounts/\(accountID)", token: desk)
            #expect(account.string("stage") == "none")
            #expect((account.json["passkeys"] as? [Any])?.isEmpty == true)
            #expect(try await client.signIn(&phone).status == 401)

            // The user recovers by email and adds a new passkey at once.
            let recovered = try await EmailRecoveryTests.signInByEmail(email, client: client, database: database)
            #expect(recovered.status == 200, "\(recovered.text)")
            let recoveryToken = try #require(recovered.string("accessToken"))
            var newPhone = try TestPasskey()
            #expect(try await client.addPasskey(&newPhone, token: recoveryToken).status == 204)
            #expect(try await client.signIn(&newPhone).status == 200)

            let events = try await Self.activity(client, token: recoveryToken)
            let endedEvent = try #require(events.first { $0["kind"] as? String == "sessions.ended" })
            #expect(endedEvent["method"] as? String == "support")
            #expect(endedEvent["actor"] as? String == Self.desk)
            let deletedEvent = try #require(events.first { $0["kind"] as? String == "passkey.deleted" })
            #expect(deletedEvent["actor"] as? String == Self.desk)
            #expect(deletedEvent["credentialID"] as? String == credentialID)
            let subjects = try await MailedCode.mails(to: email, in: database).map(\.subject)
            #expect(subjects.contains { $0.contains("support signed out your sessions") })
            #expect(subjects.contains { $0.contains("support deleted a passkey") })
        }
    }

    @Test func theOperatorCodeThroughTheAPIIsOneLiveCodeForTheUser() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let desk = try await Self.token(server)
            let viewer = try await Self.token(server, "Ann Viewer", .viewer)
            let (_, email, accountID) = try await Self.verifiedUser(client, database)
            let path = "/v1/operator/accounts/\(accountID)/recovery-code"
            #expect(try await client.send("POST", path, token: viewer).code == "forbidden")
            #expect(
                try await client.send("POST", "/v1/operator/accounts/\(UUID())/recovery-code", token: desk).status
                    == 404)
            let first = try await client.send("POST", path, token: desk)
            #expect(first.status == 201)
            let second = try await client.send("POST", path, token: desk)
            let code = try #require(second.string("code"))
            let oldCode = try #require(first.string("code"))
            SecretAudit.record(secret: code)
            let expiresAt = try #require(second.string("expiresAt").flatMap { WireJSON.date($0) })
            #expect(abs(expiresAt.timeIntervalSinceNow - 24 * 3600) < 600)
            // One live: the first is void, the second signs in once.
            #expect(
                try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": oldCode]).status
                    == 401)
            let signedIn = try await client.send("POST", "/v1/recovery/sessions", json: ["email": email, "code": code])
            #expect(signedIn.status == 200)
            let events = try await Self.activity(client, token: try #require(signedIn.string("accessToken")))
            let issued = events.filter { $0["kind"] as? String == "recovery-code.issued" }
            #expect(issued.count == 2)
            #expect(issued.allSatisfy { $0["actor"] as? String == Self.desk && $0["method"] as? String == Self.desk })
            let mails = try await MailedCode.mails(to: email, in: database)
            let notice = try #require(mails.first { $0.subject.contains("support issued a recovery code") })
            #expect(!notice.body.contains(code))
            #expect(!notice.body.contains(Self.desk))
        }
    }

    /// Sign-ins racing a lock: each either finished before it (and its session was ended by it) or
    /// was refused; no session of the locked account is left, whatever the interleaving.
    @Test func signInsRacingALockLeaveNoSession() async throws {
        try await withServer { server, database in
            let client = server.client
            let desk = try await Self.token(server)
            let (_, email) = try await client.passwordUser()
            let accountID = try #require(
                try await client.send(
                    "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"]
                )
                .string("accountID"))
            for round in 0..<4 {
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<5 {
                        group.addTask {
                            if index == 2 {
                                let locked = try await client.send(
                                    "POST", "/v1/operator/accounts/\(accountID)/lock", json: ["reason": "race"],
                                    token: desk)
                                return locked.status == 200 ? 0 : locked.status
                            }
                            return try await client.send(
                                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"]
                            ).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.contains(0), "round \(round): the lock")
                #expect(Set(statuses).isSubset(of: [0, 200, 403]), "round \(round): \(statuses)")
                #expect(try await Self.liveSessions(accountID, database) == 0, "round \(round)")
                #expect(
                    try await client.send("POST", "/v1/operator/accounts/\(accountID)/unlock", token: desk).status
                        == 200)
            }
        }
    }
}
