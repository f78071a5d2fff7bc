package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// `WebhookDeliveryRepository` in SQL: `webhook_deliveries`, joined to the endpoint and the
/// event at claim time. Why the claim keeps each account's order: docs/webhooks.md, "Delivery".
package struct PostgresWebhookDeliveryRepository: WebhookDeliveryRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    /// How many due deliveries one claim looks at before it picks (oldest due first): bounds the
    /// claim's cost under a backlog.
    static let window = 200

    package func claimDue(
        limit: Int, perEndpoint: Int, lease: TimeInterval, excluding: Set<WebhookID>
    ) async throws(RepositoryError) -> [ClaimedWebhookDelivery] {
        guard limit > 0 else { return [] }
        let excluded = excluding.map(\.description).sorted().joined(separator: ",")
        let leaseMilliseconds = Int((lease * 1000).rounded(.up))
        return try await pool.run { connection async throws(PostgresError) in
            // One statement is one transaction: the rows are locked, leased and committed together.
            // A delivery is due only when no earlier one of its account to its endpoint is pending
            // (leased ones included: one in flight per account and endpoint) and its event's
            // transaction is older than every running one, so no earlier event can still appear.
            let result = try await connection.query(
                """
                WITH due AS (
                    SELECT d.webhook_id, d.written_by, d.position, d.next_attempt_at
                    FROM webhook_deliveries d
                    JOIN webhooks w ON w.id = d.webhook_id AND w.removed_at IS NULL
                    WHERE d.abandoned_at IS NULL AND d.next_attempt_at <= now()
                      AND (d.leased_until IS NULL OR d.leased_until <= now())
                      AND d.written_by < pg_snapshot_xmin(pg_current_snapshot())
                      AND d.webhook_id <> ALL (string_to_array(\(excluded), ',')::uuid[])
                      AND NOT EXISTS (
                          SELECT 1 FROM webhook_deliveries e
                          WHERE e.webhook_id = d.webhook_id AND e.account_id = d.account_id AND e.abandoned_at IS NULL
                            AND (e.written_by, e.position) < (d.written_by, d.position))
                    ORDER BY d.next_attempt_at
                    LIMIT \(Self.window)
                ), ranked AS (
                    SELECT webhook_id, written_by, position,
                           row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at) AS rank
                    FROM due
                ), picked AS (
                    SELECT d.webhook_id, d.written_by, d.position FROM webhook_deliveries d
                    WHERE (d.webhook_id, d.written_by, d.position) IN (
                            SELECT webhook_id, written_by, position FROM ranked WHERE rank <= \(perEndpoint))
                      AND d.abandoned_at IS NULL AND (d.leased_until IS NULL OR d.leased_until <= now())
                    ORDER BY d.next_attempt_at
                    LIMIT \(limit)
                    FOR UPDATE OF d SKIP LOCKED
                )
                UPDATE webhook_deliveries d
                SET leased_until = now() + make_interval(secs => \(leaseMilliseconds) / 1000.0)
                FROM picked p, webhooks w, webhook_events ev
                WHERE (d.webhook_id, d.written_by, d.position) = (p.webhook_id, p.written_by, p.position)
                  AND w.id = d.webhook_id AND (ev.written_by, ev.position) = (d.written_by, d.position)
                RETURNING d.webhook_id, d.attempts, w.url, w.secret,
                    CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END AS previous_secret,
                    ev.written_by::text AS written_by, ev.position, ev.id, ev.account_id, ev.kind, ev.occurred_at,
                    ev.client_address, ev.user_agent, ev.method, ev.credential_id, ev.session_id, ev.actor, ev.reason,
                    ev.stage_from, ev.stage_to
                """)
            return try result.rows.map { (row: PostgresRow) throws(PostgresError) -> ClaimedWebhookDelivery in
                let event = try PostgresEventLogRepository.event(row)
                let url: String = try row.decode(column: "url")
                guard let webhookURL = WebhookURL(url) else {
                    throw PostgresError(kind: .decoding, column: "url", diagnostic: "not a webhook URL")
                }
                var secrets = [try row.decode([UInt8].self, column: "secret")]
                if let previous = try row.decode([UInt8]?.self, column: "previous_secret") { secrets.append(previous) }
                return ClaimedWebhookDelivery(
                    key: WebhookDeliveryKey(
                        webhookID: WebhookID(try row.decode(column: "webhook_id")), event: event.cursor),
                    url: webhookURL, sealedSecrets: secrets, event: event, attempts: try row.decode(column: "attempts"))
            }
        }
    }

    /// The row's key, as SQL.
    private static func matches(_ key: WebhookDeliveryKey) -> PostgresQuery {
        """
        webhook_id = \(key.webhookID.uuid) AND written_by = \(String(key.event.transaction))::xid8
          AND position = \(key.event.position)
        """
    }

    package func markDelivered(_ key: WebhookDeliveryKey) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                WITH delivered AS (
                    DELETE FROM webhook_deliveries WHERE \(fragment: Self.matches(key)) RETURNING webhook_id
                )
                UPDATE webhooks SET last_delivered_at = now() WHERE id IN (SELECT webhook_id FROM delivered)
                """)
        }
    }

    static func cut(_ error: String) -> String {
        String(String.UnicodeScalarView(error.unicodeScalars.prefix(500)))
    }

    package func reschedule(
        _ key: WebhookDeliveryKey, attempts: Int, lastError: String, nextAttemptAt: Date
    ) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE webhook_deliveries SET attempts = \(attempts), last_error = \(Self.cut(lastError)),
                    next_attempt_at = \(nextAttemptAt), leased_until = NULL
                WHERE \(fragment: Self.matches(key)) AND abandoned_at IS NULL
                """)
        }
    }

    package func abandon(_ key: WebhookDeliveryKey, attempts: Int, lastError: String) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE webhook_deliveries SET abandoned_at = now(), attempts = \(attempts),
                    last_error = \(Self.cut(lastError)), leased_until = NULL
                WHERE \(fragment: Self.matches(key)) AND abandoned_at IS NULL
                """)
        }
    }

    package func oldestPendingAge() async throws(RepositoryError) -> TimeInterval? {
        try await pool.run { connection async throws(PostgresError) in
            let age: Double? = try await connection.query(
                """
                SELECT extract(epoch FROM now() - min(d.created_at))::float8 AS age
                FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.removed_at IS NULL
                WHERE d.abandoned_at IS NULL
                """
            ).first?.decode(column: "age")
            return age.map { max(0, $0) }
        }
    }
}
