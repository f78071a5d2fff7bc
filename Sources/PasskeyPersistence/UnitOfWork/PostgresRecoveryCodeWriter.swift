internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `RecoveryCodeWriter` in SQL: `recovery_codes` (SHA-256 digests only).
struct PostgresRecoveryCodeWriter: RecoveryCodeWriter {
    let transaction: PostgresTransaction

    func unusedUserCodes(of accountID: AccountID) async throws(RepositoryError) -> Int {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                SELECT count(*)::int4 AS unused FROM recovery_codes
                WHERE account_id = \(accountID.uuid) AND source = \(RecoveryCodeSource.user.rawValue)
                  AND used_at IS NULL
                """
            ).first?.decode(column: "unused") ?? 0
        }
    }

    func deleteAll(of accountID: AccountID) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query("DELETE FROM recovery_codes WHERE account_id = \(accountID.uuid)")
        }
    }

    func deleteUnusedOperatorCodes(of accountID: AccountID) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                DELETE FROM recovery_codes
                WHERE account_id = \(accountID.uuid) AND source = \(RecoveryCodeSource.operator.rawValue)
                  AND used_at IS NULL
                """)
        }
    }

    func insert(_ codes: [StoredRecoveryCode]) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            for code in codes {
                try await connection.query(
                    """
                    INSERT INTO recovery_codes (id, account_id, code_digest, source, created_at, expires_at)
                    VALUES (\(code.id), \(code.accountID.uuid), \(bytes: code.digest), \(code.source.rawValue),
                            \(code.createdAt), \(code.expiresAt))
                    """)
            }
        }
    }

    func lock(digest: [UInt8], normalizedEmail: String, now: Date)
        async throws(RepositoryError) -> LockedRecoveryCode?
    {
        try await transaction.run { connection async throws(PostgresError) in
            // Locks the code row, used or not: a concurrent winner's lock makes this wait, and
            // once the winner commits it reads the winner's row version (used_at set).
            let result = try await connection.query(
                """
                SELECT r.id, r.source, r.used_at, \(unescaped: AccountRow.columns)
                FROM recovery_codes r JOIN account_emails e ON e.account_id = r.account_id
                JOIN accounts a ON a.id = r.account_id
                WHERE e.normalized_email = \(normalizedEmail) AND r.code_digest = \(bytes: digest)
                  AND (r.expires_at IS NULL OR r.expires_at > \(now))
                FOR UPDATE OF r
                """)
            guard let row = result.first else { return nil }
            guard let source = RecoveryCodeSource(rawValue: try row.decode(column: "source")) else {
                throw PostgresError(kind: .decoding, diagnostic: "unknown recovery code source")
            }
            return LockedRecoveryCode(
                id: try row.decode(column: "id"), account: try AccountRow.decode(row), source: source,
                usedAt: try row.decode(column: "used_at"))
        }
    }

    func markUsed(_ id: UUID, at date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query("UPDATE recovery_codes SET used_at = \(date) WHERE id = \(id)")
        }
    }
}
