package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Adding a passkey to an existing account, in PostgreSQL: its challenge, consumed by one atomic
/// `UPDATE … WHERE consumed_at IS NULL AND expires_at > \(now) …` of its own account, and the
/// insert of the verified credential within the account's passkey limit.
///
/// Issuing a challenge commits asynchronously (`synchronous_commit = off` for that one
/// statement's transaction), as a sign-in challenge does (`PostgresPasskeyAuthenticationRepository`);
/// consuming it and inserting the credential stay durable.
package struct PostgresPasskeyRegistrationRepository: PasskeyRegistrationRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func saveRegistrationChallenge(_ c: PasskeyRegistrationChallenge) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
                INSERT INTO passkey_registration_challenges (id, account_id, challenge, mode, expires_at, consumed_at)
                SELECT \(c.id.uuid), \(c.accountID.uuid), \(bytes: c.challenge.bytes), \(c.mode.rawValue),
                       \(c.expiresAt), \(c.consumedAt)
                FROM relaxed
                """)
        }
    }

    package func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?
    {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                UPDATE passkey_registration_challenges SET consumed_at = \(now)
                WHERE id = \(id.uuid) AND account_id = \(accountID.uuid)
                  AND consumed_at IS NULL AND expires_at > \(now)
                RETURNING challenge, mode, expires_at, consumed_at
                """)
            guard let row = result.first else { return nil }
            guard let mode = RegistrationMode(rawValue: try row.decode(column: "mode")) else {
                throw PostgresError(kind: .decoding, diagnostic: "unknown registration mode")
            }
            return PasskeyRegistrationChallenge(
                id: id, accountID: accountID, challenge: Challenge(bytes: try row.decode(column: "challenge")),
                mode: mode, expiresAt: try row.decode(column: "expires_at"),
                consumedAt: try row.decode(column: "consumed_at"))
        }
    }

    /// One transaction: the account's row is locked (`FOR NO KEY UPDATE`, which concurrent
    /// additions to the same account wait for but sign-ins and session inserts, whose foreign
    /// keys take `KEY SHARE`, do not), then its passkeys are counted, in a statement whose
    /// snapshot is taken after the lock and so sees every addition committed before, then the
    /// insert. N concurrent finishes on an account one short of the limit thus add exactly one.
    @discardableResult
    package func addCredential(_ credential: PasskeyCredential, limit: Int, notice: PendingNotice?, event: AccountEvent)
        async throws(RepositoryError) -> CredentialAddition
    {
        try await pool.runTransaction { connection async throws(PostgresError) in
            try await connection.query(
                "SELECT id FROM accounts WHERE id = \(credential.accountID.uuid) FOR NO KEY UPDATE")
            let counted = try await connection.query(
                "SELECT count(*) AS passkeys FROM passkey_credentials WHERE account_id = \(credential.accountID.uuid)")
            let held: Int64 = try counted.first?.decode(column: "passkeys") ?? 0
            guard held < Int64(limit) else { return .limitReached }
            try await PasskeyCredentialRow.insert(credential, on: connection)
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(
                    accountID: credential.accountID, on: connection, compose: notice.mail)
            }
            try await PostgresAccountEvents.insert(event, on: connection)
            return .added
        }
    }
}
