internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// The statements the flows of `PostgresEmailCodeRepository` share.
extension PostgresEmailCodeRepository {
    struct CurrentAddress {
        let email: EmailAddress
        let language: MailLanguage
        let verified: Bool
    }

    /// The account's address, row-locked (every caller changes it or its codes).
    static func address(of accountID: AccountID, on connection: PostgresConnection)
        async throws(PostgresError) -> CurrentAddress?
    {
        let found = try await connection.query(
            """
            SELECT email, language, verified_at IS NOT NULL AS verified FROM account_emails
            WHERE account_id = \(accountID.uuid) FOR NO KEY UPDATE
            """)
        guard let row = found.first else { return nil }
        guard let email = EmailAddress(try row.decode(column: "email")),
            let language = MailLanguage(rawValue: try row.decode(column: "language"))
        else { throw PostgresError(kind: .decoding, diagnostic: "account_emails.email or language out of range") }
        return CurrentAddress(email: email, language: language, verified: try row.decode(column: "verified"))
    }

    static func isTaken(_ email: EmailAddress, byOtherThan accountID: AccountID, on connection: PostgresConnection)
        async throws(PostgresError) -> Bool
    {
        let found = try await connection.query(
            """
            SELECT 1 FROM account_emails
            WHERE normalized_email = \(email.normalized) AND account_id <> \(accountID.uuid)
            """)
        return found.first != nil
    }

    /// Serialises every issue to one recipient, in every instance, until the transaction ends.
    static func lockRecipient(_ normalizedEmail: String, on connection: PostgresConnection) async throws(PostgresError)
    {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtextextended(\("email-code:" + normalizedEmail), 0))")
    }

    /// Under the recipient's lock: counts the hour's codes; under the limit, voids the earlier
    /// unused codes of the purpose and account, stores the code and queues its mail.
    static func issue(
        _ draft: EmailCodeDraft, accountID: AccountID, to recipient: EmailAddress, sendsPerHour: Int,
        mail: OutgoingMail, on connection: PostgresConnection
    ) async throws(PostgresError) -> EmailCodeIssue {
        try await lockRecipient(recipient.normalized, on: connection)
        let hourAgo = draft.createdAt.addingTimeInterval(-3600)
        let counted = try await connection.query(
            """
            SELECT count(*)::int4 AS sent, min(created_at) AS oldest FROM email_codes
            WHERE normalized_email = \(recipient.normalized) AND created_at > \(hourAgo)
            """)
        let sent: Int = try counted.first?.decode(column: "sent") ?? 0
        if sent >= sendsPerHour {
            let oldest: Date? = try counted.first?.decode(column: "oldest")
            let wait = (oldest ?? draft.createdAt).addingTimeInterval(3600).timeIntervalSince(draft.createdAt)
            return .limited(retryAfter: max(1, Int(wait.rounded(.up))))
        }
        try await connection.query(
            """
            UPDATE email_codes SET voided_at = \(draft.createdAt)
            WHERE account_id = \(accountID.uuid) AND purpose = \(draft.purpose.rawValue)
              AND used_at IS NULL AND voided_at IS NULL
            """)
        try await store(EmailCodeMail(draft: draft, mail: mail), accountID: accountID, to: recipient, on: connection)
        return .issued
    }

    /// Stores the code and queues its mail in the caller's transaction.
    static func store(
        _ code: EmailCodeMail, accountID: AccountID, to recipient: EmailAddress, on connection: PostgresConnection
    ) async throws(PostgresError) {
        let draft = code.draft
        try await connection.query(
            """
            INSERT INTO email_codes
                (id, account_id, purpose, email, normalized_email, code_digest, created_at, expires_at)
            VALUES (\(draft.id), \(accountID.uuid), \(draft.purpose.rawValue), \(recipient.value),
                    \(recipient.normalized), \(bytes: draft.digest), \(draft.createdAt), \(draft.expiresAt))
            """)
        try await PostgresMailOutbox.enqueue([code.mail], on: connection)
    }

    /// The account's live code of `purpose`, row-locked: a concurrent use waits, then sees it used.
    static func liveCode(accountID: AccountID, purpose: EmailCodePurpose, now: Date, on connection: PostgresConnection)
        async throws(PostgresError) -> LiveEmailCode?
    {
        let found = try await connection.query(
            """
            SELECT id, code_digest, email, failed_tries FROM email_codes
            WHERE account_id = \(accountID.uuid) AND purpose = \(purpose.rawValue)
              AND used_at IS NULL AND voided_at IS NULL AND expires_at > \(now)
            ORDER BY created_at DESC LIMIT 1
            FOR UPDATE
            """)
        guard let row = found.first else { return nil }
        return LiveEmailCode(
            id: try row.decode(column: "id"), digest: try row.decode(column: "code_digest"),
            email: try row.decode(column: "email"), failedTries: try row.decode(column: "failed_tries"))
    }

    /// One more wrong try; the `maximumTries`-th voids the code.
    static func countWrongTry(_ code: LiveEmailCode, maximumTries: Int, on connection: PostgresConnection)
        async throws(PostgresError)
    {
        try await connection.query(
            """
            UPDATE email_codes SET failed_tries = failed_tries + 1,
                voided_at = CASE WHEN failed_tries + 1 >= \(maximumTries) THEN now() ELSE voided_at END
            WHERE id = \(code.id)
            """)
    }

    static func markUsed(_ code: LiveEmailCode, now: Date, on connection: PostgresConnection)
        async throws(PostgresError)
    {
        try await connection.query("UPDATE email_codes SET used_at = \(now) WHERE id = \(code.id)")
    }
}
