package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Reading accounts, emails and password credentials in PostgreSQL (their changes are
/// `PostgresAccountWriter`'s).
package struct PostgresAccountRepository: AccountRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func passwordAccount(normalizedEmail: String) async throws(RepositoryError) -> PasswordAccount? {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: AccountRow.columns), p.password_hash, p.created_at AS password_created_at,
                       p.updated_at AS password_updated_at, a.locked_at IS NOT NULL AS locked
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
                    updatedAt: try row.decode(column: "password_updated_at")),
                isLocked: try row.decode(column: "locked"))
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
}
