internal import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Reads the activity log from `account_events` (the rows are written by `AccountEventStatement`,
/// in the transactions of the changes).
package struct PostgresAccountEventRepository: AccountEventRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    /// One scan of `account_events_account_idx` (account_id, occurred_at DESC, id DESC): the
    /// keyset condition is the row comparison the index orders by, so a page costs `limit` index
    /// entries whatever its depth.
    package func events(accountID: AccountID, before: ActivityCursor?, limit: Int) async throws(RepositoryError)
        -> [AccountEvent]
    {
        let limit = max(1, limit)
        var before = before
        if let cursor = before {
            // A cursor no event can have (a client may send any 24 bytes): before the year 1
            // nothing is older, after 9999 everything is. Inside these bounds PostgreSQL reads
            // the time, outside them it may refuse it.
            if cursor.microsecondsSince1970 < Self.earliest { return [] }
            if cursor.microsecondsSince1970 > Self.latest { before = nil }
        }
        let query: PostgresQuery
        if let before {
            query = """
                SELECT \(unescaped: Self.columns) FROM account_events
                WHERE account_id = \(accountID.uuid)
                  AND (occurred_at, id) < (\(before.occurredAt)::timestamptz, \(before.eventID.uuid)::uuid)
                ORDER BY occurred_at DESC, id DESC
                LIMIT \(limit)
                """
        } else {
            query = """
                SELECT \(unescaped: Self.columns) FROM account_events
                WHERE account_id = \(accountID.uuid)
                ORDER BY occurred_at DESC, id DESC
                LIMIT \(limit)
                """
        }
        return try await pool.run { connection async throws(PostgresError) in
            try await connection.query(query).rows.map { row throws(PostgresError) in
                try Self.event(row, accountID: accountID)
            }
        }
    }

    /// 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z in microseconds since 1970 (a day inside
    /// the 4-digit years, so a `Date`'s rounding never takes the text past them).
    static let earliest: Int64 = -62_135_510_400_000_000
    static let latest: Int64 = 253_402_214_400_000_000

    static let columns: StaticString =
        "id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id, actor, reason"

    /// Rebuilds one row by its column names; a row this version would not have written (an
    /// unknown kind, a method or credential that does not fit it) is a decoding error.
    static func event(_ row: PostgresRow, accountID: AccountID) throws(PostgresError) -> AccountEvent {
        let kindText: String = try row.decode(column: "kind")
        guard let kind = AccountActivity.Kind(rawValue: kindText) else {
            throw PostgresError(kind: .decoding, column: "kind", diagnostic: "unknown event kind")
        }
        let credentialBytes = try row.decode([UInt8]?.self, column: "credential_id")
        let credentialID = credentialBytes.flatMap(CredentialID.init(bytes:))
        if credentialBytes != nil, credentialID == nil {
            throw PostgresError(kind: .decoding, column: "credential_id", diagnostic: "not a credential ID")
        }
        guard
            let activity = AccountActivity(
                kind: kind, method: try row.decode(String?.self, column: "method"), credentialID: credentialID,
                reason: try row.decode(String?.self, column: "reason"))
        else {
            throw PostgresError(
                kind: .decoding, column: "method", diagnostic: "method or credential does not fit \(kind.rawValue)")
        }
        return AccountEvent(
            id: AccountEventID(try row.decode(column: "id")), accountID: accountID, activity: activity,
            occurredAt: try row.decode(column: "occurred_at"),
            clientAddress: try row.decode(String?.self, column: "client_address"),
            userAgent: try row.decode(String?.self, column: "user_agent"),
            sessionID: try row.decode(UUID?.self, column: "session_id").map(SessionID.init),
            actor: try row.decode(String?.self, column: "actor").flatMap(SupportAgentName.init))
    }
}
