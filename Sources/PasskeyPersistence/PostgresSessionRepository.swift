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

    package func createSession(
        _ s: AuthenticationSession, event: AccountEvent, whilePasswordHashIs passwordHash: String
    ) async throws(RepositoryError) -> PasswordSessionCreation {
        try await pool.run { connection async throws(PostgresError) in
            // One statement, one commit: the session and its sign-in event exist together or not
            // at all (the sign-in's hot path; docs/architecture.md, "The unit of work"), and only
            // while the password that verified is still the account's. `FOR SHARE` makes a change
            // of the password that is under way wait for this statement's commit or this
            // statement wait for the change's: the take-back and `PUT /v1/account/password` then
            // revoke this session in their next statement, or this finds no password and writes
            // nothing (security round 4, finding 1). (v4) The account's row, `FOR KEY SHARE`, the
            // same way against a lock by the support desk (`FOR UPDATE`): a lock that committed
            // first is seen (no session), one that comes after ends this session.
            let row = try await connection.query(
                """
                WITH p AS (
                    SELECT account_id FROM password_credentials
                    WHERE account_id = \(s.accountID.uuid) AND password_hash = \(passwordHash)
                    FOR SHARE
                ), a AS (
                    SELECT a.id AS account_id, a.locked_at IS NOT NULL AS locked
                    FROM accounts a JOIN p ON p.account_id = a.id
                    FOR KEY SHARE OF a
                ), s AS (
                    INSERT INTO authentication_sessions
                        (id, account_id, token_digest, method, credential_id, created_at, expires_at, revoked_at,
                         user_verified)
                    SELECT \(s.id.uuid), a.account_id, \(bytes: s.tokenDigest), \(s.method.rawValue),
                           \(s.credentialID.map { PostgresBytes($0.bytes) }), \(s.createdAt), \(s.expiresAt),
                           \(s.revokedAt), \(s.userVerified)
                    FROM a WHERE NOT a.locked
                    RETURNING account_id
                ), \(fragment: AccountEventStatement.ctes(event, from: "s"))
                SELECT EXISTS (SELECT 1 FROM s) AS created, EXISTS (SELECT 1 FROM a WHERE a.locked) AS locked
                """
            ).first
            guard let row else { return .passwordChanged }
            if try row.decode(Bool.self, column: "created") { return .created }
            return try row.decode(Bool.self, column: "locked") ? .accountLocked : .passwordChanged
        }
    }

    static func insert(_ s: AuthenticationSession, on connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query(
            """
            INSERT INTO authentication_sessions
                (id, account_id, token_digest, method, credential_id, created_at, expires_at, revoked_at,
                 user_verified)
            VALUES (\(s.id.uuid), \(s.accountID.uuid), \(bytes: s.tokenDigest), \(s.method.rawValue),
                    \(s.credentialID.map { PostgresBytes($0.bytes) }), \(s.createdAt), \(s.expiresAt), \(s.revokedAt),
                    \(s.userVerified))
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
}
