import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// Spec v3, "Delivery", end to end: the relay is down while requests queue mail. The requests
/// answer as always (they never wait for SMTP nor fail because of it); once the relay is back,
/// the background sender's retries deliver every mail, and the code in it still works.
@Suite struct MailOutageTests {
    @Test func mailQueuedWhileTheRelayIsDownArrivesOnceItIsBackAndTheRequestsNeverFailed() async throws {
        let smtp = try await TestSMTPServer.start()
        defer { Task { await smtp.destroy() } }
        await smtp.stop()  // the relay refuses connections from now on
        let environment = [
            "MAIL_URL": smtp.url, "MAIL_POLL_INTERVAL_MILLISECONDS": "50", "MAIL_RETRY_BASE_MILLISECONDS": "200",
        ]
        try await withServer(environment: environment) { server, database in
            let client = server.client
            let (_, email) = try await client.passwordUser()  // sign-up queues a verification code
            let requested = try await client.send("POST", "/v1/recovery/email", json: ["email": email])
            #expect(requested.status == 202)
            #expect(requested.text == "{}")

            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            // The sender has tried and failed at least once: the rows wait with attempts > 0.
            let deadline = ContinuousClock.now + .seconds(20)
            var failed = 0
            while failed < 2, ContinuousClock.now < deadline {
                failed = try await MailedCode.count(
                    "SELECT count(*) FROM mail_outbox WHERE attempts > 0 AND sent_at IS NULL AND abandoned_at IS NULL",
                    in: database)
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(failed == 2)
            #expect(smtp.messages().isEmpty)

            try await smtp.restart()
            let ids = try await pool.withConnection { c async throws(PostgresError) -> [UUID] in
                try await c.query("SELECT id FROM mail_outbox ORDER BY created_at, id").rows.map {
                    row throws(PostgresError) in try row.decode(UUID.self, column: "id")
                }
            }
            #expect(ids.count == 2)
            var bodies: [String] = []
            for id in ids { bodies.append(try await smtp.waitForMessage(messageID: id).body) }
            // The relay has both mails; the sender marks a row sent right after the relay accepted
            // it, so the second row's commit may still be on its way.
            let sentDeadline = ContinuousClock.now + .seconds(20)
            var sent = 0
            while sent < 2, ContinuousClock.now < sentDeadline {
                sent = try await MailedCode.count(
                    "SELECT count(*) FROM mail_outbox WHERE sent_at IS NOT NULL AND body IS NULL AND attempts > 1",
                    in: database)
                if sent < 2 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(sent == 2)

            // The code delivered late still signs in (it had not expired).
            let lines = try #require(bodies.last).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let code = try #require(lines.first { $0.count == 6 && $0.allSatisfy(\.isASCIIDigit) })
            let session = try await client.send(
                "POST", "/v1/recovery/email/sessions", json: ["email": email, "code": code])
            #expect(session.status == 200)
            #expect(session.string("method") == "email")
        }
    }
}
