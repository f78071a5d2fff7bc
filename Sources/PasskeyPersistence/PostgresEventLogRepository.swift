internal import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// `EventLogRepository` in SQL: `webhook_events`, in (`written_by`, `position`) order, only below
/// the oldest transaction still running (`pg_snapshot_xmin`). Why that never skips an event:
/// docs/webhooks.md, "The events API".
package struct PostgresEventLogRepository: EventLogRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    static let columns: StaticString = """
        written_by::text AS written_by, position, id, account_id, kind, occurred_at, client_address, user_agent,
        method, credential_id, session_id, actor, reason, stage_from, stage_to
        """

    /// One range scan of the primary key, (written_by, position).
    package func events(after cursor: EventLogCursor?, limit: Int) async throws(RepositoryError) -> [LoggedEvent] {
        let limit = max(1, limit)
        let query: PostgresQuery
        if let cursor {
            query = """
                SELECT \(unescaped: Self.columns) FROM webhook_events
                WHERE written_by < pg_snapshot_xmin(pg_current_snapshot())
                  AND (written_by, position) > (\(String(cursor.transaction))::xid8, \(cursor.position)::bigint)
                ORDER BY written_by, position
                LIMIT \(limit)
                """
        } else {
            query = """
                SELECT \(unescaped: Self.columns) FROM webhook_events
                WHERE written_by < pg_snapshot_xmin(pg_current_snapshot())
                ORDER BY written_by, position
                LIMIT \(limit)
                """
        }
        return try await pool.run { connection async throws(PostgresError) in
            try await connection.query(query).rows.map { row throws(PostgresError) in try Self.event(row) }
        }
    }

    static func event(_ row: PostgresRow) throws(PostgresError) -> LoggedEvent {
        guard let transaction = UInt64(try row.decode(String.self, column: "written_by")) else {
            throw PostgresError(kind: .decoding, column: "written_by", diagnostic: "not an xid8")
        }
        let credentialBytes = try row.decode([UInt8]?.self, column: "credential_id")
        let credentialID = credentialBytes.flatMap(CredentialID.init(bytes:))
        if credentialBytes != nil, credentialID == nil {
            throw PostgresError(kind: .decoding, column: "credential_id", diagnostic: "not a credential ID")
        }
        let from = try row.decode(String?.self, column: "stage_from")
        let to = try row.decode(String?.self, column: "stage_to")
        var stageChange: (from: MigrationStage, to: MigrationStage)?
        if from != nil || to != nil {
            guard let before = from.flatMap(MigrationStage.init(rawValue:)),
                let after = to.flatMap(MigrationStage.init(rawValue:))
            else { throw PostgresError(kind: .decoding, column: "stage_from", diagnostic: "unknown stage") }
            stageChange = (before, after)
        }
        return LoggedEvent(
            id: AccountEventID(try row.decode(column: "id")),
            accountID: AccountID(try row.decode(column: "account_id")),
            kind: try row.decode(column: "kind"), occurredAt: try row.decode(column: "occurred_at"),
            clientAddress: try row.decode(String?.self, column: "client_address"),
            userAgent: try row.decode(String?.self, column: "user_agent"),
            method: try row.decode(String?.self, column: "method"), credentialID: credentialID,
            sessionID: try row.decode(UUID?.self, column: "session_id").map(SessionID.init),
            actor: try row.decode(String?.self, column: "actor"),
            reason: try row.decode(String?.self, column: "reason"),
            stageChange: stageChange,
            cursor: EventLogCursor(transaction: transaction, position: try row.decode(column: "position")))
    }
}
