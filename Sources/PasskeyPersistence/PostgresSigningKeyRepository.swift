package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// `SigningKeyRepository` in SQL: `signing_keys`.
package struct PostgresSigningKeyRepository: SigningKeyRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func keys(includingRevoked: Bool) async throws(RepositoryError) -> [SigningKey] {
        try await pool.run { connection async throws(PostgresError) in
            try SigningKeyRow.decode(
                try await connection.query(
                    """
                    SELECT \(unescaped: SigningKeyRow.columns) FROM signing_keys k
                    WHERE \(includingRevoked) OR k.revoked_at IS NULL
                    ORDER BY k.signs_from, k.id
                    """))
        }
    }
}
