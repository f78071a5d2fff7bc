internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `MailOutboxWriter` in SQL: `mail_outbox`; the background sender (`PostgresMailOutboxRepository`)
/// claims and sends what is queued here.
struct PostgresMailOutboxWriter: MailOutboxWriter {
    let transaction: PostgresTransaction

    func enqueue(_ mail: OutgoingMail) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO mail_outbox (id, recipient, subject, body, created_at, not_after, next_attempt_at)
                VALUES (\(mail.id), \(mail.recipient.value), \(mail.subject), \(mail.body), \(mail.createdAt),
                        \(mail.notAfter), \(mail.createdAt))
                """)
        }
    }

    func notices(to recipient: EmailAddress, subject: String, since: Date) async throws(RepositoryError) -> Int {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                SELECT count(*) FROM mail_outbox
                WHERE recipient = \(recipient.value) AND subject = \(subject) AND not_after IS NULL
                  AND created_at > \(since)
                """
            ).first?.decode(Int.self, column: "count") ?? 0
        }
    }
}
