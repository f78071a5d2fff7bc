import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// The one place the end-to-end tests read mails. Until the background sender is merged it reads
/// the queued body from `mail_outbox`; afterwards it is switched to the real SMTP server's inbox.
enum MailedCode {
    /// The code of the newest mail queued to `email` (compared case-insensitively).
    static func latest(to email: String, in database: TestDatabase) async throws -> String {
        let body = try #require(try await latestBody(to: email, in: database), "no mail to \(email)")
        let lines = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let code = lines.first { $0.count == 6 && $0.allSatisfy(\.isASCIIDigit) }
        return try #require(code, "no code in the mail to \(email)")
    }

    /// The newest mail's body to `email`, nil when none was queued.
    static func latestBody(to email: String, in database: TestDatabase) async throws -> String? {
        try await mails(to: email, in: database).last?.body
    }

    /// Every mail queued to `email`, oldest first.
    static func mails(to email: String, in database: TestDatabase) async throws -> [(subject: String, body: String)] {
        let pool = database.makePool(maximumConnections: 1)
        defer { pool.close() }
        return try await pool.withConnection { c async throws(PostgresError) -> [(subject: String, body: String)] in
            try await c.query(
                """
                SELECT subject, body FROM mail_outbox WHERE lower(recipient) = \(email.lowercased())
                ORDER BY created_at, id
                """
            ).rows.map { row throws(PostgresError) in
                (try row.decode(String.self, column: "subject"), try row.decode(String.self, column: "body"))
            }
        }
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

/// The environment of a server with mail on: mails are written to a folder (the background
/// sender's `file://` transport); the tests read them from the outbox.
enum MailEnvironment {
    static func on(_ extra: [String: String] = [:]) -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)")
        return ["MAIL_URL": "file://" + folder.path].merging(extra) { $1 }
    }
}
