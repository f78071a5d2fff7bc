package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// Registration and authentication challenges in PostgreSQL, each consumed by one atomic
/// `UPDATE … WHERE consumed_at IS NULL AND expires_at > \(now) …`. A passkey sign-in reads its
/// challenge first and consumes it after verification, in the statement that records the
/// assertion (`PostgresSessionRepository.recordAssertion`), so a finish commits once.
///
/// Issuing a challenge commits asynchronously (`synchronous_commit = off` for that one
/// statement's transaction): a crash can lose only challenges issued in the last moments, whose
/// clients then get `challenge-unavailable` and start again; it saves a disk flush per start.
/// Consuming a challenge and everything a verified response writes stay durable: an answer
/// that depended on a consumption is sent only after that consumption's commit reached the disk.
package struct PostgresChallengeRepository: ChallengeRepository {
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
            guard let mode = RegistrationMode(rawValue: try row.string(1)) else {
                throw PostgresError(kind: .decoding, diagnostic: "unknown registration mode")
            }
            return PasskeyRegistrationChallenge(
                id: id, accountID: accountID, challenge: Challenge(bytes: try row.bytes(0)), mode: mode,
                expiresAt: try row.date(2), consumedAt: try row.optionalDate(3))
        }
    }

    package func saveAuthenticationChallenge(_ c: PasskeyAuthenticationChallenge) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
                INSERT INTO passkey_authentication_challenges (id, challenge, expires_at, consumed_at)
                SELECT \(c.id.uuid), \(bytes: c.challenge.bytes), \(c.expiresAt), \(c.consumedAt) FROM relaxed
                """)
        }
    }

    package func assertionContext(challengeID id: ChallengeID, credentialID: CredentialID, now: Date)
        async throws(RepositoryError) -> AssertionContext
    {
        try await pool.run { connection async throws(PostgresError) in
            // One round trip, no write (so no commit to wait for): the usable challenge, the
            // credential and its account. The consuming UPDATE comes after verification.
            let result = try await connection.query(
                """
                SELECT c.challenge, c.expires_at, c.consumed_at, a.id, a.display_name, a.created_at,
                       \(unescaped: PasskeyCredentialRow.columns)
                FROM (SELECT 1) AS one
                LEFT JOIN passkey_authentication_challenges c
                       ON c.id = \(id.uuid) AND c.consumed_at IS NULL AND c.expires_at > \(now)
                LEFT JOIN passkey_credentials pc ON pc.credential_id = \(bytes: credentialID.bytes)
                LEFT JOIN accounts a ON a.id = pc.account_id
                """)
            guard let row = result.first else {
                throw PostgresError(kind: .decoding, diagnostic: "assertion context returned no row")
            }
            let challenge =
                row.isNull(0)
                ? nil
                : PasskeyAuthenticationChallenge(
                    id: id, challenge: Challenge(bytes: try row.bytes(0)), expiresAt: try row.date(1),
                    consumedAt: try row.optionalDate(2))
            let account = row.isNull(3) ? nil : try AccountRow.decode(row, offset: 3)
            let credential = row.isNull(6) ? nil : try PasskeyCredentialRow.decode(row, offset: 6)
            return AssertionContext(challenge: challenge, credential: credential, account: account)
        }
    }

    @discardableResult
    package func consumeAuthenticationChallenge(id: ChallengeID, now: Date) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE passkey_authentication_challenges SET consumed_at = \(now)
                WHERE id = \(id.uuid) AND consumed_at IS NULL
                """
            ).affectedRows == 1
        }
    }
}
