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
}
