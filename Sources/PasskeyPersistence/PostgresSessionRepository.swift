package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Authentication sessions in PostgreSQL; tokens are only ever present as SHA-256 digests.
package struct PostgresSessionRepository: SessionRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func createSession(_ session: AuthenticationSession) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await Self.insert(session, on: connection)
        }
    }

    package func createSession(_ s: AuthenticationSession, event: AccountEvent) async throws(RepositoryError) {
        let isPasswordSignIn = event.activity == .signIn(.password, credentialID: nil)
        try await pool.run { connection async throws(PostgresError) in
            // One statement, one commit: the session and its sign-in event exist together or not
            // at all. `had_passkey` (password sign-ins) is read in it too.
            try await connection.query(
                """
                WITH s AS (
                    INSERT INTO authentication_sessions
                        (id, account_id, token_digest, method, credential_id, created_at, expires_at, revoked_at)
                    VALUES (\(s.id.uuid), \(s.accountID.uuid), \(bytes: s.tokenDigest), \(s.method.rawValue),
                            \(s.credentialID.map { PostgresBytes($0.bytes) }), \(s.createdAt), \(s.expiresAt),
                            \(s.revokedAt))
                    RETURNING account_id
                )
                INSERT INTO account_events
                    (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id,
                     had_passkey)
                SELECT \(event.id.uuid), s.account_id, \(event.kind.rawValue), \(event.occurredAt),
                       \(event.clientAddress), \(event.userAgent), \(event.activity.method),
                       \(event.activity.credentialID.map { PostgresBytes($0.bytes) }), \(event.sessionID?.uuid),
                       CASE WHEN \(isPasswordSignIn)
                            THEN EXISTS (SELECT 1 FROM passkey_credentials p WHERE p.account_id = s.account_id)
                       END
                FROM s
                """)
        }
    }

    static func insert(_ s: AuthenticationSession, on connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query(
            """
            INSERT INTO authentication_sessions
                (id, account_id, token_digest, method, credential_id, created_at, expires_at, revoked_at)
            VALUES (\(s.id.uuid), \(s.accountID.uuid), \(bytes: s.tokenDigest), \(s.method.rawValue),
                    \(s.credentialID.map { PostgresBytes($0.bytes) }), \(s.createdAt), \(s.expiresAt), \(s.revokedAt))
            """)
    }

    package func activeSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> ActiveSession? {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: AccountRow.columns), s.id, s.method, s.created_at, s.expires_at, s.credential_id
                FROM authentication_sessions s JOIN accounts a ON a.id = s.account_id
                WHERE s.token_digest = \(bytes: tokenDigest) AND s.revoked_at IS NULL AND s.expires_at > \(now)
                """)
            guard let row = result.first else { return nil }
            guard let method = AuthenticationMethod(rawValue: try row.decode(column: "method")) else {
                throw PostgresError(kind: .decoding, diagnostic: "unknown session method")
            }
            let account = try AccountRow.decode(row)
            let session = AuthenticationSession(
                id: SessionID(try row.decode(column: "id")), accountID: account.id, tokenDigest: tokenDigest,
                method: method,
                credentialID: try row.decode([UInt8]?.self, column: "credential_id").flatMap(CredentialID.init(bytes:)),
                createdAt: try row.decode(column: "created_at"), expiresAt: try row.decode(column: "expires_at"))
            return ActiveSession(session: session, account: account)
        }
    }

    package func revokeSession(id: SessionID, at date: Date) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                "UPDATE authentication_sessions SET revoked_at = \(date) WHERE id = \(id.uuid) AND revoked_at IS NULL")
            return result.affectedRows == 1
        }
    }

    package func activeSessions(accountID: AccountID, now: Date) async throws(RepositoryError)
        -> [AuthenticationSession]
    {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT id, token_digest, method, credential_id, created_at, expires_at
                FROM authentication_sessions
                WHERE account_id = \(accountID.uuid) AND revoked_at IS NULL AND expires_at > \(now)
                ORDER BY created_at DESC, id
                LIMIT 1000
                """)
            return try result.rows.map { row throws(PostgresError) in
                guard let method = AuthenticationMethod(rawValue: try row.decode(column: "method")) else {
                    throw PostgresError(kind: .decoding, diagnostic: "unknown session method")
                }
                return AuthenticationSession(
                    id: SessionID(try row.decode(column: "id")), accountID: accountID,
                    tokenDigest: try row.decode(column: "token_digest"), method: method,
                    credentialID: try row.decode([UInt8]?.self, column: "credential_id").flatMap(
                        CredentialID.init(bytes:)),
                    createdAt: try row.decode(column: "created_at"), expiresAt: try row.decode(column: "expires_at"))
            }
        }
    }

    package func revokeSession(id: SessionID, accountID: AccountID, now: Date, event: AccountEvent)
        async throws(RepositoryError) -> Bool
    {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                WITH r AS (
                    UPDATE authentication_sessions SET revoked_at = \(now)
                    WHERE id = \(id.uuid) AND account_id = \(accountID.uuid) AND revoked_at IS NULL
                      AND expires_at > \(now)
                    RETURNING id
                ), e AS (
                    \(unescaped: Self.insertEvent)
                    SELECT \(event.id.uuid), \(event.accountID.uuid), \(event.kind.rawValue), \(event.occurredAt),
                           \(event.clientAddress), \(event.userAgent), \(event.activity.method), \(event.sessionID?.uuid)
                    WHERE EXISTS (SELECT 1 FROM r)
                )
                SELECT count(*) AS ended FROM r
                """)
            return try result.first?.decode(Int.self, column: "ended") == 1
        }
    }

    package func revokeOtherSessions(accountID: AccountID, keeping: SessionID, now: Date, event: AccountEvent)
        async throws(RepositoryError) -> Int
    {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                WITH r AS (
                    UPDATE authentication_sessions SET revoked_at = \(now)
                    WHERE account_id = \(accountID.uuid) AND id <> \(keeping.uuid) AND revoked_at IS NULL
                      AND expires_at > \(now)
                    RETURNING id
                ), e AS (
                    \(unescaped: Self.insertEvent)
                    SELECT \(event.id.uuid), \(event.accountID.uuid), \(event.kind.rawValue), \(event.occurredAt),
                           \(event.clientAddress), \(event.userAgent), \(event.activity.method), \(event.sessionID?.uuid)
                    WHERE EXISTS (SELECT 1 FROM r)
                )
                SELECT count(*) AS ended FROM r
                """)
            return try result.first?.decode(Int.self, column: "ended") ?? 0
        }
    }

    /// The column list of a `sessions.ended` event (no passkey, no `had_passkey`).
    private static let insertEvent: StaticString = """
        INSERT INTO account_events
            (id, account_id, kind, occurred_at, client_address, user_agent, method, session_id)
        """
}
