internal import PasskeyDomain
internal import PasskeyLibpq

/// The one INSERT of the activity log (`account_events`). `PostgresAccountEventWriter` runs it for
/// an account it names; the two sign-in hot paths (`PostgresPasskeyAuthenticationRepository
/// .recordAssertion`, `PostgresSessionRepository.createSession(_:event:whilePasswordHashIs:)`) embed it as a CTE of
/// their one statement, with the account coming from the row that statement wrote.
enum AccountEventStatement {
    /// Inserts `event` for its own account.
    static func insert(_ event: AccountEvent) -> PostgresQuery {
        insert(event, from: "(SELECT \(event.accountID.uuid)::uuid AS account_id)")
    }

    /// Inserts `event` for the `account_id` of each row of `source` (a table expression: a CTE's
    /// name, or a subquery), and no row when it has none. For a password sign-in, `had_passkey`
    /// (what the upgrade rate counts by) is read in the same statement: whether the account holds
    /// a passkey at that moment.
    static func insert(_ event: AccountEvent, from source: PostgresQuery) -> PostgresQuery {
        let isPasswordSignIn = event.activity == .signIn(.password, credentialID: nil)
        return """
            INSERT INTO account_events
                (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id,
                 had_passkey)
            SELECT \(event.id.uuid), src.account_id, \(event.kind.rawValue), \(event.occurredAt),
                   \(event.clientAddress), \(event.userAgent), \(event.activity.method),
                   \(event.activity.credentialID.map { PostgresBytes($0.bytes) }), \(event.sessionID?.uuid),
                   CASE WHEN \(isPasswordSignIn)
                        THEN EXISTS (SELECT 1 FROM passkey_credentials p WHERE p.account_id = src.account_id)
                   END
            FROM \(fragment: source) src
            """
    }
}
