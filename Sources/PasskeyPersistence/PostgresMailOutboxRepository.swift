package import Foundation
package import PasskeyApplication
internal import PasskeyDomain
package import PasskeyLibpq

/// The background sender's side of `mail_outbox` (docs/mail.md): claiming due rows under a lease
/// with `FOR UPDATE SKIP LOCKED`, then settling each in its own short statement. Sending happens
/// between the two, outside any transaction.
package struct PostgresMailOutboxRepository: MailOutboxRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func claimDue(limit: Int, lease: TimeInterval) async throws(RepositoryError) -> [ClaimedMail] {
        guard limit > 0 else { return [] }
        return try await pool.run { connection async throws(PostgresError) in
            // One statement is one transaction: the rows are locked, leased and committed
            // together; a concurrent sender skips the locked ones and, after the commit, sees the
            // lease. `leased_until` past `now()` means a crashed sender's rows come back.
            let result = try await connection.query(
                """
                UPDATE mail_outbox SET leased_until = now() + make_interval(secs => \(Int((lease * 1000).rounded(.up))) / 1000.0)
                WHERE id IN (
                    SELECT id FROM mail_outbox
                    WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= now()
                      AND (leased_until IS NULL OR leased_until <= now())
                    -- Code mails (they expire) before notices: a flood of notices cannot make
                    -- other users' codes expire unsent (security round 4, finding 4).
                    ORDER BY not_after IS NULL, next_attempt_at LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED)
                RETURNING id, recipient, subject, body, not_after, attempts
                """)
            return try result.rows.map { (row: PostgresRow) throws(PostgresError) -> ClaimedMail in
                let recipient: String = try row.decode(column: "recipient")
                guard let address = EmailAddress(recipient) else {
                    throw PostgresError(kind: .decoding, column: "recipient", diagnostic: "not an email address")
                }
                let message = MailMessage(
                    id: try row.decode(column: "id"), recipient: address, subject: try row.decode(column: "subject"),
                    body: try row.decode(column: "body"))
                return ClaimedMail(
                    message: message, notAfter: try row.decode(column: "not_after"),
                    attempts: try row.decode(column: "attempts"))
            }
        }
    }

    package func release(ids: [UUID]) async throws(RepositoryError) {
        guard !ids.isEmpty else { return }
        try await pool.run { connection async throws(PostgresError) in
            for id in ids {
                try await connection.query(
                    "UPDATE mail_outbox SET leased_until = NULL WHERE id = \(id) AND sent_at IS NULL")
            }
        }
    }

    package func markSent(id: UUID) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE mail_outbox SET sent_at = now(), body = NULL, leased_until = NULL, attempts = attempts + 1
                WHERE id = \(id) AND sent_at IS NULL AND abandoned_at IS NULL
                """)
        }
    }

    /// `last_error` holds at most 500 characters as PostgreSQL counts them (Unicode scalars): a
    /// cut by Swift `Character`s would let combining marks overflow the column.
    static func cut(_ error: String) -> String {
        String(String.UnicodeScalarView(error.unicodeScalars.prefix(500)))
    }

    package func reschedule(
        id: UUID, attempts: Int, lastError: String, nextAttemptAt: Date
    ) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE mail_outbox SET attempts = \(attempts), last_error = \(Self.cut(lastError)),
                    next_attempt_at = \(nextAttemptAt), leased_until = NULL
                WHERE id = \(id) AND sent_at IS NULL AND abandoned_at IS NULL
                """)
        }
    }

    package func abandon(id: UUID, attempts: Int, lastError: String) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE mail_outbox SET abandoned_at = now(), body = NULL, attempts = \(attempts),
                    last_error = \(Self.cut(lastError)), leased_until = NULL
                WHERE id = \(id) AND sent_at IS NULL AND abandoned_at IS NULL
                """)
        }
    }

    package func oldestDueAge() async throws(RepositoryError) -> TimeInterval? {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT extract(epoch FROM now() - min(next_attempt_at))::float8 AS age FROM mail_outbox
                WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= now()
                """)
            let age: Double? = try result.first?.decode(column: "age")
            return age.map { max(0, $0) }
        }
    }
}
