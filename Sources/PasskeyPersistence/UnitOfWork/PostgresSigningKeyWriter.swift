internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `SigningKeyWriter` in SQL: `signing_keys`, changed under one advisory lock.
struct PostgresSigningKeyWriter: SigningKeyWriter {
    let transaction: PostgresTransaction

    func lockKeySet() async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended('signing-keys', 0))")
        }
    }

    func all() async throws(RepositoryError) -> [SigningKey] {
        try await transaction.run { connection async throws(PostgresError) in
            try SigningKeyRow.decode(
                try await connection.query("SELECT \(unescaped: SigningKeyRow.columns) FROM signing_keys k"))
        }
    }

    func insert(_ key: SigningKey) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO signing_keys (id, public_key, private_key, created_at, signs_from, retired_at, revoked_at)
                VALUES (\(key.id.value), jsonb_build_object('kty', 'EC', 'crv', 'P-256',
                            'x', \(Base64URL.encode(key.publicKey.x))::text, 'y', \(Base64URL.encode(key.publicKey.y))::text),
                        \(bytes: key.sealedPrivateKey), \(key.createdAt), \(key.signsFrom), \(key.retiredAt),
                        \(key.revokedAt))
                """)
        }
    }

    func retire(_ id: SigningKeyID, at date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                "UPDATE signing_keys SET retired_at = \(date) WHERE id = \(id.value) AND retired_at IS NULL")
        }
    }

    func revoke(_ id: SigningKeyID, at date: Date) async throws(RepositoryError) -> Bool {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                "UPDATE signing_keys SET revoked_at = \(date) WHERE id = \(id.value) AND revoked_at IS NULL"
            ).affectedRows == 1
        }
    }
}

/// A `signing_keys` row, by column name.
enum SigningKeyRow {
    static let columns: StaticString = """
        k.id, k.public_key->>'x' AS x, k.public_key->>'y' AS y, k.private_key, k.created_at, k.signs_from,
        k.retired_at, k.revoked_at
        """

    static func decode(_ result: PostgresResult) throws(PostgresError) -> [SigningKey] {
        try result.rows.map { (row: PostgresRow) throws(PostgresError) -> SigningKey in
            guard let id = SigningKeyID(try row.decode(column: "id")),
                let x = Base64URL.decode(try row.decode(column: "x")), x.count == 32,
                let y = Base64URL.decode(try row.decode(column: "y")), y.count == 32
            else { throw PostgresError(kind: .decoding, column: "public_key", diagnostic: "not a P-256 JWK") }
            return SigningKey(
                id: id, publicKey: ECPublicKeyCoordinates(x: x, y: y),
                sealedPrivateKey: try row.decode(column: "private_key"),
                createdAt: try row.decode(column: "created_at"),
                signsFrom: try row.decode(column: "signs_from"), retiredAt: try row.decode(column: "retired_at"),
                revokedAt: try row.decode(column: "revoked_at"))
        }
    }
}
