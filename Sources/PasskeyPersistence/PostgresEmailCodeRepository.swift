package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Mailed codes in PostgreSQL (digests only). An issue takes a transaction-scoped advisory lock
/// on the recipient's normalized address, then counts, voids and inserts, so the sending limit
/// holds across concurrent requests and instances; a consumption locks the live code's row.
package struct PostgresEmailCodeRepository: EmailCodeRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func issueVerificationCode(
        accountID: AccountID, draft: EmailCodeDraft, sendsPerHour: Int,
        compose: @escaping @Sendable (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(RepositoryError) -> EmailCodeIssue {
        try await pool.runTransaction { connection async throws(PostgresError) in
            guard let current = try await Self.address(of: accountID, on: connection) else { return .accountGone }
            if current.verified { return .alreadyVerified }
            return try await Self.issue(
                draft, accountID: accountID, to: current.email, sendsPerHour: sendsPerHour,
                mail: compose(current.email, current.language), on: connection)
        }
    }

    package func issueChangeCode(
        accountID: AccountID, newEmail: EmailAddress, draft: EmailCodeDraft, sendsPerHour: Int,
        compose: @escaping @Sendable (EmailAddress, MailLanguage) -> OutgoingMail
    ) async throws(RepositoryError) -> EmailCodeIssue {
        try await pool.runTransaction { connection async throws(PostgresError) in
            guard let current = try await Self.address(of: accountID, on: connection) else { return .accountGone }
            if try await Self.isTaken(newEmail, byOtherThan: accountID, on: connection) { return .emailTaken }
            return try await Self.issue(
                draft, accountID: accountID, to: newEmail, sendsPerHour: sendsPerHour,
                mail: compose(newEmail, current.language), on: connection)
        }
    }

    package func issueSignInCode(
        email: EmailAddress, draft: EmailCodeDraft, sendsPerHour: Int, mails: [MailLanguage: OutgoingMail]
    ) async throws(RepositoryError) {
        guard let english = mails[.english], let japanese = mails[.japanese] else { return }
        try await pool.runTransaction { connection async throws(PostgresError) in
            try await Self.lockRecipient(email.normalized, on: connection)
            // One statement for every address: it finds the account (or none), counts the hour's
            // codes, and voids and inserts only when both allow it.
            let hourAgo = draft.createdAt.addingTimeInterval(-3600)
            try await connection.query(
                """
                WITH target AS (
                    SELECT e.account_id, e.email, e.language FROM account_emails e
                    WHERE e.normalized_email = \(email.normalized)
                      AND (SELECT count(*) FROM email_codes c
                           WHERE c.normalized_email = \(email.normalized) AND c.created_at > \(hourAgo))
                          < \(sendsPerHour)
                ), voided AS (
                    UPDATE email_codes c SET voided_at = \(draft.createdAt) FROM target
                    WHERE c.account_id = target.account_id AND c.purpose = \(draft.purpose.rawValue)
                      AND c.used_at IS NULL AND c.voided_at IS NULL
                ), code AS (
                    INSERT INTO email_codes
                        (id, account_id, purpose, email, normalized_email, code_digest, created_at, expires_at)
                    SELECT \(draft.id), account_id, \(draft.purpose.rawValue), email, \(email.normalized),
                           \(bytes: draft.digest), \(draft.createdAt), \(draft.expiresAt)
                    FROM target
                )
                INSERT INTO mail_outbox (id, recipient, subject, body, created_at, not_after, next_attempt_at)
                SELECT \(draft.id), email,
                       CASE language WHEN 'ja' THEN \(japanese.subject) ELSE \(english.subject) END,
                       CASE language WHEN 'ja' THEN \(japanese.body) ELSE \(english.body) END,
                       \(draft.createdAt), \(draft.expiresAt), \(draft.createdAt)
                FROM target
                """)
        }
    }

    package func confirmVerification(
        accountID: AccountID, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool, event: AccountEvent
    ) async throws(RepositoryError) -> EmailCodeConfirmation {
        try await pool.runTransaction { connection async throws(PostgresError) in
            guard let current = try await Self.address(of: accountID, on: connection) else {
                return .accountGone
            }
            if current.verified { return .alreadyVerified }
            guard let code = try await Self.liveCode(accountID: accountID, purpose: .verify, now: now, on: connection)
            else { return .wrongCode }
            guard matches(code.id, code.digest) else {
                try await Self.countWrongTry(code, maximumTries: maximumTries, on: connection)
                return .wrongCode
            }
            try await Self.markUsed(code, now: now, on: connection)
            try await connection.query(
                "UPDATE account_emails SET verified_at = \(now) WHERE account_id = \(accountID.uuid)")
            try await PostgresAccountEvents.insert(event, on: connection)
            return .confirmed
        }
    }

    package func confirmChange(
        accountID: AccountID, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool,
        notice: (@Sendable (EmailAddress, MailLanguage, EmailAddress) -> OutgoingMail)?, event: AccountEvent
    ) async throws(RepositoryError) -> EmailCodeConfirmation {
        try await pool.runTransaction { connection async throws(PostgresError) in
            guard let current = try await Self.address(of: accountID, on: connection) else {
                return .accountGone
            }
            guard let code = try await Self.liveCode(accountID: accountID, purpose: .change, now: now, on: connection)
            else { return .wrongCode }
            guard matches(code.id, code.digest) else {
                try await Self.countWrongTry(code, maximumTries: maximumTries, on: connection)
                return .wrongCode
            }
            guard let newEmail = EmailAddress(code.email) else {
                throw PostgresError(kind: .decoding, diagnostic: "email_codes.email out of range")
            }
            // Taken meanwhile: the code stays unused, nothing changes.
            try await Self.lockRecipient(newEmail.normalized, on: connection)
            if try await Self.isTaken(newEmail, byOtherThan: accountID, on: connection) { return .emailTaken }
            try await Self.markUsed(code, now: now, on: connection)
            if current.verified, let notice {
                try await PostgresMailOutbox.enqueue(
                    [notice(current.email, current.language, newEmail)], on: connection)
            }
            try await connection.query(
                """
                UPDATE account_emails
                SET email = \(newEmail.value), normalized_email = \(newEmail.normalized), verified_at = \(now)
                WHERE account_id = \(accountID.uuid)
                """)
            try await PostgresAccountEvents.insert(event, on: connection)
            return .confirmed
        }
    }
}
