package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// `TokenSessionRepository` in SQL: one statement per question, on the indexed token digest or
/// the session's primary key, with the account's stage read in the same statement.
package struct PostgresTokenSessionRepository: TokenSessionRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    static let columns: StaticString = """
        s.id, s.account_id, s.method, s.user_verified, s.created_at, s.expires_at,
        EXISTS (SELECT 1 FROM password_credentials p WHERE p.account_id = s.account_id) AS has_password,
        EXISTS (SELECT 1 FROM passkey_credentials c WHERE c.account_id = s.account_id) AS has_passkey
        """

    package func liveSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> LiveSessionFacts? {
        try await pool.run { connection async throws(PostgresError) in
            try Self.decode(
                try await connection.query(
                    """
                    SELECT \(unescaped: Self.columns) FROM authentication_sessions s
                    WHERE s.token_digest = \(bytes: tokenDigest) AND s.revoked_at IS NULL AND s.expires_at > \(now)
                    """))
        }
    }

    package func liveSession(_ id: SessionID, of accountID: AccountID, signedWith keyID: SigningKeyID, now: Date)
        async throws(RepositoryError) -> LiveSessionFacts?
    {
        try await pool.run { connection async throws(PostgresError) in
            try Self.decode(
                try await connection.query(
                    """
                    SELECT \(unescaped: Self.columns) FROM authentication_sessions s
                    WHERE s.id = \(id.uuid) AND s.account_id = \(accountID.uuid) AND s.revoked_at IS NULL
                      AND s.expires_at > \(now)
                      AND NOT EXISTS (SELECT 1 FROM signing_keys k WHERE k.id = \(keyID.value) AND k.revoked_at IS NOT NULL)
                    """))
        }
    }

    private static func decode(_ result: PostgresResult) throws(PostgresError) -> LiveSessionFacts? {
        guard let row = result.first else { return nil }
        guard let method = AuthenticationMethod(rawValue: try row.decode(column: "method")) else {
            throw PostgresError(kind: .decoding, column: "method", diagnostic: "unknown session method")
        }
        return LiveSessionFacts(
            sessionID: SessionID(try row.decode(column: "id")),
            accountID: AccountID(try row.decode(column: "account_id")),
            method: method, userVerified: try row.decode(column: "user_verified"),
            createdAt: try row.decode(column: "created_at"), expiresAt: try row.decode(column: "expires_at"),
            stage: MigrationStage(
                hasPassword: try row.decode(column: "has_password"), hasPasskey: try row.decode(column: "has_passkey")))
    }
}
