import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import PasskeyWire
import Testing

/// `GET /v1/operator/adoption`, `passkey-server adoption` and `/metrics`' `passkey_accounts` on
/// the real stack (spec v3, "Adoption, for operators"): accounts made by the real flows, a known
/// history of events written with `PostgresAccountEvents.insert` on the days around the window.
@Suite struct AdoptionTests {
    static let token = "operator-token-0123456789"

    /// The accounts of the seeded mix, by how they were made.
    struct Mix {
        var passwordOnly: AccountID
        var both: AccountID
        var passkeyOnly: AccountID
        var bothCredential: CredentialID
        /// A session token of `passwordOnly`.
        var passwordOnlyToken: String
    }

    /// Two password-only accounts (one with a verified address), one with a password and a
    /// passkey, one with a passkey only, each made through the real flows.
    static func accounts(_ client: TestHTTPClient, database: TestDatabase) async throws -> Mix {
        let (first, _) = try await client.passwordUser()
        _ = try await client.passwordUser()
        let (second, _) = try await client.passwordUser()
        var passkey = try TestPasskey()
        let added = try await client.addPasskey(&passkey, token: second)
        try #require(added.status == 204, "\(added.text)")
        let options = try await client.send(
            "POST", "/v1/passkey-accounts/registrations", json: ["email": "third@example.com", "displayName": "Third"])
        var third = try TestPasskey()
        var body = try third.registrationBody(options: options.json)
        body["email"] = "third@example.com"
        body["displayName"] = "Third"
        let created = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
        try #require(created.status == 201, "\(created.text)")
        func id(_ token: String) async throws -> AccountID {
            let account = try await client.send("GET", "/v1/account", token: token)
            let text = try #require(account.string("accountID"))
            return AccountID(try #require(UUID(uuidString: text)))
        }
        let passwordOnly = try await id(first)
        let passkeyOnlyText = try #require(created.string("accountID"))
        let passkeyOnly = AccountID(try #require(UUID(uuidString: passkeyOnlyText)))
        let bothCredential = try #require(CredentialID(bytes: passkey.credentialID))
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        try await pool.withConnection { c async throws(PostgresError) in
            try await c.query("UPDATE account_emails SET verified_at = now() WHERE account_id = \(passwordOnly.uuid)")
            // The flows' own events are the activity log's to test (ActivityTests); this suite
            // counts a history it wrote itself.
            try await c.query("DELETE FROM account_events")
        }
        return Mix(
            passwordOnly: passwordOnly, both: try await id(second),
            passkeyOnly: passkeyOnly, bothCredential: bothCredential, passwordOnlyToken: first)
    }

    /// The history: `today` is the server clock's UTC day; the window of `days=3` is
    /// [today−2 00:00, tomorrow 00:00).
    static func history(_ mix: Mix, today: UTCDay, database: TestDatabase) async throws -> [SessionID] {
        let first = today.adding(days: -2).start
        let tomorrow = today.adding(days: 1).start
        let sessions = (0..<8).map { _ in SessionID() }
        let (s1, s2, s3, s4, s5, s6, s7, s8) = (
            sessions[0], sessions[1], sessions[2], sessions[3], sessions[4], sessions[5], sessions[6], sessions[7]
        )
        let credential = mix.bothCredential
        let noon = today.start.addingTimeInterval(12 * 3600)
        let events: [(AccountID, AccountActivity, Date, SessionID?)] = [
            // Just before the window: neither counted nor its upgrade.
            (mix.passwordOnly, .signIn(.password, credentialID: nil), first.addingTimeInterval(-0.001), s3),
            (
                mix.passwordOnly, .passkeyAdded(.conditional, credentialID: credential),
                first.addingTimeInterval(-0.0005), s3
            ),
            // Its first instant: counted, and followed by a passkey (twice: one session).
            (mix.passwordOnly, .signIn(.password, credentialID: nil), first, s1),
            (mix.passwordOnly, .passkeyAdded(.conditional, credentialID: credential), first.addingTimeInterval(30), s1),
            (mix.passwordOnly, .passkeyAdded(.modal, credentialID: credential), noon, s1),
            // Nothing on the middle day. Today:
            (mix.passwordOnly, .signIn(.password, credentialID: nil), noon, s2),
            (mix.passwordOnly, .signIn(.recovery, credentialID: nil), noon, s7),
            (mix.passwordOnly, .signIn(.email, credentialID: nil), noon, s8),
            (mix.passwordOnly, .signInFailed(.password), noon, nil),
            (mix.passwordOnly, .accountCreated(.password), noon, nil),
            (mix.passwordOnly, .accountCreated(.import), noon, nil),
            (mix.passwordOnly, .accountReclaimed, noon, nil),
            // An account that has a passkey: its password sign-in is not an upgrade chance.
            (mix.both, .signIn(.password, credentialID: nil), noon, s5),
            (mix.both, .passkeyAdded(.modal, credentialID: credential), noon, s5),
            (mix.both, .signIn(.passkey, credentialID: credential), noon, s4),
            (mix.both, .passwordRemoved, noon, s4),
            (mix.passkeyOnly, .accountCreated(.passkey), noon, nil),
            (mix.passkeyOnly, .passkeyAdded(.signUp, credentialID: credential), noon, nil),
            // The window's last instant, then the next day (the clock's future): only the first.
            (mix.passwordOnly, .signIn(.password, credentialID: nil), tomorrow.addingTimeInterval(-0.001), s6),
            (mix.passwordOnly, .signIn(.password, credentialID: nil), tomorrow, SessionID()),
        ]
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        for (account, activity, at, session) in events {
            let event = AccountEvent(
                id: AccountEventID(), accountID: account, activity: activity, occurredAt: at,
                clientAddress: "203.0.113.9", userAgent: "AdoptionTests", sessionID: session)
            try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
                try await tx.events.record(event)
            }
        }
        return sessions
    }

    /// The figures every test of the mix expects for `days=3`.
    static func expected(today: UTCDay) -> (days: [AdoptionResponseBody.Day], upgrade: AdoptionResponseBody.Upgrade) {
        func day(
            _ date: UTCDay,
            signIns: AdoptionResponseBody.SignIns = .init(password: 0, passkey: 0, recovery: 0, email: 0),
            added: AdoptionResponseBody.PasskeysAdded = .init(modal: 0, conditional: 0, signUp: 0),
            created: AdoptionResponseBody.AccountsCreated = .init(password: 0, passkey: 0), removed: Int = 0
        ) -> AdoptionResponseBody.Day {
            .init(
                date: date.description, signIns: signIns, passkeysAdded: added, accountsCreated: created,
                passwordsRemoved: removed)
        }
        return (
            [
                day(
                    today.adding(days: -2), signIns: .init(password: 1, passkey: 0, recovery: 0, email: 0),
                    added: .init(modal: 0, conditional: 1, signUp: 0)),
                day(today.adding(days: -1)),
                day(
                    today, signIns: .init(password: 3, passkey: 1, recovery: 1, email: 1),
                    added: .init(modal: 2, conditional: 0, signUp: 1), created: .init(password: 2, passkey: 1),
                    removed: 1),
            ],
            // s1, s2, s6 had no passkey; s1 added one.
            .init(passwordSignIns: 3, followedByPasskey: 1, rate: 1.0 / 3)
        )
    }

    @Test func theFiguresCountTheSeededMixDayByDay() async throws {
        let clock = FixedClock(Date())
        let today = UTCDay(containing: clock.now)
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token], clock: clock) { server, database in
            let client = server.client
            let empty = try await client.send("GET", "/v1/operator/adoption?days=2", token: Self.token)
            #expect(empty.status == 200, "\(empty.text)")
            #expect(empty.text.contains(#""rate":0"#))
            let none = try WireJSON.decode(AdoptionResponseBody.self, from: Data(empty.body))
            #expect(
                none.accounts
                    == .init(total: 0, passwordOnly: 0, passwordAndPasskey: 0, passkeyOnly: 0, emailVerified: 0))
            #expect(none.days.map(\.date) == [today.adding(days: -1).description, today.description])
            #expect(none.upgrade == .init(passwordSignIns: 0, followedByPasskey: 0, rate: 0))

