internal import Foundation
package import PasskeyApplication
package import PasskeyLibpq

/// Rate-limit counters in PostgreSQL (database clock), shared by every instance. Each decision
/// is atomic in the database, so limits hold however many requests arrive at once.
package struct PostgresRateLimitRepository: RateLimitRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func countHit(key: String, limit: Int, windowSeconds: Int) async throws(RepositoryError)
        -> RateLimitDecision
    {
        try await pool.run { connection async throws(PostgresError) in
            // Sliding window over two fixed buckets: the previous bucket's count weighs by how
            // much of it still lies within the window. One upsert counts and reads; the row lock
            // of the upsert serialises concurrent hits on a key, so each sees its own count.
            let width = max(1, windowSeconds)
            let result = try await connection.query(
                """
                WITH cur AS (
                    INSERT INTO rate_limit_windows AS w (key, window_start, hits)
                    VALUES (\(key), to_timestamp(floor(extract(epoch FROM now()) / \(width)) * \(width)), 1)
                    ON CONFLICT (key, window_start) DO UPDATE SET hits = w.hits + 1
                    RETURNING hits, window_start
                )
                SELECT cur.hits AS current_hits, coalesce(prev.hits, 0) AS previous_hits,
                       extract(epoch FROM now() - cur.window_start)::float8 AS elapsed_seconds
                FROM cur LEFT JOIN rate_limit_windows prev
                  ON prev.key = \(key) AND prev.window_start = cur.window_start - make_interval(secs => \(width))
                """)
            guard let row = result.first else { return .allowed }
            let span = Double(width)
            let current = Double(try row.decode(Int.self, column: "current_hits"))
            let previous = Double(try row.decode(Int.self, column: "previous_hits"))
            let elapsed = min(span, max(0, try row.decode(Double.self, column: "elapsed_seconds")))
            let estimate = previous * (span - elapsed) / span + current
            guard estimate > Double(limit) else { return .allowed }
            return .limited(retryAfter: max(1, Int((span - elapsed).rounded(.up))))
        }
    }

    package func beginAttempt(
        normalizedEmail: String, clientAddress: String, limits: AttemptLimits, rightSecretPassesEmailLimit: Bool
    ) async throws(RepositoryError) -> AttemptDecision {
        // With the flag, a spent email budget no longer stops the count (the address's does).
        let emailLimit = rightSecretPassesEmailLimit ? Int.max : limits.perEmail
        let address = String(clientAddress.prefix(64))
        return try await pool.runTransaction { connection async throws(PostgresError) in
            // Serialise every attempt on this email and on this address (transaction-scoped
            // advisory locks, taken in key order so two attempts never wait on each other in a
            // cycle). The count below is a new statement, so its snapshot sees every attempt that
            // an earlier lock holder committed: the check and the insert cannot be overtaken.
            try await connection.query(
                """
                SELECT pg_advisory_xact_lock(k) FROM (
                    SELECT k FROM (VALUES (hashtextextended('attempt-email:' || \(normalizedEmail), 0)),
                                          (hashtextextended('attempt-address:' || \(address), 0))) AS v (k)
                    ORDER BY k OFFSET 0
                ) AS ordered
                """)
            let seconds = max(1, Int(limits.window.rounded(.up)))
            let result = try await connection.query(
                """
                WITH recent AS (
                    SELECT normalized_email, client_address, failed_at FROM password_failures
                    WHERE failed_at > now() - make_interval(secs => \(seconds))
                      AND (normalized_email = \(normalizedEmail) OR client_address = \(address))
                ), counts AS (
                    SELECT count(*) FILTER (WHERE normalized_email = \(normalizedEmail)) AS for_email,
                           count(*) FILTER (WHERE client_address = \(address)) AS for_address,
                           coalesce(ceil(extract(epoch FROM
                               (min(failed_at) + make_interval(secs => \(seconds)) - now())))::int, 0) AS retry
                    FROM recent
                ), counted AS (
                    INSERT INTO password_failures (normalized_email, client_address)
                    SELECT \(normalizedEmail), \(address) FROM counts
                    WHERE for_email < \(emailLimit) AND for_address < \(limits.perAddress)
                    RETURNING id
                )
                SELECT (SELECT id FROM counted) AS attempt_id, counts.retry,
                       counts.for_email < \(limits.perEmail) AS email_has_budget
                FROM counts
                """)
            guard let row = result.first else { throw PostgresError(kind: .decoding, diagnostic: "no attempt row") }
            let retryAfter = max(1, try row.decode(Int.self, column: "retry"))
            guard let attempt = try row.decode(Int64?.self, column: "attempt_id") else {
                return .limited(retryAfter: retryAfter)
            }
            guard try row.decode(Bool.self, column: "email_has_budget") else {
                return .emailLimited(AttemptID(attempt), retryAfter: retryAfter)
            }
            return .allowed(AttemptID(attempt))
        }
    }

    package func forgiveAttempt(_ attempt: AttemptID) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query("DELETE FROM password_failures WHERE id = \(attempt.value)")
        }
    }
}
