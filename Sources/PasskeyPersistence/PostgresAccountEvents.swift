package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Writes activity-log entries into `account_events` inside the caller's transaction, so that a
/// change and its event commit together or not at all (spec v3, "Account activity"). Where the
/// change is one statement (a passkey sign-in, a password sign-in's session, a sign-up), the
/// event is a data-modifying CTE of that statement instead, with the same columns.
package enum PostgresAccountEvents {
    /// Inserts `event`. For a password sign-in, `had_passkey` is read in the same statement: whether
    /// the account holds a passkey at that moment (what the upgrade rate counts by).
    package static func insert(_ event: AccountEvent, on connection: PostgresConnection) async throws(PostgresError) {
        let isPasswordSignIn = event.activity == .signIn(.password, credentialID: nil)
        try await connection.query(
            """
            INSERT INTO account_events
                (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id,
                 had_passkey)
            SELECT \(event.id.uuid), \(event.accountID.uuid), \(event.kind.rawValue), \(event.occurredAt),
                   \(event.clientAddress), \(event.userAgent), \(event.activity.method),
                   \(event.activity.credentialID.map { PostgresBytes($0.bytes) }), \(event.sessionID?.uuid),
                   CASE WHEN \(isPasswordSignIn)
                        THEN EXISTS (SELECT 1 FROM passkey_credentials WHERE account_id = \(event.accountID.uuid))
                   END
            """)
    }

    /// Inserts every event of `events`, in order.
    package static func insert(_ events: [AccountEvent], on connection: PostgresConnection)
        async throws(PostgresError)
    {
        for event in events { try await insert(event, on: connection) }
    }

    /// Inserts `pending` for the account whose address is `normalizedEmail`, in one statement that
    /// finds the account itself; an unknown address inserts nothing (and takes the same statement,
    /// so its time tells nothing). Used for failed sign-ins, which are recorded for existing
    /// accounts only. Returns whether a row was written.
    @discardableResult
    package static func insert(
        _ pending: PendingAccountEvent, forNormalizedEmail normalizedEmail: String, on connection: PostgresConnection
    ) async throws(PostgresError) -> Bool {
        let isPasswordSignIn = pending.activity == .signIn(.password, credentialID: nil)
        let event = pending.event(accountID: AccountID())  // for its cut columns; the account is read below
        return try await connection.query(
            """
            INSERT INTO account_events
                (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id,
                 had_passkey)
            SELECT \(event.id.uuid), e.account_id, \(event.kind.rawValue), \(event.occurredAt),
                   \(event.clientAddress), \(event.userAgent), \(event.activity.method),
                   \(event.activity.credentialID.map { PostgresBytes($0.bytes) }), \(event.sessionID?.uuid),
                   CASE WHEN \(isPasswordSignIn)
                        THEN EXISTS (SELECT 1 FROM passkey_credentials p WHERE p.account_id = e.account_id)
                   END
            FROM account_emails e WHERE e.normalized_email = \(normalizedEmail)
            """
        ).affectedRows == 1
    }
}
