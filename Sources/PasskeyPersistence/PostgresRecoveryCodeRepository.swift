package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Recovery codes in PostgreSQL: SHA-256 digests only, consumed once by one atomic statement.
package struct PostgresRecoveryCodeRepository: RecoveryCodeRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func replaceCodes(
        accountID: AccountID, with codes: [StoredRecoveryCode], notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> Bool {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // The account row lock serialises two concurrent replacements (the later set wins
            // whole) and operator codes issued meanwhile. NO KEY UPDATE, not UPDATE: a redemption
            // holding a code's row lock inserts its session under the account's key-share lock,
            // which UPDATE would block while this transaction waits for that code: a deadlock.
            let account = try await connection.query(
                "SELECT 1 FROM accounts WHERE id = \(accountID.uuid) FOR NO KEY UPDATE")
            guard account.first != nil else { return false }
            try await connection.query("DELETE FROM recovery_codes WHERE account_id = \(accountID.uuid)")
            for code in codes { try await Self.insert(code, on: connection) }
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: accountID, on: connection, compose: notice.mail)
            }
            try await PostgresAccountEvents.insert(event, on: connection)
            return true
        }
    }

    package func addOperatorCode(
        normalizedEmail: String, issuedBy: SupportAgentName, notice: PendingNotice?, event: PendingAccountEvent,
        makeCode: @escaping @Sendable (AccountID) -> StoredRecoveryCode
    ) async throws(RepositoryError) -> AccountID? {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // The account row lock serialises concurrent issuing (and a concurrent replacement of
            // the user's set): each voids what the one before it stored, so one operator code
            // stays live. NO KEY UPDATE as in `replaceCodes`.
            let found = try await connection.query(
                """
                SELECT a.id AS account_id FROM account_emails e JOIN accounts a ON a.id = e.account_id
                WHERE e.normalized_email = \(normalizedEmail) FOR NO KEY UPDATE OF a
                """)
            guard let row = found.first else { return nil }
            let accountID = AccountID(try row.decode(column: "account_id"))
            try await connection.query(
                """
                DELETE FROM recovery_codes
                WHERE account_id = \(accountID.uuid) AND source = \(RecoveryCodeSource.operator.rawValue)
                  AND used_at IS NULL
                """)
            try await Self.insert(makeCode(accountID), on: connection)
            try await Self.recordCodeIssued(event.event(accountID: accountID), on: connection)
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: accountID, on: connection, compose: notice.mail)
            }
            return accountID
        }
    }

    /// Writes the account event `recovery-code.issued` (`method` = the issuer, never the code), in
    /// the transaction that stores the code.
    static func recordCodeIssued(_ event: AccountEvent, on connection: PostgresConnection) async throws(PostgresError) {
        try await PostgresAccountEvents.insert(event, on: connection)
    }

    package func redeem(
        normalizedEmail: String, codeDigest: [UInt8], now: Date, recentUseWindow: TimeInterval,
        notice: @escaping @Sendable (RecoveryCodeSource) -> PendingNotice?,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession, events: SignInEvents
    ) async throws(RepositoryError) -> RecoveryCodeRedemption {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // One statement decides. `code` locks the account's unexpired code with this digest,
            // used or not; a concurrent winner's lock makes it wait, and once the winner commits
            // it reads the winner's row version (used_at set). `consumed` marks it used only when
            // the locked version was unused, so of concurrent redemptions exactly one consumes it,
            // and each loser learns from the same row that it lost to a use just now.
            let usedAfter = now.addingTimeInterval(-max(0, recentUseWindow))
            let result = try await connection.query(
                """
                WITH code AS (
                    SELECT r.id, r.account_id, r.used_at FROM recovery_codes r JOIN account_emails e ON e.account_id = r.account_id
                    WHERE e.normalized_email = \(normalizedEmail) AND r.code_digest = \(bytes: codeDigest)
                      AND (r.expires_at IS NULL OR r.expires_at > \(now))
                    FOR UPDATE OF r
                ), consumed AS (
                    UPDATE recovery_codes r SET used_at = \(now)
                    FROM code JOIN accounts a ON a.id = code.account_id
                    WHERE r.id = code.id AND code.used_at IS NULL
                    RETURNING \(unescaped: AccountRow.columns), r.source
                )
                SELECT consumed.*,
                       (code.used_at IS NOT NULL
                        AND code.used_at > \(usedAfter)) AS used_just_now
                FROM code LEFT JOIN consumed ON true
                """)
            // A wrong code of an existing account is a failed sign-in of it: recorded by one
            // statement that finds the account by its address (an unknown one writes nothing), in
            // this transaction, and run for every wrong code so an unknown address looks the same.
            guard let row = result.first else {
                try await PostgresAccountEvents.insert(
                    events.failure, forNormalizedEmail: normalizedEmail, on: connection)
                return .notFound
            }
            guard let account = try AccountRow.decodeIfPresent(row) else {
                guard try row.decode(Bool.self, column: "used_just_now") else {
                    try await PostgresAccountEvents.insert(
                        events.failure, forNormalizedEmail: normalizedEmail, on: connection)
                    return .notFound
                }
                return .usedJustNow
            }
            guard let source = RecoveryCodeSource(rawValue: try row.decode(column: "source")) else {
                throw PostgresError(kind: .decoding, diagnostic: "unknown recovery code source")
            }
            let session = makeSession(account)
            try await PostgresSessionRepository.insert(session, on: connection)
            try await PostgresAccountEvents.insert(events.success.event(accountID: account.id), on: connection)
            if let notice = notice(source) {
                try await PostgresMailOutbox.enqueueNotice(accountID: account.id, on: connection, compose: notice.mail)
            }
            return .redeemed(account: account, source: source)
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
