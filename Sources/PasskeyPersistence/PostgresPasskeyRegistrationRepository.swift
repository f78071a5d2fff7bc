package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Adding a passkey to an existing account, in PostgreSQL: its challenge, consumed by one atomic
/// `UPDATE … WHERE consumed_at IS NULL AND expires_at > \(now) …` of its own account.
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
}
