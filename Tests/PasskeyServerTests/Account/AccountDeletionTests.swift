import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// Spec v2 `DELETE /v1/account`: everything the account owns goes in one transaction.
@Suite struct AccountDeletionTests {
    @Test func deletionLeavesNoRowOfTheAccountAndFreesTheEmail() async throws {
        try await withServer { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser(password: "the password")
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let viaPasskey = try #require(try await client.signIn(&passkey).string("accessToken"))
            #expect(try await client.send("POST", "/v1/account/recovery-codes", token: token).status == 201)
            await #expect(try CommandLineTests.recoveryCode(for: email, database: database).status == 0)
            // A pending registration challenge and a counted failed attempt.
            _ = try await client.send("POST", "/v1/passkeys/registrations", json: ["mode": "modal"], token: token)
            _ = try await client.send("POST", "/v1/sessions", json: ["email": email, "password": "wrong password"])
            let (other, _) = try await client.passwordUser()
            let accountID = try #require(
                try await client.send("GET", "/v1/account", token: token).string("accountID"))

            let deleted = try await client.send("DELETE", "/v1/account", token: token)
            #expect(deleted.status == 204)
            #expect(try await client.send("GET", "/v1/account", token: token).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: viaPasskey).status == 401)
            #expect(try await client.send("GET", "/v1/account", token: other).status == 200)
            #expect(try await client.signIn(&passkey).code == "unknown-credential")

            // No table holds a row of the account, its email or its passkey.
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            let id = try #require(UUID(uuidString: accountID))
            let leftovers = try await pool.withConnection { c async throws(PostgresError) -> [String] in
                let normalized = email.lowercased()
                let checks: [(String, PostgresQuery)] = [
                    ("accounts", "SELECT count(*) FROM accounts WHERE id = \(id)"),
                    (
                        "account_emails",
                        "SELECT count(*) FROM account_emails WHERE account_id = \(id) OR normalized_email = \(normalized)"
                    ),
                    ("password_credentials", "SELECT count(*) FROM password_credentials WHERE account_id = \(id)"),
                    ("passkey_credentials", "SELECT count(*) FROM passkey_credentials WHERE account_id = \(id)"),
                    (
                        "authentication_sessions",
                        "SELECT count(*) FROM authentication_sessions WHERE account_id = \(id)"
                    ),
                    ("recovery_codes", "SELECT count(*) FROM recovery_codes WHERE account_id = \(id)"),
                    (
                        "passkey_registration_challenges",
                        "SELECT count(*) FROM passkey_registration_challenges WHERE account_id = \(id)"
                    ),
                    (
                        "passkey_account_registrations",
                        "SELECT count(*) FROM passkey_account_registrations WHERE prospective_account_id = \(id) OR lower(email) = \(normalized)"
                    ),
                    (
                        "password_failures",
                        "SELECT count(*) FROM password_failures WHERE normalized_email = \(normalized)"
                    ),
                    ("email_codes", "SELECT count(*) FROM email_codes WHERE account_id = \(id)"),
                    // (v3) The activity log goes with the account (ON DELETE CASCADE).
                    ("account_events", "SELECT count(*) FROM account_events WHERE account_id = \(id)"),
                    // No foreign key: with mail on, the notice of the deletion stays queued
                    // (`SecurityNoticeFlowTests`); this server has mail off, so nothing is.
                    ("mail_outbox", "SELECT count(*) FROM mail_outbox WHERE lower(recipient) = \(normalized)"),
                    ("account_events", "SELECT count(*) FROM account_events WHERE account_id = \(id)"),
                ]
                var tables: [String] = []
                for (table, query) in checks
                where try await c.query(query).first?.decode(Int.self, column: "count") != 0 { tables.append(table) }
                return tables
            }
            #expect(leftovers == [])
            // Every table of the schema was looked at (a new table must be added above).
            let schemaTables = try await pool.withConnection { c async throws(PostgresError) -> Set<String> in
                Set(
                    try await c.query(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                    ).rows.map { row throws(PostgresError) in try row.decode(String.self, column: "tablename") })
            }
            #expect(
                schemaTables == [
                    "accounts", "account_emails", "password_credentials", "passkey_credentials",
                    "authentication_sessions",
                    "recovery_codes", "passkey_registration_challenges", "passkey_authentication_challenges",
                    "passkey_account_registrations", "password_failures", "rate_limit_windows", "schema_migrations",
                    "email_codes", "mail_outbox", "account_events",
                    // (v3) Counts per UTC day of every account together (the adoption figures'
                    // cache): no row names an account, and a deletion forgets the days it touched.
                    "account_event_days", "account_event_days_done",
                    // (v4) The server's signing keys: no row names an account.
                    "signing_keys",
                    // (v4) The event log outlives the account for WEBHOOK_EVENT_RETENTION_DAYS, so the
                    // other services learn of the deletion (docs/webhooks.md); it holds no email,
                    // name or secret.
                    "webhook_events",
                    // (v4) The endpoints name no account; a delivery names one by ID only, and
                    // outlives it as its event does (it carries account.deleted too).
                    "webhooks", "webhook_deliveries",
                    // (v4) The support desk's operators: no row names an account.
                    "operators",
                ])

            // The email is free again.
            let again = try await client.send(
                "POST", "/v1/accounts", json: ["email": email, "displayName": "Again", "password": "a new password"])
            #expect(again.status == 201)
        }
    }

    @Test func deletionNeedsARecentSignIn() async throws {
        let clock = FixedClock(Date())
        try await withServer(clock: clock) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            clock.advance(by: 601)
            let refused = try await client.send("DELETE", "/v1/account", token: token)
            #expect(refused.status == 403)
            #expect(refused.code == "reauthentication-required")
            #expect(try await client.send("GET", "/v1/account", token: token).status == 200)
            #expect(try await client.send("DELETE", "/v1/account", token: nil).status == 401)
        }
    }
}
