internal import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// `OperatorRepository` in SQL: `operators` (migration 0011), looked up by the token's digest
/// through its unique index.
package struct PostgresOperatorRepository: OperatorRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func add(_ operator: Operator, tokenDigest: [UInt8]) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO operators (name, role, token_digest, created_at)
                VALUES (\(`operator`.name.value), \(`operator`.role.rawValue), \(bytes: tokenDigest),
                        \(`operator`.createdAt ?? Date()))
                ON CONFLICT (name) DO NOTHING
                """
            ).affectedRows == 1
        }
    }

    package func list() async throws(RepositoryError) -> [Operator] {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query("SELECT name, role, created_at FROM operators ORDER BY name").rows.map {
                row throws(PostgresError) in try Self.operator(row)
            }
        }
    }

    package func remove(named name: SupportAgentName) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query("DELETE FROM operators WHERE name = \(name.value)").affectedRows == 1
        }
    }

    package func find(tokenDigest: [UInt8]) async throws(RepositoryError) -> Operator? {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                "SELECT name, role, created_at FROM operators WHERE token_digest = \(bytes: tokenDigest)"
            ).first.map { row throws(PostgresError) in try Self.operator(row) }
        }
    }

    package func anyExists() async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query("SELECT EXISTS (SELECT 1 FROM operators) AS found").first?.decode(
                Bool.self, column: "found") ?? false
        }
    }

    static func `operator`(_ row: PostgresRow) throws(PostgresError) -> Operator {
        guard let name = SupportAgentName(try row.decode(String.self, column: "name")) else {
            throw PostgresError(kind: .decoding, column: "name", diagnostic: "not an operator name")
        }
        guard let role = OperatorRole(rawValue: try row.decode(String.self, column: "role")) else {
            throw PostgresError(kind: .decoding, column: "role", diagnostic: "not a role")
        }
        return Operator(name: name, role: role, createdAt: try row.decode(Date.self, column: "created_at"))
    }
}
