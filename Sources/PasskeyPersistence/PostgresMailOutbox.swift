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

extension PostgresMailOutbox {
    /// Queues a security notice in the caller's transaction when the account's address is verified
    /// (spec v3: notices go to verified addresses only); `compose` renders it for the address and
    /// language read in the same transaction. Returns whether a notice was queued.
    @discardableResult
    package static func enqueueNotice(
        accountID: AccountID, on connection: PostgresConnection,
        compose: (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(PostgresError) -> Bool {
        let found = try await connection.query(
            """
            SELECT email, language FROM account_emails
            WHERE account_id = \(accountID.uuid) AND verified_at IS NOT NULL
            """)
        guard let row = found.first else { return false }
        guard let email = EmailAddress(try row.decode(column: "email")),
            let language = MailLanguage(rawValue: try row.decode(column: "language"))
        else { throw PostgresError(kind: .decoding, diagnostic: "account_emails.email or language out of range") }
        try await enqueue([compose(email, language)], on: connection)
        return true
    }
}
