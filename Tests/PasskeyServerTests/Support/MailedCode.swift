import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// The one place the end-to-end tests read mails: what the server queued in `mail_outbox`, as the
/// real SMTP server (aiosmtpd, `SharedSMTPServer`) received it from the server's background
/// sender. A mail is matched to its outbox row by its `Message-ID` (`<outbox-id@domain>`), so the
/// order is the order the server queued them in, whatever order they arrived in.
enum MailedCode {
    /// The code of the newest mail queued to `email` (compared case-insensitively).
    static func latest(to email: String, in database: TestDatabase) async throws -> String {
        let body = try #require(try await latestBody(to: email, in: database), "no mail to \(email)")
        let lines = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let code = lines.first { $0.count == 6 && $0.allSatisfy(\.isASCIIDigit) }
        let found = try #require(code, "no code in the mail to \(email)")
        SecretAudit.record(secret: found)
        return found
    }

    /// The newest mail's body to `email`, nil when none was queued.
    static func latestBody(to email: String, in database: TestDatabase) async throws -> String? {
        try await mails(to: email, in: database).last?.body
    }

    /// Every mail queued to `email`, oldest first, each as the SMTP server received it (waits
    /// until each has arrived; fails after 20 s).
    static func mails(to email: String, in database: TestDatabase) async throws -> [(subject: String, body: String)] {
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        let ids = try await pool.withConnection { c async throws(PostgresError) -> [UUID] in
            try await c.query(
                """
                SELECT id FROM mail_outbox WHERE lower(recipient) = \(email.lowercased())
                ORDER BY created_at, id
                """
            ).rows.map { row throws(PostgresError) in try row.decode(UUID.self, column: "id") }
        }
        let smtp = try await SharedSMTPServer.server()
        var received: [(subject: String, body: String)] = []
        for id in ids {
            let mail = try await smtp.waitForMessage(messageID: id)
            received.append((mail.subject, mail.body))
        }
        return received
    }

    /// A count from SQL (`SELECT count(*) ...`), for the tests' checks of stored rows.
    static func count(_ query: PostgresQuery, in database: TestDatabase) async throws -> Int {
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        return try await pool.withConnection { c async throws(PostgresError) -> Int in
            try await c.query(query).first?.decode(Int.self, column: "count") ?? 0
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// One real SMTP server (aiosmtpd) for the whole test run; each test mails unique addresses.
enum SharedSMTPServer {
    private static let started = Task { try await TestSMTPServer.start() }

    static func server() async throws -> TestSMTPServer { try await started.value }
}

extension TestSMTPServer {
    /// The received mail whose `Message-ID` names the outbox row `id`; fails after `timeout`.
    func waitForMessage(messageID id: UUID, timeout: Duration = .seconds(20)) async throws -> ReceivedMail {
        let wanted = "<\(id.uuidString.lowercased())@"
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let mail = messages().first(where: { $0.header("Message-ID")?.hasPrefix(wanted) == true }) {
                return mail
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw MailNotReceived(id: id)
    }
}

struct MailNotReceived: Error, CustomStringConvertible {
    let id: UUID
    var description: String { "the SMTP server received no mail for outbox row \(id) within the timeout" }
}

/// The environment of a server with mail on: its background sender delivers over SMTP to the
/// shared aiosmtpd, polling the outbox every 50 ms so the tests wait little.
enum MailEnvironment {
    static func on(_ extra: [String: String] = [:]) async throws -> [String: String] {
        let smtp = try await SharedSMTPServer.server()
        return ["MAIL_URL": smtp.url, "MAIL_POLL_INTERVAL_MILLISECONDS": "50"].merging(extra) { $1 }
    }
}
