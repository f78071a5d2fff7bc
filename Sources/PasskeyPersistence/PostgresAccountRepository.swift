package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Accounts, emails and password credentials in PostgreSQL.
package struct PostgresAccountRepository: AccountRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func createPasswordAccount(
        _ account: Account, email: AccountEmail, password: PasswordCredential, verification: EmailCodeMail?,
        event: AccountEvent
    ) async throws(RepositoryError) {
        guard let verification else {
            try await pool.run { connection async throws(PostgresError) in
                try await Self.insert(account, email, password, event: event, on: connection)
            }
            return
        }
        // The account, its event and its verification code and mail commit together or not at all.
        try await pool.runTransaction { connection async throws(PostgresError) in
            try await Self.insert(account, email, password, event: event, on: connection)
            try await PostgresEmailCodeRepository.store(
                verification, accountID: account.id, to: email.email, on: connection)
        }
    }

    package func importPasswordAccounts(
        _ accounts: [ImportedPasswordAccount], progress: @escaping @Sendable (Int) -> Void
    ) async throws(RepositoryError) {
        // One transaction: all or nothing. Progress is reported from the event loop.
        try await pool.runTransaction { connection async throws(PostgresError) in
            for (index, item) in accounts.enumerated() {
                try await Self.insert(item.account, item.email, item.password, event: item.event, on: connection)
                if (index + 1) % 1000 == 0 || index + 1 == accounts.count { progress(index + 1) }
            }
        }
    }

    /// Account, email, password and the `account.created` event in one statement (data-modifying
    /// CTEs are atomic): an import writes no extra round trip per account for its event.
    private static func insert(
        _ account: Account, _ email: AccountEmail, _ password: PasswordCredential, event: AccountEvent,
        on connection: PostgresConnection
    ) async throws(PostgresError) {
        try await connection.query(
            """
            WITH a AS (
                INSERT INTO accounts (id, display_name, created_at)
                VALUES (\(account.id.uuid), \(account.displayName.value), \(account.createdAt)) RETURNING id
            ), e AS (
                INSERT INTO account_emails (id, account_id, email, normalized_email, created_at, language, verified_at)
                SELECT \(email.id), a.id, \(email.email.value), \(email.email.normalized), \(account.createdAt),
                       \(email.language.rawValue), \(email.verifiedAt) FROM a
            ), ev AS (
                INSERT INTO account_events (id, account_id, kind, occurred_at, client_address, user_agent, method)
                SELECT \(event.id.uuid), a.id, \(event.kind.rawValue), \(event.occurredAt), \(event.clientAddress),
                       \(event.userAgent), \(event.activity.method) FROM a
            )
            INSERT INTO password_credentials (account_id, password_hash, created_at, updated_at)
            SELECT a.id, \(password.passwordHash), \(password.createdAt), \(password.updatedAt) FROM a
            """)
    }

    package func passwordAccount(normalizedEmail: String) async throws(RepositoryError) -> PasswordAccount? {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: AccountRow.columns), p.password_hash, p.created_at AS password_created_at,
                       p.updated_at AS password_updated_at
                FROM account_emails e
                JOIN accounts a ON a.id = e.account_id
                JOIN password_credentials p ON p.account_id = a.id
                WHERE e.normalized_email = \(normalizedEmail)
                """)
            guard let row = result.first else { return nil }
            let account = try AccountRow.decode(row)
            return PasswordAccount(
                account: account,
                credential: PasswordCredential(
                    accountID: account.id, passwordHash: try row.decode(column: "password_hash"),
                    createdAt: try row.decode(column: "password_created_at"),
                    updatedAt: try row.decode(column: "password_updated_at")))
        }
    }

    package func updatePasswordHash(accountID: AccountID, from expectedHash: String, to newHash: String, at date: Date)
        async throws(RepositoryError)
    {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE password_credentials SET password_hash = \(newHash), updated_at = \(date)
                WHERE account_id = \(accountID.uuid) AND password_hash = \(expectedHash)
                """)
        }
    }

    package func accountSummary(id: AccountID) async throws(RepositoryError) -> AccountSummary? {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: AccountRow.columns), e.email, e.verified_at IS NOT NULL AS email_verified,
                       EXISTS (SELECT 1 FROM password_credentials p WHERE p.account_id = a.id) AS has_password,
                       (SELECT count(*) FROM recovery_codes r
                        WHERE r.account_id = a.id AND r.source = 'user' AND r.used_at IS NULL)
                           AS recovery_codes_remaining
                FROM accounts a JOIN account_emails e ON e.account_id = a.id
                WHERE a.id = \(id.uuid)
                """)
            guard let row = result.first else { return nil }
            guard let email = EmailAddress(try row.decode(column: "email")) else {
                throw PostgresError(kind: .decoding, diagnostic: "account_emails.email out of range")
            }
            let passkeys = try await PostgresPasskeyCredentialRepository.credentials(accountID: id, on: connection)
            return AccountSummary(
                account: try AccountRow.decode(row), email: email, hasPassword: try row.decode(column: "has_password"),
                passkeys: passkeys, recoveryCodesRemaining: try row.decode(column: "recovery_codes_remaining"),
                emailVerified: try row.decode(column: "email_verified"))
        }
    }

    package func deleteAccount(id: AccountID, notice: PendingNotice?) async throws(RepositoryError) -> Bool {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // Lock order: the rows a sign-in updates before the account. A sign-in locks its
            // credential (the passkey's counter, the recovery code it consumes, a rehashed
            // password) and then, inserting its session, the account (the foreign key's KEY
            // SHARE). Locking the account first and cascading to those rows afterwards deadlocked
            // with it (SQLSTATE 40P01, seen as a 500 in CeremonyAbuseTests); in this order a racing
            // sign-in either finishes first or finds its row gone.
            try await connection.query("SELECT 1 FROM passkey_credentials WHERE account_id = \(id.uuid) FOR UPDATE")
            try await connection.query("SELECT 1 FROM recovery_codes WHERE account_id = \(id.uuid) FOR UPDATE")
            try await connection.query("SELECT 1 FROM password_credentials WHERE account_id = \(id.uuid) FOR UPDATE")
            // Then the account, so a concurrent sign-in or registration waits or fails.
            let email = try await connection.query(
                """
                SELECT e.normalized_email FROM accounts a JOIN account_emails e ON e.account_id = a.id
                WHERE a.id = \(id.uuid) FOR UPDATE OF a
                """)
            guard let row = email.first else { return false }
            let normalizedEmail = try row.decode(String.self, column: "normalized_email")
            // The notice reads the address before it goes; `mail_outbox` has no foreign key.
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: id, on: connection, compose: notice.mail)
            }
            // Not referenced by foreign key: the completed passkey-account registration (it holds
            // the email and display name) and the attempts counted against the email.
            try await connection.query(
                "DELETE FROM passkey_account_registrations WHERE prospective_account_id = \(id.uuid)")
            try await connection.query("DELETE FROM password_failures WHERE normalized_email = \(normalizedEmail)")
            // Everything else goes by ON DELETE CASCADE: email, password, passkeys, sessions,
            // recovery codes, registration challenges.
            return try await connection.query("DELETE FROM accounts WHERE id = \(id.uuid)").affectedRows == 1
        }
    }

    package func removePassword(
        accountID: AccountID, keepingSession: SessionID, verifiedEmailCounts: Bool, notice: PendingNotice?,
        event: AccountEvent
    )
        async throws(RepositoryError) -> PasswordRemovalOutcome
    {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // Lock the account so a concurrent passkey deletion cannot leave it with no way in.
            try await connection.query("SELECT 1 FROM accounts WHERE id = \(accountID.uuid) FOR UPDATE")
            let state = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM password_credentials WHERE account_id = \(accountID.uuid)) AS has_password,
                       EXISTS (SELECT 1 FROM passkey_credentials
                               WHERE account_id = \(accountID.uuid) AND last_used_at IS NOT NULL) AS has_used_passkey,
                       EXISTS (SELECT 1 FROM recovery_codes
                               WHERE account_id = \(accountID.uuid) AND source = 'user' AND used_at IS NULL)
                           AS has_recovery_codes,
                       EXISTS (SELECT 1 FROM account_emails
                               WHERE account_id = \(accountID.uuid) AND verified_at IS NOT NULL) AS has_verified_email
                """)
            guard let row = state.first, try row.decode(Bool.self, column: "has_password") else { return .noPassword }
            guard try row.decode(Bool.self, column: "has_used_passkey") else { return .noPasskeyUsedYet }
            // Only the user's own set: a support code cannot be used to drop a password.
            // (v3) Or a verified address while mail is on: recovery by email is a way back in.
            let hasVerifiedEmail = try row.decode(Bool.self, column: "has_verified_email")
            let hasRecoveryCodes = try row.decode(Bool.self, column: "has_recovery_codes")
            guard hasRecoveryCodes || (verifiedEmailCounts && hasVerifiedEmail) else {
                return .noRecoverySetUp
            }
            try await connection.query("DELETE FROM password_credentials WHERE account_id = \(accountID.uuid)")
            // A password that is gone no longer keeps anyone signed in, except the caller.
            try await connection.query(
                """
                UPDATE authentication_sessions SET revoked_at = now()
                WHERE account_id = \(accountID.uuid) AND method = 'password'
                  AND id <> \(keepingSession.uuid) AND revoked_at IS NULL
                """)
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: accountID, on: connection, compose: notice.mail)
            }
            try await PostgresAccountEvents.insert(event, on: connection)
            return .removed
        }
    }

    package func setPassword(
        accountID: AccountID, passwordHash: String, now: Date, keepingSession: SessionID,
        notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> Bool {
        try await pool.runTransaction { connection async throws(PostgresError) in
            let account = try await connection.query(
                "SELECT 1 FROM accounts WHERE id = \(accountID.uuid) FOR NO KEY UPDATE")
            guard account.first != nil else { return false }
            try await connection.query(
                """
                INSERT INTO password_credentials (account_id, password_hash, created_at, updated_at)
                VALUES (\(accountID.uuid), \(passwordHash), \(now), \(now))
                ON CONFLICT (account_id) DO UPDATE SET password_hash = EXCLUDED.password_hash,
                                                       updated_at = EXCLUDED.updated_at
                """)
            // The old password no longer keeps anyone signed in, except the caller.
            try await connection.query(
                """
                UPDATE authentication_sessions SET revoked_at = \(now)
                WHERE account_id = \(accountID.uuid) AND method = 'password'
                  AND id <> \(keepingSession.uuid) AND revoked_at IS NULL
                """)
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: accountID, on: connection, compose: notice.mail)
            }
            try await PostgresAccountEvents.insert(event, on: connection)
            return true
        }
    }

    package func recordFailedSignIn(_ event: PendingAccountEvent, normalizedEmail: String)
        async throws(RepositoryError)
    {
        try await pool.run { connection async throws(PostgresError) in
            try await PostgresAccountEvents.insert(event, forNormalizedEmail: normalizedEmail, on: connection)
        }
    }
}
