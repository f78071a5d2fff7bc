import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import Testing

/// The rows of `account_events` as the end-to-end tests read them, with SQL (spec v3, "Account
/// activity"): every column the write side sets.
struct AccountEventRow: Sendable, Equatable, CustomStringConvertible {
    let kind: String
    let method: String?
    /// base64url, as the wire and `GET /v1/passkeys` spell it.
    let credentialID: String?
    /// Lowercase, as `GET /v1/account/sessions` spells it.
    let sessionID: String?
    let hadPasskey: Bool?
    let clientAddress: String
    let userAgent: String

    /// `kind(method)`, or `kind` for the kinds without one.
    var description: String { method.map { "\(kind)(\($0))" } ?? kind }
}

/// Reads a test database's activity log.
struct AccountEventLog {
    let pool: PostgresConnectionPool

    init(_ database: TestDatabase) { pool = database.makePool(maximumConnections: 1) }

    func close() { pool.close() }

    /// The account of `email` (lowercase normalised), for reading its events after it is gone.
    func accountID(of email: String) async throws -> UUID {
        try await pool.withConnection { c async throws(PostgresError) in
            try await c.query(
                "SELECT account_id FROM account_emails WHERE normalized_email = \(email.lowercased())"
            ).first!.decode(UUID.self, column: "account_id")
        }
    }

    /// The account's events, oldest first (same-instant events of one change in kind order).
    func events(of accountID: UUID) async throws -> [AccountEventRow] {
        try await pool.withConnection { c async throws(PostgresError) -> [AccountEventRow] in
            try await c.query(
                """
                SELECT kind, method, encode(credential_id, 'base64') AS credential_id, session_id::text AS session_id,
                       had_passkey, client_address, user_agent
                FROM account_events WHERE account_id = \(accountID)
                ORDER BY occurred_at, kind
                """
            ).rows.map { row throws(PostgresError) in
                AccountEventRow(
                    kind: try row.decode(column: "kind"), method: try row.decode(String?.self, column: "method"),
                    credentialID: try row.decode(String?.self, column: "credential_id").map(Self.base64URL),
                    sessionID: try row.decode(String?.self, column: "session_id"),
                    hadPasskey: try row.decode(Bool?.self, column: "had_passkey"),
                    clientAddress: try row.decode(column: "client_address"),
                    userAgent: try row.decode(column: "user_agent"))
            }
        }
    }

    /// How many rows the table holds, for "this wrote nothing".
    func count() async throws -> Int {
        try await pool.withConnection { c async throws(PostgresError) in
            try await c.query("SELECT count(*) FROM account_events").first!.decode(Int.self, column: "count")
        }
    }

    static func base64URL(_ base64: String) -> String {
        base64.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
