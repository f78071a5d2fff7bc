package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Recovery codes in PostgreSQL: SHA-256 digests only, consumed once by one atomic statement.
package struct PostgresRecoveryCodeRepository: RecoveryCodeRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func replaceCodes(accountID: AccountID, with codes: [StoredRecoveryCode]) async throws(RepositoryError)
        -> Bool
    {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // The account row lock serialises two concurrent replacements: the later set wins whole.
            let account = try await connection.query("SELECT 1 FROM accounts WHERE id = \(accountID.uuid) FOR UPDATE")
            guard account.first != nil else { return false }
            try await connection.query("DELETE FROM recovery_codes WHERE account_id = \(accountID.uuid)")
            for code in codes { try await Self.insert(code, on: connection) }
            return true
        }
    }

    package func addOperatorCode(
        normalizedEmail: String, makeCode: @escaping @Sendable (AccountID) -> StoredRecoveryCode
    ) async throws(RepositoryError) -> AccountID? {
        try await pool.runTransaction { connection async throws(PostgresError) in
            let found = try await connection.query(
                "SELECT account_id FROM account_emails WHERE normalized_email = \(normalizedEmail)")
            guard let row = found.first else { return nil }
            let accountID = AccountID(try row.decode(column: "account_id"))
            try await Self.insert(makeCode(accountID), on: connection)
            return accountID
        }
    }

    package func redeem(
        normalizedEmail: String, codeDigest: [UInt8], now: Date,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession
    ) async throws(RepositoryError) -> (account: Account, source: RecoveryCodeSource)? {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // One statement consumes the code: of concurrent redemptions exactly one updates the
            // row (the others find used_at set once the winner commits, and match nothing).
            let used = try await connection.query(
                """
                UPDATE recovery_codes r SET used_at = \(now)
                FROM account_emails e JOIN accounts a ON a.id = e.account_id
                WHERE e.normalized_email = \(normalizedEmail) AND r.account_id = e.account_id
                  AND r.code_digest = \(bytes: codeDigest) AND r.used_at IS NULL
                  AND (r.expires_at IS NULL OR r.expires_at > \(now))
                RETURNING \(unescaped: AccountRow.columns), r.source
                """)
            guard let row = used.first else { return nil }
            let account = try AccountRow.decode(row)
            guard let source = RecoveryCodeSource(rawValue: try row.decode(column: "source")) else {
                throw PostgresError(kind: .decoding, diagnostic: "unknown recovery code source")
            }
            try await PostgresSessionRepository.insert(makeSession(account), on: connection)
            return (account, source)
        }
    }

    static func insert(_ code: StoredRecoveryCode, on connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query(
            """
            INSERT INTO recovery_codes (id, account_id, code_digest, source, created_at, expires_at)
            VALUES (\(code.id), \(code.accountID.uuid), \(bytes: code.digest), \(code.source.rawValue),
                    \(code.createdAt), \(code.expiresAt))
            """)
    }
}
