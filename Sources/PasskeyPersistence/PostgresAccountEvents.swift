package import PasskeyDomain
package import PasskeyLibpq

/// Writes activity-log entries into `account_events` inside the caller's transaction, so that a
/// change and its event commit together or not at all (spec v3, "Account activity").
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
}
