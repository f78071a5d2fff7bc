package import PasskeyDomain
package import PasskeyLibpq

/// Queues mails in `mail_outbox` inside the caller's transaction, so that a change and the mail it
/// causes commit together or not at all (spec v3, "Delivery"). The background sender
/// (`PostgresMailOutboxRepository`) claims and sends them.
package enum PostgresMailOutbox {
    package static func enqueue(_ mails: [OutgoingMail], on connection: PostgresConnection) async throws(PostgresError)
    {
        for mail in mails {
            try await connection.query(
                """
                INSERT INTO mail_outbox (id, recipient, subject, body, created_at, not_after, next_attempt_at)
                VALUES (\(mail.id), \(mail.recipient.value), \(mail.subject), \(mail.body), \(mail.createdAt),
                        \(mail.notAfter), \(mail.createdAt))
                """)
        }
    }
}
