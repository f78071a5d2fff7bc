package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// A passkey sign-in's storage in PostgreSQL. The challenge is read first (with the credential
/// and its account, in `assertionContext`) and consumed after verification, in the one statement
/// that records the assertion (`recordAssertion`), so a finish commits once; a failed finish
/// consumes it with `consumeAuthenticationChallenge`.
///
/// Issuing a challenge commits asynchronously (`synchronous_commit = off` for that one
/// statement's transaction): a crash can lose only challenges issued in the last moments, whose
/// clients then get `challenge-unavailable` and start again; it saves a disk flush per start.
/// Consuming a challenge and everything a verified response writes stay durable: an answer
/// that depended on a consumption is sent only after that consumption's commit reached the disk.
package struct PostgresPasskeyAuthenticationRepository: PasskeyAuthenticationRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

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
                SELECT c.challenge, c.expires_at AS challenge_expires_at, c.consumed_at AS challenge_consumed_at,
                       \(unescaped: AccountRow.columns), a.locked_at IS NOT NULL AS account_locked,
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
            let challenge = try row.decode([UInt8]?.self, column: "challenge").map {
                bytes throws(PostgresError) in
                PasskeyAuthenticationChallenge(
                    id: id, challenge: Challenge(bytes: bytes),
                    expiresAt: try row.decode(column: "challenge_expires_at"),
                    consumedAt: try row.decode(column: "challenge_consumed_at"))
            }
            let account = try AccountRow.decodeIfPresent(row)
            let credential = try PasskeyCredentialRow.decodeIfPresent(row)
            return AssertionContext(
                challenge: challenge, credential: credential, account: account,
                accountLocked: try row.decode(Bool?.self, column: "account_locked") ?? false)
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

    package func recordAssertion(
        challengeID: ChallengeID, credentialID: CredentialID, expectedSignCount: UInt32, newSignCount: UInt32,
        backupState: Bool, usedAt: Date, session: AuthenticationSession, event: AccountEvent
    ) async throws(RepositoryError) -> AssertionRecording {
        try await pool.run { connection async throws(PostgresError) in
            // One statement, so one atomic step and one durable commit: the challenge is consumed
            // exactly once (of two concurrent finishes the second finds it consumed and writes
            // nothing); the counter moves only if the challenge was consumed here and only from
            // the value that was verified against (two assertions with the same counter cannot
            // both win); the session exists only if both did, and its `sign-in` event only with it
            // (a CTE of the same statement: no extra round trip). The counter keeps the maximum.
            let s = session
            let result = try await connection.query(
                """
                WITH c AS (
                    UPDATE passkey_authentication_challenges SET consumed_at = \(usedAt)
                    WHERE id = \(challengeID.uuid) AND consumed_at IS NULL AND expires_at > \(usedAt)
                    RETURNING id
                ), u AS (
                    UPDATE passkey_credentials
                    SET sign_count = GREATEST(sign_count, \(Int64(newSignCount))), backup_state = \(backupState),
                        last_used_at = \(usedAt)
                    WHERE credential_id = \(bytes: credentialID.bytes) AND sign_count = \(Int64(expectedSignCount))
                      AND EXISTS (SELECT 1 FROM c)
                    RETURNING account_id
                ), a AS (
                    SELECT a.id AS account_id FROM accounts a JOIN u ON u.account_id = a.id
                    WHERE a.locked_at IS NULL
                    FOR KEY SHARE OF a
                ), s AS (
                    INSERT INTO authentication_sessions
                        (id, account_id, token_digest, method, credential_id, created_at, expires_at, user_verified)
                    SELECT \(s.id.uuid), a.account_id, \(bytes: s.tokenDigest), \(s.method.rawValue),
                           \(bytes: credentialID.bytes), \(s.createdAt), \(s.expiresAt), \(s.userVerified)
                    FROM a
                    RETURNING id, account_id
                ), \(fragment: AccountEventStatement.ctes(event, from: "s"))
                SELECT EXISTS (SELECT 1 FROM c) AS consumed, EXISTS (SELECT 1 FROM u) AS counted,
                       EXISTS (SELECT 1 FROM s) AS recorded
                """)
            guard let row = result.first else {
                throw PostgresError(kind: .decoding, diagnostic: "recordAssertion returned no row")
            }
            guard try row.decode(Bool.self, column: "consumed") else { return .challengeUnavailable }
            if try row.decode(Bool.self, column: "recorded") { return .recorded }
            // (v4) The counter moved but the account's row, read `FOR KEY SHARE` after any lock
            // being written committed, is locked: no session (spec v4, "Support desk").
            return try row.decode(Bool.self, column: "counted") ? .accountLocked : .staleCounter
        }
    }
}