            let mix = try await Self.accounts(client, database: database)
            _ = try await Self.history(mix, today: today, database: database)
            let response = try await client.send("GET", "/v1/operator/adoption?days=3", token: Self.token)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.headers["content-type"] == "application/json")
            let figures = try WireJSON.decode(AdoptionResponseBody.self, from: Data(response.body))
            #expect(
                figures.generatedAt.timeIntervalSince1970.rounded(.down)
                    == clock.now.timeIntervalSince1970.rounded(.down))
            #expect(
                figures.accounts
                    == .init(total: 4, passwordOnly: 2, passwordAndPasskey: 1, passkeyOnly: 1, emailVerified: 1))
            let expected = Self.expected(today: today)
            #expect(figures.days == expected.days)
            #expect(figures.upgrade == expected.upgrade)

            // One day: today only; its two password sign-ins without a passkey were not followed.
            let one = try WireJSON.decode(
                AdoptionResponseBody.self,
                from: Data(try await client.send("GET", "/v1/operator/adoption?days=1", token: Self.token).body))
            #expect(one.days == [expected.days[2]])
            #expect(one.upgrade == .init(passwordSignIns: 2, followedByPasskey: 0, rate: 0))

            // The default is 30 days, oldest first; the seeded ones are the last three.
            let standard = try WireJSON.decode(
                AdoptionResponseBody.self,
                from: Data(try await client.send("GET", "/v1/operator/adoption", token: Self.token).body))
            #expect(standard.days.count == 30)
            #expect(standard.days.first?.date == today.adding(days: -29).description)
            #expect(Array(standard.days.suffix(3)) == expected.days)
            let zero = AdoptionResponseBody.Day(
                date: "", signIns: .init(password: 0, passkey: 0, recovery: 0, email: 0),
                passkeysAdded: .init(modal: 0, conditional: 0, signUp: 0),
                accountsCreated: .init(password: 0, passkey: 0),
                passwordsRemoved: 0)
            #expect(
                standard.days.prefix(26).allSatisfy {
                    $0.signIns == zero.signIns && $0.passkeysAdded == zero.passkeysAdded
                })
            // What happened just before the short window's start is in a longer one, and so is its upgrade.
            #expect(standard.days[26].signIns.password == 1)
            #expect(standard.days[26].passkeysAdded.conditional == 1)
            #expect(standard.upgrade == .init(passwordSignIns: 4, followedByPasskey: 2, rate: 0.5))
            let year = try await client.send("GET", "/v1/operator/adoption?days=366", token: Self.token)
            #expect(try WireJSON.decode(AdoptionResponseBody.self, from: Data(year.body)).days.count == 366)
        }
    }

    /// Closed days are counted once and kept (`account_event_days`), yet always agree with the
    /// events: an event written late into such a day, and an account's deletion, show at once, by
    /// adjusting the kept counts (a deletion must not make a year be counted again).
    @Test func closedDaysFollowTheirEventsWhenTheyChange() async throws {
        let clock = FixedClock(Date())
        let today = UTCDay(containing: clock.now)
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token], clock: clock) { server, database in
            let client = server.client
            let mix = try await Self.accounts(client, database: database)
            _ = try await Self.history(mix, today: today, database: database)
            func figures() async throws -> AdoptionResponseBody {
                let response = try await client.send("GET", "/v1/operator/adoption?days=3", token: Self.token)
                try #require(response.status == 200, "\(response.text)")
                return try WireJSON.decode(AdoptionResponseBody.self, from: Data(response.body))
            }
            #expect(try await figures().days == Self.expected(today: today).days)
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            let done = try await pool.withConnection { c async throws(PostgresError) -> Int in
                try await c.query("SELECT count(*) AS n FROM account_event_days_done").first!.decode(column: "n")
            }
            #expect(done >= 1, "the closed days were kept")
            let late = AccountEvent(
                id: AccountEventID(), accountID: mix.both,
                activity: .signIn(.passkey, credentialID: mix.bothCredential),
                occurredAt: today.adding(days: -2).start.addingTimeInterval(3600), clientAddress: "203.0.113.9",
                userAgent: nil, sessionID: SessionID())
            try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
                try await tx.events.record(late)
            }
            let afterLate = try await figures()
            #expect(afterLate.days[0].signIns.passkey == 1)
            #expect(afterLate.days[0].signIns.password == 1)

            // The password-only account goes, and with it its events of every day.
            let deleted = try await client.send("DELETE", "/v1/account", token: mix.passwordOnlyToken)
            try #require(deleted.status == 204, "\(deleted.text)")
            let afterDeletion = try await figures()
            #expect(afterDeletion.days[0].signIns == .init(password: 0, passkey: 1, recovery: 0, email: 0))
            #expect(afterDeletion.days[0].passkeysAdded == .init(modal: 0, conditional: 0, signUp: 0))
            #expect(afterDeletion.days[2].signIns == .init(password: 1, passkey: 1, recovery: 0, email: 0))
            #expect(afterDeletion.upgrade == .init(passwordSignIns: 0, followedByPasskey: 0, rate: 0))
            #expect(afterDeletion.accounts.total == 3)
            // Adjusted, not forgotten: no closed day has to be counted again from the events.
            let doneAfter = try await pool.withConnection { c async throws(PostgresError) -> Int in
                try await c.query("SELECT count(*) AS n FROM account_event_days_done").first!.decode(column: "n")
            }
            #expect(doneAfter == done, "a deletion adjusts the closed days' counts and keeps them")
        }
    }

    @Test func theOperatorTokenGuardsTheEndpointAndBadDaysAreRefused() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token]) { server, _ in
            let client = server.client
            for token in [nil, "wrong-token-0123456789", Self.token + "x", String(Self.token.dropLast())] {
                let refused = try await client.send("GET", "/v1/operator/adoption", token: token)
                #expect(refused.status == 401)
                #expect(refused.code == "unauthorized")
            }
            // A user's session token is not the operator's.
            let (user, _) = try await client.passwordUser()
            #expect(try await client.send("GET", "/v1/operator/adoption", token: user).status == 401)
            for days in ["0", "367", "-1", "abc", "", "1.5", "30&days=30", "%33%30", "0030", "+3", "٣"] {
                let bad = try await client.send("GET", "/v1/operator/adoption?days=\(days)", token: Self.token)
                #expect(bad.status == 400, "days=\(days)")
                #expect(bad.code == "invalid-request", "days=\(days)")
            }
            #expect(try await client.send("GET", "/v1/operator/adoption?days=366", token: Self.token).status == 200)
            #expect(try await client.send("GET", "/v1/operator/adoption?days=1&x=2", token: Self.token).status == 200)
        }
    }

    @Test func withoutTheTokenTheEndpointIsNotThere() async throws {
        try await withServer { server, _ in
            let client = server.client
            let unknown = try await client.send("GET", "/v1/operator/nothing-here")
            for token in [nil, Self.token] {
                let absent = try await client.send("GET", "/v1/operator/adoption?days=3", token: token)
                #expect(absent.status == 404)
                #expect(absent.code == "not-found")
                #expect(absent.body == unknown.body)
            }
            #expect(try await client.send("POST", "/v1/operator/adoption").status == 404)
        }
    }

    @Test func metricsCountTheAccountsByStage() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token]) { server, database in
            let mix = try await Self.accounts(server.client, database: database)
            _ = mix
            let metrics = try await server.client.send("GET", "/metrics")
            #expect(metrics.text.contains("passkey_accounts{stage=\"password_only\"} 2\n"))
            #expect(metrics.text.contains("passkey_accounts{stage=\"password_and_passkey\"} 1\n"))
            #expect(metrics.text.contains("passkey_accounts{stage=\"passkey_only\"} 1\n"))
            #expect(metrics.text.contains("# TYPE passkey_accounts gauge"))
        }
    }

    @Test func theCommandPrintsTheEndpointsFiguresAsJSONAndATable() async throws {
        let clock = FixedClock(Date())
        let today = UTCDay(containing: clock.now)
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token], clock: clock) { server, database in
            let mix = try await Self.accounts(server.client, database: database)
            _ = try await Self.history(mix, today: today, database: database)
            let endpoint = try await server.client.send("GET", "/v1/operator/adoption?days=3", token: Self.token)
            let json = try await Self.adoption(["--days", "3", "--json"], database: database)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.split(separator: "\n").count == 1)
            // The same body, but for when it was generated (the command runs on the system clock).
            func withoutTime(_ text: String) -> String {
                text.replacingOccurrences(of: #""generatedAt":"[^"]*""#, with: "", options: .regularExpression)
            }
            #expect(withoutTime(json.stdout.trimmingCharacters(in: .newlines)) == withoutTime(endpoint.text))
            let table = try await Self.adoption(["--days=3"], database: database)
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.contains("1 password only                  2"))
            #expect(table.stdout.contains("3 passkey only                   1"))
            #expect(
                table.stdout.contains("3 password sign-in(s) without a passkey, 1 followed by a passkey (rate 0.333)"))
            let rows = table.stdout.split(separator: "\n").filter { $0.hasPrefix("20") }
            #expect(rows.map { String($0.prefix(10)) } == (-2...0).map { today.adding(days: $0).description })
            #expect(
                rows.last?.split(separator: " ").map(String.init) == [
                    "\(today)", "3", "1", "1", "1", "2", "0", "1", "2", "1", "1",
                ])
            let standard = try await Self.adoption(["--json"], database: database)
            #expect(try WireJSON.decode(AdoptionResponseBody.self, from: Data(standard.stdout.utf8)).days.count == 30)
            for bad in [
                ["--days", "0"], ["--days", "367"], ["--days"], ["--days", "x"], ["--bogus"],
                ["--days", "3", "--days", "4"],
            ] {
                let refused = try await Self.adoption(bad, database: database)
                #expect(refused.status == 2, "\(bad)")
                #expect(refused.stdout.isEmpty)
            }
            let help = try await Self.adoption(["--help"], database: database)
            #expect(help.status == 0 && help.stdout.hasPrefix("usage: passkey-server adoption"))
        }
        let unreachable = try await Self.adoption(["--json"], conninfo: "host=/nonexistent port=1 user=x dbname=y")
        #expect(unreachable.status == 1)
        #expect(unreachable.stdout.isEmpty)
    }

    /// Runs `passkey-server adoption ARGUMENTS` on `database`; stdout and stderr apart.
    static func adoption(_ arguments: [String], database: TestDatabase) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try await adoption(arguments, conninfo: database.conninfo)
    }

    static func adoption(_ arguments: [String], conninfo: String) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let folder = FileManager.default.temporaryDirectory
        let out = folder.appendingPathComponent("cli-out-\(UUID().uuidString).log").path
        let err = folder.appendingPathComponent("cli-err-\(UUID().uuidString).log").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        var env = ProcessInfo.processInfo.environment
        env["DATABASE_URL"] = conninfo
        env.removeValue(forKey: "PASSKEY_TEST_DATABASE_URL")
        var status: Int32 = 0
        do {
            try await ChildProcess.run(
                [CommandLineTests.executablePath, "adoption"] + arguments, logFile: out, errorFile: err,
                environment: env)
        } catch let failure as ChildProcess.Failure {
            status = failure.status
        }
        return (
            status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        )
    }
}
