package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Registered passkeys in PostgreSQL.
package struct PostgresPasskeyCredentialRepository: PasskeyCredentialRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func credentials(accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential] {
        try await pool.run { connection async throws(PostgresError) in
            try await Self.credentials(accountID: accountID, on: connection)
        }
    }

    static func credentials(accountID: AccountID, on connection: PostgresConnection) async throws(PostgresError)
        -> [PasskeyCredential]
    {
        let result = try await connection.query(
            """
            SELECT \(unescaped: PasskeyCredentialRow.columns) FROM passkey_credentials pc
            WHERE pc.account_id = \(accountID.uuid) ORDER BY pc.created_at, pc.credential_id
            """)
        var credentials: [PasskeyCredential] = []
        for row in result.rows { credentials.append(try PasskeyCredentialRow.decode(row)) }
        return credentials
    }

    package func renameCredential(id: CredentialID, accountID: AccountID, to name: PasskeyName, event: AccountEvent)
        async throws(RepositoryError) -> PasskeyCredential?
    {
        try await pool.run { connection async throws(PostgresError) in
            // The event is a CTE of the renaming statement: it exists exactly when a row was renamed.
            let result = try await connection.query(
                """
                WITH pc AS (
                    UPDATE passkey_credentials pc SET name = \(name.value)
                    WHERE pc.credential_id = \(bytes: id.bytes) AND pc.account_id = \(accountID.uuid)
                    RETURNING pc.*
                ), e AS (
                    INSERT INTO account_events
                        (id, account_id, kind, occurred_at, client_address, user_agent, credential_id, session_id)
                    SELECT \(event.id.uuid), pc.account_id, \(event.kind.rawValue), \(event.occurredAt),
                           \(event.clientAddress), \(event.userAgent), pc.credential_id, \(event.sessionID?.uuid)
                    FROM pc
                )
                SELECT \(unescaped: PasskeyCredentialRow.columns) FROM pc
                """)
            return try result.first.map { row throws(PostgresError) in try PasskeyCredentialRow.decode(row) }
        }
    }

    package func deleteCredential(
        id: CredentialID, accountID: AccountID, keepingSession: SessionID, notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> PasskeyDeletionOutcome {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // Serialise with password removal and other deletions of this account's credentials.
            try await connection.query("SELECT 1 FROM accounts WHERE id = \(accountID.uuid) FOR UPDATE")
            let state = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM passkey_credentials
                               WHERE credential_id = \(bytes: id.bytes) AND account_id = \(accountID.uuid)) AS found,
                       (SELECT count(*) FROM passkey_credentials WHERE account_id = \(accountID.uuid)) AS credentials,
                       EXISTS (SELECT 1 FROM password_credentials WHERE account_id = \(accountID.uuid)) AS has_password
                """)
            guard let row = state.first, try row.decode(Bool.self, column: "found") else { return .notFound }
            if try row.decode(Int.self, column: "credentials") <= 1,
                !(try row.decode(Bool.self, column: "has_password"))
            {
                return .lastCredential
            }
            try await connection.query(
                "DELETE FROM passkey_credentials WHERE credential_id = \(bytes: id.bytes) AND account_id = \(accountID.uuid)"
            )
            // Whoever signed in with this passkey is signed out with it, except the caller.
            try await connection.query(
                """
                UPDATE authentication_sessions SET revoked_at = now()
                WHERE credential_id = \(bytes: id.bytes) AND account_id = \(accountID.uuid)
                  AND id <> \(keepingSession.uuid) AND revoked_at IS NULL
                """)
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: accountID, on: connection, compose: notice.mail)
            }
            try await PostgresAccountEvents.insert(event, on: connection)
            return .deleted
        }
    }
}
