package import PasskeyApplication
package import PasskeyLibpq

/// Sweeping expired rows (ceremonies, sessions, used or expired recovery codes, old rate-limit
/// rows, sent and abandoned mails, (v3) activity past its retention, (v4) the event log and the
/// webhooks' deliveries past theirs, removed endpoints), and the readiness check.
package struct PostgresMaintenanceRepository: MaintenanceRepository {
    let pool: PostgresConnectionPool
    let migrations: MigrationRunner
    /// Password failures (and sign-up buckets) older than this no longer count (`RATE_LIMIT_WINDOW_SECONDS`).
    let passwordFailureWindow: Int
    /// (v3) Events older than this many days are deleted (`ACCOUNT_EVENT_RETENTION_DAYS`).
    let eventRetentionDays: Int
    /// (v4) The event log's payloads older than this many days are deleted
    /// (`WEBHOOK_EVENT_RETENTION_DAYS`).
    let webhookEventRetentionDays: Int

    package init(
        pool: PostgresConnectionPool, migrations: MigrationRunner, passwordFailureWindow: Int = 900,
        eventRetentionDays: Int = 400, webhookEventRetentionDays: Int = 30
    ) {
        self.pool = pool
        self.migrations = migrations
        self.passwordFailureWindow = max(1, passwordFailureWindow)
        self.eventRetentionDays = max(1, eventRetentionDays)
        self.webhookEventRetentionDays = max(1, webhookEventRetentionDays)
    }

    package func sweepExpired(batchSize: Int) async throws(RepositoryError) -> Int {
        let batch = max(1, batchSize)
        var total = 0
        // Each batch is its own short statement (and connection use), so the sweeper never
        // holds locks for long nor starves requests of connections.
        let (window, days, logDays) = (passwordFailureWindow, eventRetentionDays, webhookEventRetentionDays)
        let statements =
            Self.statements.map { statement in { @Sendable n in statement(n, window) } } + [
                { @Sendable n in Self.expiredEvents(batch: n, retentionDays: days) },
                { @Sendable n in Self.expiredLoggedEvents(batch: n, retentionDays: logDays) },
            ] + Self.webhookStatements.map { statement in { @Sendable n in statement(n, logDays) } }
        for statement in statements {
            while true {
                let deleted = try await pool.run { connection async throws(PostgresError) in
                    try await connection.query(statement(batch)).affectedRows
                }
                total += deleted
                if deleted < batch { break }
            }
        }
        return total
    }

    private static let statements: [@Sendable (_ batch: Int, _ window: Int) -> PostgresQuery] = [
        { n, _ in
            """
            DELETE FROM passkey_registration_challenges WHERE id IN (
                SELECT id FROM passkey_registration_challenges WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n, _ in
            """
            DELETE FROM passkey_authentication_challenges WHERE id IN (
                SELECT id FROM passkey_authentication_challenges WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n, _ in
            """
            DELETE FROM passkey_account_registrations WHERE id IN (
                SELECT id FROM passkey_account_registrations WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n, _ in
            """
            DELETE FROM authentication_sessions WHERE id IN (
                SELECT id FROM authentication_sessions WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n, _ in
            // Used codes, and operator codes past their 24 hours.
            """
            DELETE FROM recovery_codes WHERE id IN (
                SELECT id FROM recovery_codes WHERE used_at IS NOT NULL LIMIT \(n))
            """
        },
        { n, _ in
            """
            DELETE FROM recovery_codes WHERE id IN (
                SELECT id FROM recovery_codes WHERE expires_at <= now() LIMIT \(n))
            """
        },
        { n, window in
            // Start buckets are a minute wide, sign-up buckets `RATE_LIMIT_WINDOW_SECONDS`: a
            // bucket is still read while it is the previous one, so keep two widths.
            """
            DELETE FROM rate_limit_windows WHERE (key, window_start) IN (
                SELECT key, window_start FROM rate_limit_windows
                WHERE window_start < now() - make_interval(secs => \(2 * max(60, window))) LIMIT \(n))
            """
        },
        // (v3) Sent and abandoned mails: their bodies are gone already; the rows only served
        // the metrics and an operator's look (docs/mail.md).
        { n, _ in
            """
            DELETE FROM mail_outbox WHERE id IN (
                SELECT id FROM mail_outbox WHERE sent_at IS NOT NULL OR abandoned_at IS NOT NULL LIMIT \(n))
            """
        },
        { n, window in
            """
            DELETE FROM password_failures WHERE id IN (
                SELECT id FROM password_failures WHERE failed_at < now() - make_interval(secs => \(window)) LIMIT \(n))
            """
        },
    ]

    /// (v3) Activity past its retention (found through `account_events_occurred_at_idx`).
    static func expiredEvents(batch n: Int, retentionDays days: Int) -> PostgresQuery {
        """
        DELETE FROM account_events WHERE id IN (
            SELECT id FROM account_events WHERE occurred_at < now() - make_interval(days => \(days)) LIMIT \(n))
        """
    }

    /// (v4) The event log past its retention, from its start in log order (its one index, the
    /// primary key): the sweep stops at the first event still kept, so one that is out of time
    /// order waits for the ones before it (the log is kept at least that long, never shorter).
    static func expiredLoggedEvents(batch n: Int, retentionDays days: Int) -> PostgresQuery {
        """
        DELETE FROM webhook_events WHERE (written_by, position) IN (
            SELECT written_by, position FROM webhook_events ORDER BY written_by, position LIMIT \(n))
          AND occurred_at < now() - make_interval(days => \(days))
        """
    }

    /// (v4) The webhooks' rows: a pending delivery past the retention is abandoned (its payload
    /// goes with the log), an abandoned one is deleted a retention later; the deliveries of
    /// removed endpoints go, then the endpoints themselves once nothing refers to them.
    private static let webhookStatements: [@Sendable (_ batch: Int, _ days: Int) -> PostgresQuery] = [
        { n, days in
            """
            UPDATE webhook_deliveries SET abandoned_at = now(), leased_until = NULL,
                last_error = 'its payload was deleted after WEBHOOK_EVENT_RETENTION_DAYS'
            WHERE (webhook_id, written_by, position) IN (
                SELECT webhook_id, written_by, position FROM webhook_deliveries
                WHERE abandoned_at IS NULL AND created_at < now() - make_interval(days => \(days)) LIMIT \(n))
            """
        },
        { n, days in
            """
            DELETE FROM webhook_deliveries WHERE (webhook_id, written_by, position) IN (
                SELECT webhook_id, written_by, position FROM webhook_deliveries
                WHERE abandoned_at < now() - make_interval(days => \(days)) LIMIT \(n))
            """
        },
        { n, _ in
            """
            DELETE FROM webhook_deliveries WHERE (webhook_id, written_by, position) IN (
                SELECT d.webhook_id, d.written_by, d.position FROM webhook_deliveries d
                WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.removed_at IS NULL)
                LIMIT \(n))
            """
        },
        { n, _ in
            // An hour after the removal: a change that read the endpoint before it was removed
            // has committed its delivery by then, and the statement above takes it.
            """
            DELETE FROM webhooks WHERE id IN (
                SELECT id FROM webhooks w WHERE removed_at < now() - interval '1 hour'
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id) LIMIT \(n))
            """
        },
    ]

    package func isReady() async -> Bool {
        await migrations.isCurrent(pool: pool)
    }
}
