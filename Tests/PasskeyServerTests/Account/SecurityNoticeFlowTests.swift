import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// Security notices of the existing flows end to end (spec v3, "Security notices"), on the real
/// server and PostgreSQL with `MAIL_URL=file://…`: the notices are the rows of `mail_outbox` that
/// carry no code (`not_after` is null; sign-up's verification code mail is not one), each read as
/// the server's background sender delivered it (`<id>.eml` in the folder). A verified address gets exactly one notice per
/// change, naming it and the client address; an unverified address, `SECURITY_NOTIFICATIONS=off`
/// and mail off get none; a refused change queues nothing; no notice holds a secret.
@Suite struct SecurityNoticeFlowTests {
    /// The client as the trusted proxy (the test client on loopback) forwards it.
    private static let client = "203.0.113.77"
    private static let forwarded = ["X-Forwarded-For": client]

    static func mailEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notices-\(UUID().uuidString)")
        return [
            "MAIL_URL": "file://\(folder.path)", "TRUSTED_PROXIES": "127.0.0.1",
            "MAIL_POLL_INTERVAL_MILLISECONDS": "50",
        ].merging(extra) { $1 }
    }

    /// The notices queued in `mail_outbox`, oldest first, as delivered to the `file://` folder.
    private struct Outbox {
        let pool: PostgresConnectionPool
        /// The `file://` folder of `MAIL_URL`; nil with mail off.
        let folder: URL?

        init(pool: PostgresConnectionPool, environment: [String: String]) {
            self.pool = pool
            folder = environment["MAIL_URL"].map { URL(fileURLWithPath: String($0.dropFirst("file://".count))) }
        }

        struct Mail: Sendable {
            let recipient: String
            let subject: String
            let body: String
        }

        func mails() async throws -> [Mail] {
            let rows = try await pool.withConnection { c async throws(PostgresError) -> [(UUID, String, String)] in
                try await c.query(
                    "SELECT id, recipient, subject FROM mail_outbox WHERE not_after IS NULL ORDER BY created_at, id"
                ).rows.map { row throws(PostgresError) in
                    (
                        try row.decode(column: "id"), try row.decode(column: "recipient"),
                        try row.decode(column: "subject")
                    )
                }
            }
            var mails: [Mail] = []
            for (id, recipient, subject) in rows {
                let folder = try #require(folder, "a notice was queued with mail off")
                let file = folder.appendingPathComponent("\(id.uuidString.lowercased()).eml")
                let deadline = ContinuousClock.now + .seconds(20)
                while !FileManager.default.fileExists(atPath: file.path), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(25))
                }
                let data = try #require(FileManager.default.contents(atPath: file.path), "\(file.path) never arrived")
                let delivered = ReceivedMail(raw: Array(data))
                #expect(delivered.subject == subject)
                mails.append(Mail(recipient: recipient, subject: subject, body: delivered.body))
            }
            return mails
        }

        func verify(_ email: String, language: String = "en") async throws {
            try await pool.withConnection { c async throws(PostgresError) in
                let updated = try await c.query(
                    """
                    UPDATE account_emails SET verified_at = now(), language = \(language)
                    WHERE normalized_email = \(email.lowercased())
                    """)
                precondition(updated.affectedRows == 1)
            }
        }
    }

    /// Adds a passkey as `Flows.addPasskey` does, from the forwarded client.
    private static func addPasskey(_ passkey: inout TestPasskey, token: String, client: TestHTTPClient)
        async throws -> TestResponse
    {
        let options = try await client.send(
            "POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token, headers: forwarded)
        try #require(options.status == 200, "registration start: \(options.text)")
        let body = try passkey.registrationBody(options: options.json)
        return try await client.send(
            "POST", "/v1/passkeys/registrations/finish", json: body, token: token, headers: forwarded)
    }

    @Test func eachChangeNotifiesTheVerifiedAddressOnceNamingItAndTheClient() async throws {
        let environment = Self.mailEnvironment()
        try await withServer(environment: environment) { server, database in
            let client = server.client
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            let outbox = Outbox(pool: pool, environment: environment)
            let password = "correct horse battery"
            let (token, email) = try await client.passwordUser(password: password)
            try await outbox.verify(email)
            var secrets: [String] = [password, token]
            var seen = 0

            /// Exactly one new row since the last step, to `email`, containing every phrase.
            func expectOneNotice(_ phrases: String..., from origin: String = Self.client) async throws {
                let mails = try await outbox.mails()
                try #require(mails.count == seen + 1, "\(phrases): \(mails.map(\.subject))")
                let mail = mails[seen]
                seen += 1
                #expect(mail.recipient == email)
                #expect(mail.body.contains("From: \(origin)"), "\(mail.body)")
                #expect(mail.body.contains("UTC"))
                let text = mail.body.replacingOccurrences(of: "\n", with: " ")  // phrases may be wrapped
                for phrase in phrases { #expect(text.contains(phrase), "\(phrase) in \(mail.body)") }
            }
            func expectNoNewNotice() async throws { #expect(try await outbox.mails().count == seen) }

            // A password removal refused (no passkey used yet) rolls back and queues nothing.
            let early = try await client.send("DELETE", "/v1/account/password", token: token, headers: Self.forwarded)
            #expect(early.code == "passkey-not-yet-used")
            try await expectNoNewNotice()

            var first = try TestPasskey()
            #expect(try await Self.addPasskey(&first, token: token, client: client).status == 204)
            try await expectOneNotice("A passkey was added")
            let signedIn = try await client.signIn(&first)  // a sign-in is not a notice
            #expect(signedIn.status == 200)
            secrets.append(try #require(signedIn.string("accessToken")))
            try await expectNoNewNotice()

            let created = try await client.send(
                "POST", "/v1/account/recovery-codes", token: token, headers: Self.forwarded)
            let codes = try #require(created.json["codes"] as? [String])
            secrets += codes
            try await expectOneNotice("New recovery codes were created")

            #expect(
                try await client.send("DELETE", "/v1/account/password", token: token, headers: Self.forwarded).status
                    == 204)
            try await expectOneNotice("password", "was removed")

            var second = try TestPasskey()
            #expect(try await Self.addPasskey(&second, token: token, client: client).status == 204)
            try await expectOneNotice("A passkey was added")
            let passkeys = try await client.send("GET", "/v1/passkeys", token: token)
            let ids = try #require(passkeys.jsonArray.compactMap { $0["credentialID"] as? String })
            try #require(ids.count == 2)
            #expect(
                try await client.send("DELETE", "/v1/passkeys/\(ids[1])", token: token, headers: Self.forwarded).status
                    == 204)
            try await expectOneNotice("A passkey was deleted")
            // The last way in: refused, rolled back, no notice.
            let last = try await client.send("DELETE", "/v1/passkeys/\(ids[0])", token: token, headers: Self.forwarded)
            #expect(last.code == "last-credential")
            try await expectNoNewNotice()

            let recovered = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]], headers: Self.forwarded)
            #expect(recovered.status == 200)
            secrets.append(try #require(recovered.string("accessToken")))
            try await expectOneNotice("with one of your recovery codes")
            // A wrong code changes nothing and tells no one.
            let wrong = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": "0000-0000-0000-0000"],
                headers: Self.forwarded)
            #expect(wrong.status == 401)
            try await expectNoNewNotice()

            let issued = try await CommandLineTests.recoveryCode(
                for: email, database: database, environment: environment)
            #expect(issued.status == 0, "\(issued.stderr)")
            let operatorCode = issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            secrets.append(operatorCode)
            try await expectOneNotice("support desk issued a single-use recovery code", from: "command line")
            #expect(try await outbox.mails().last.map { !$0.body.contains("Mika") } == true)  // no issuer named
            let support = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": operatorCode], headers: Self.forwarded)
            #expect(support.status == 200)
            let supportToken = try #require(support.string("accessToken"))
            secrets.append(supportToken)
            try await expectOneNotice("recovery code from the support desk")

            // The account goes; its notice stays queued (the outbox has no foreign key).
            #expect(
                try await client.send("DELETE", "/v1/account", token: supportToken, headers: Self.forwarded).status
                    == 204)
            try await expectOneNotice("account was deleted")

            // No notice holds a password, token or code the flow used.
            let mails = try await outbox.mails()
            #expect(mails.count == 9)
            for mail in mails {
                for secret in secrets {
                    #expect(!mail.body.contains(secret) && !mail.subject.contains(secret), "\(secret) in a notice")
                }
            }
        }
    }

    @Test func aJapaneseAccountGetsItsNoticeInJapanese() async throws {
        let environment = Self.mailEnvironment()
        try await withServer(environment: environment) { server, database in
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            let outbox = Outbox(pool: pool, environment: environment)
            let (token, email) = try await server.client.passwordUser()
            try await outbox.verify(email, language: "ja")
            var passkey = try TestPasskey()
            #expect(try await Self.addPasskey(&passkey, token: token, client: server.client).status == 204)
            let mails = try await outbox.mails()
            try #require(mails.count == 1)
            #expect(mails[0].subject.contains("パスキーが追加されました"))
            #expect(mails[0].body.contains("接続元: \(Self.client)"))
        }
    }

    /// Unverified address (mail on), notices off, and mail off: the same changes queue nothing.
    @Test(arguments: [
        (verified: false, environment: SecurityNoticeFlowTests.mailEnvironment()),
        (verified: true, environment: SecurityNoticeFlowTests.mailEnvironment(["SECURITY_NOTIFICATIONS": "off"])),
        (verified: true, environment: ["TRUSTED_PROXIES": "127.0.0.1"]),
    ])
    func noNoticeWithoutAVerifiedAddressOrWithNoticesOrMailOff(verified: Bool, environment: [String: String])
        async throws
    {
        try await withServer(environment: environment) { server, database in
            let client = server.client
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            let outbox = Outbox(pool: pool, environment: environment)
            let (token, email) = try await client.passwordUser()
            if verified { try await outbox.verify(email) }
            var passkey = try TestPasskey()
            #expect(try await Self.addPasskey(&passkey, token: token, client: client).status == 204)
            #expect(try await client.signIn(&passkey).status == 200)
            let codes = try await client.recoveryCodes(token: token)
            #expect(try await client.send("DELETE", "/v1/account/password", token: token).status == 204)
            let recovered = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
            let recoveryToken = try #require(recovered.string("accessToken"))
            #expect(try await client.send("DELETE", "/v1/account", token: recoveryToken).status == 204)
            #expect(try await outbox.mails().isEmpty)
        }
    }
}
