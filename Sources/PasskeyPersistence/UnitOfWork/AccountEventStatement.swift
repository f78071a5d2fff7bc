internal import PasskeyDomain
internal import PasskeyLibpq

/// The one place an account event is written: its `account_events` row (the activity log) and,
/// (v4) in the same statement, its `webhook_events` row (the webhooks' and the events API's log),
/// so the two commit together or not at all. `PostgresAccountEventWriter` runs it for an account
/// it names; the two sign-in hot paths (`PostgresPasskeyAuthenticationRepository
/// .recordAssertion`, `PostgresSessionRepository.createSession(_:event:whilePasswordHashIs:)`)
/// embed its CTEs in their one statement, with the account coming from the row that statement
/// wrote.
enum AccountEventStatement {
    /// Writes `event` for its own account: one statement.
    static func insert(_ event: AccountEvent) -> PostgresQuery {
        """
        WITH \(fragment: ctes(event, from: "(SELECT \(event.accountID.uuid)::uuid AS account_id)")) SELECT 1
        """
    }

    /// Three CTEs, `account_event`, `webhook_event` and `webhook_delivery`, that write `event` for the `account_id` of
    /// each row of `source` (a table expression: a CTE's name, or a subquery), and nothing when it
    /// has none. For a password sign-in, `had_passkey` (what the upgrade rate counts by) is read in
    /// the same statement: whether the account holds a passkey at that moment.
    static func ctes(_ event: AccountEvent, from source: PostgresQuery) -> PostgresQuery {
        let isPasswordSignIn = event.activity == .signIn(.password, credentialID: nil)
        let credentialID = event.activity.credentialID.map { PostgresBytes($0.bytes) }
        let stages = event.activity.stageChange
        // (v4) A webhook-only kind (account.deleted, stage.changed): the log's row alone.
        if event.kind.isWebhookOnly {
            return """
                webhook_event AS (
                    INSERT INTO webhook_events
                        (id, account_id, kind, occurred_at, client_address, user_agent, session_id, actor,
                         stage_from, stage_to)
                    SELECT \(event.id.uuid), src.account_id, \(event.kind.rawValue), \(event.occurredAt),
                           \(event.clientAddress), \(event.userAgent), \(event.sessionID?.uuid), \(event.actor?.value),
                           \(stages?.from.rawValue), \(stages?.to.rawValue)
                    FROM \(fragment: source) src
                    RETURNING written_by, position, account_id, kind
                ), \(fragment: deliveries)
                """
        }
        return """
            account_event AS (
                INSERT INTO account_events
                    (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id,
                     actor, reason, had_passkey)
                SELECT \(event.id.uuid), src.account_id, \(event.kind.rawValue), \(event.occurredAt),
                       \(event.clientAddress), \(event.userAgent), \(event.activity.method), \(credentialID),
                       \(event.sessionID?.uuid), \(event.actor?.value), \(event.activity.reason?.value),
                       CASE WHEN \(isPasswordSignIn)
                            THEN EXISTS (SELECT 1 FROM passkey_credentials p WHERE p.account_id = src.account_id)
                       END
                FROM \(fragment: source) src
            ), webhook_event AS (
                INSERT INTO webhook_events
                    (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id,
                     actor, reason)
                SELECT \(event.id.uuid), src.account_id, \(event.kind.rawValue), \(event.occurredAt),
                       \(event.clientAddress), \(event.userAgent), \(event.activity.method), \(credentialID),
                       \(event.sessionID?.uuid), \(event.actor?.value), \(event.activity.reason?.value)
                FROM \(fragment: source) src
                RETURNING written_by, position, account_id, kind
            ), \(fragment: deliveries)
            """
    }

    /// (v4) The CTE `webhook_delivery`: one delivery of each row of `webhook_event` (which must
    /// return `written_by, position, account_id, kind`) to every endpoint that is not removed and
    /// takes its kind, in the statement that writes the event: no event without its deliveries.
    static let deliveries: PostgresQuery = """
        webhook_delivery AS (
            INSERT INTO webhook_deliveries (webhook_id, written_by, position, account_id)
            SELECT w.id, e.written_by, e.position, e.account_id
            FROM webhook_event e
            JOIN webhooks w ON w.removed_at IS NULL AND (cardinality(w.events) = 0 OR e.kind = ANY (w.events))
        )
        """
}
