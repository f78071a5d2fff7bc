package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// `WebhookRepository` in SQL: `webhooks`, with the counts of `webhook_deliveries`. A removed
/// endpoint keeps its row (`removed_at`) until the sweep, so that a change writing a delivery
/// for it at that moment never fails (migration 0010).
package struct PostgresWebhookRepository: WebhookRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    /// Taken by every registration before it counts: one registration at a time, cluster-wide.
    package static let registrationLock: PostgresQuery =
        "SELECT pg_advisory_xact_lock(hashtextextended('webhooks-limit', 0))"

    package func add(_ webhook: Webhook, sealedSecret: [UInt8], limit: Int) async throws(RepositoryError) -> Bool {
        // The count and the insert run under one transaction-scoped advisory lock, so that
        // concurrent registrations (on any instance) see each other's rows and the limit holds
        // exactly; under READ COMMITTED alone each would count without the others.
        try await pool.runTransaction { connection async throws(PostgresError) in
            try await connection.query(Self.registrationLock)
            return try await connection.query(
                """
                INSERT INTO webhooks (id, url, events, description, secret, created_at)
                SELECT \(webhook.id.uuid), \(webhook.url.value),
                       string_to_array(\(webhook.events.joined(separator: ",")), ',')::text[],
                       \(webhook.description.value), \(bytes: sealedSecret), \(webhook.createdAt)
                WHERE (SELECT count(*) FROM webhooks WHERE removed_at IS NULL) < \(limit)
                """
            ).affectedRows == 1
        }
    }

    package func list() async throws(RepositoryError) -> [Webhook] {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                SELECT w.id, w.url, w.events, w.description, w.created_at, w.last_delivered_at,
                       count(d.webhook_id) FILTER (WHERE d.abandoned_at IS NULL)::bigint AS pending,
                       count(d.webhook_id) FILTER (WHERE d.abandoned_at IS NOT NULL)::bigint AS abandoned
                FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id
                WHERE w.removed_at IS NULL
                GROUP BY w.id
                ORDER BY w.created_at, w.id
                """
            ).rows.map { row throws(PostgresError) in try Self.webhook(row) }
        }
    }

    static func webhook(_ row: PostgresRow) throws(PostgresError) -> Webhook {
        let url: String = try row.decode(column: "url")
        let description: String = try row.decode(column: "description")
        guard let webhookURL = WebhookURL(url) else {
            throw PostgresError(kind: .decoding, column: "url", diagnostic: "not a webhook URL")
        }
        guard let text = WebhookDescription(description) else {
            throw PostgresError(kind: .decoding, column: "description", diagnostic: "not a webhook description")
        }
        return Webhook(
            id: WebhookID(try row.decode(column: "id")), url: webhookURL,
            events: try row.decode([String].self, column: "events"), description: text,
            createdAt: try row.decode(column: "created_at"), pending: try row.decode(column: "pending"),
            abandoned: try row.decode(column: "abandoned"),
            lastDeliveredAt: try row.decode(Date?.self, column: "last_delivered_at"))
    }

    /// One statement: the endpoint is marked removed and its pending deliveries deleted together.
    package func remove(_ id: WebhookID) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                WITH removed AS (
                    UPDATE webhooks SET removed_at = now() WHERE id = \(id.uuid) AND removed_at IS NULL RETURNING id
                ), deleted AS (
                    DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM removed)
                )
                SELECT count(*)::bigint AS removed FROM removed
                """
            ).first?.decode(Int.self, column: "removed") == 1
        }
    }

    package func replaceSecret(
        of id: WebhookID, with sealedSecret: [UInt8], previousUntil: Date
    ) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE webhooks SET previous_secret = secret, previous_secret_until = \(previousUntil),
                    secret = \(bytes: sealedSecret)
                WHERE id = \(id.uuid) AND removed_at IS NULL
                """
            ).affectedRows == 1
        }
    }

    package func sealedSecrets() async throws(RepositoryError) -> [(id: WebhookID, sealed: [UInt8])] {
        try await pool.run { connection async throws(PostgresError) in
            let rows = try await connection.query(
                """
                SELECT id, secret AS sealed FROM webhooks WHERE removed_at IS NULL
                UNION ALL
                SELECT id, previous_secret FROM webhooks
                WHERE removed_at IS NULL AND previous_secret IS NOT NULL AND previous_secret_until > now()
                """
            ).rows
            return try rows.map { row throws(PostgresError) in
                (WebhookID(try row.decode(column: "id")), try row.decode([UInt8].self, column: "sealed"))
            }
        }
    }
}
