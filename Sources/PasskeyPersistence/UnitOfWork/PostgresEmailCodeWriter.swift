internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `EmailCodeWriter` in SQL: `email_codes` (digests only).
struct PostgresEmailCodeWriter: EmailCodeWriter {
    let transaction: PostgresTransaction

    func lockRecipient(_ normalizedEmail: String) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended(\("email-code:" + normalizedEmail), 0))")
        }
    }

    func sends(to normalizedEmail: String, since: Date) async throws(RepositoryError) -> (count: Int, oldest: Date?) {
        try await transaction.run { connection async throws(PostgresError) in
            let row = try await connection.query(
                """
                SELECT count(*)::int4 AS sent, min(created_at) AS oldest FROM email_codes
                WHERE normalized_email = \(normalizedEmail) AND created_at > \(since)
                """
            ).first
            return (try row?.decode(Int.self, column: "sent") ?? 0, try row?.decode(Date?.self, column: "oldest"))
        }
    }

    func sends(of accountID: AccountID, since: Date) async throws(RepositoryError) -> (count: Int, oldest: Date?) {
        try await transaction.run { connection async throws(PostgresError) in
            let row = try await connection.query(
                """
                SELECT count(*)::int4 AS sent, min(created_at) AS oldest FROM email_codes
                WHERE account_id = \(accountID.uuid) AND created_at > \(since)
                """
            ).first
            return (try row?.decode(Int.self, column: "sent") ?? 0, try row?.decode(Date?.self, column: "oldest"))
        }
    }

    func voidUnused(_ purpose: EmailCodePurpose, of accountID: AccountID, at date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE email_codes SET voided_at = \(date)
                WHERE account_id = \(accountID.uuid) AND purpose = \(purpose.rawValue)
                  AND used_at IS NULL AND voided_at IS NULL
                """)
        }
    }

    func insert(_ draft: EmailCodeDraft, of accountID: AccountID, sentTo recipient: EmailAddress)
        async throws(RepositoryError)
    {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO email_codes
                    (id, account_id, purpose, email, normalized_email, code_digest, created_at, expires_at)
                VALUES (\(draft.id), \(accountID.uuid), \(draft.purpose.rawValue), \(recipient.value),
                        \(recipient.normalized), \(bytes: draft.digest), \(draft.createdAt), \(draft.expiresAt))
                """)
        }
    }

    func lockLive(_ purpose: EmailCodePurpose, of accountID: AccountID, now: Date)
        async throws(RepositoryError) -> LockedEmailCode?
    {
        try await transaction.run { connection async throws(PostgresError) in
            let found = try await connection.query(
                """
                SELECT id, code_digest, email, failed_tries FROM email_codes
                WHERE account_id = \(accountID.uuid) AND purpose = \(purpose.rawValue)
                  AND used_at IS NULL AND voided_at IS NULL AND expires_at > \(now)
                ORDER BY created_at DESC LIMIT 1
                FOR UPDATE
                """)
            guard let row = found.first else { return nil }
            return LockedEmailCode(
                id: try row.decode(column: "id"), digest: try row.decode(column: "code_digest"),
                email: try row.decode(column: "email"), failedTries: try row.decode(column: "failed_tries"))
        }
    }

    func latestUsed(_ purpose: EmailCodePurpose, of accountID: AccountID, since: Date)
        async throws(RepositoryError) -> LockedEmailCode?
    {
        try await transaction.run { connection async throws(PostgresError) in
            let found = try await connection.query(
                """
                SELECT id, code_digest, email, failed_tries FROM email_codes
                WHERE account_id = \(accountID.uuid) AND purpose = \(purpose.rawValue) AND used_at > \(since)
                ORDER BY used_at DESC LIMIT 1
                """)
            guard let row = found.first else { return nil }
            return LockedEmailCode(
                id: try row.decode(column: "id"), digest: try row.decode(column: "code_digest"),
                email: try row.decode(column: "email"), failedTries: try row.decode(column: "failed_tries"))
        }
    }

    func countWrongTry(_ id: UUID, void: Bool, at date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE email_codes SET failed_tries = failed_tries + 1,
                    voided_at = CASE WHEN \(void) THEN \(date) ELSE voided_at END
                WHERE id = \(id)
                """)
        }
    }

    func markUsed(_ id: UUID, at date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query("UPDATE email_codes SET used_at = \(date) WHERE id = \(id)")
        }
    }
}
