package import Foundation
package import PasskeyApplication
package import PasskeyLibpq

/// Rate-limit counters in PostgreSQL (database clock), shared by every instance.
package struct PostgresRateLimitRepository: RateLimitRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func registerStart(clientAddress: String, limitPerMinute: Int) async throws(RepositoryError)
        -> RateLimitDecision
    {
        try await pool.run { connection throws(PostgresError) in
            // Sliding window over two one-minute buckets: the previous minute's count weighs by
            // how much of it still lies within the last 60 seconds. One upsert counts and reads.
            let key = "start:" + clientAddress
            let result = try connection.query(
                """
                WITH cur AS (
                    INSERT INTO rate_limit_windows AS w (key, window_start, hits)
                    VALUES (\(key), date_trunc('minute', now()), 1)
                    ON CONFLICT (key, window_start) DO UPDATE SET hits = w.hits + 1
                    RETURNING hits, window_start
                )
                SELECT cur.hits, coalesce(prev.hits, 0), extract(epoch FROM now() - cur.window_start)::float8
                FROM cur LEFT JOIN rate_limit_windows prev
                  ON prev.key = \(key) AND prev.window_start = cur.window_start - interval '1 minute'
                """)
            guard let row = result.first else { return .allowed }
            let current = Double(try row.int(0))
            let previous = Double(try row.int(1))
            let elapsed = min(60, max(0, Double(try row.string(2)) ?? 0))
            let estimate = previous * (60 - elapsed) / 60 + current
            guard estimate > Double(limitPerMinute) else { return .allowed }
            return .limited(retryAfter: max(1, Int((60 - elapsed).rounded(.up))))
        }
    }

    package func passwordFailures(normalizedEmail: String, clientAddress: String, window: TimeInterval)
        async throws(RepositoryError) -> PasswordFailureCounts
    {
        try await pool.run { connection throws(PostgresError) in
            let seconds = Int(window.rounded(.up))
            let result = try connection.query(
                """
                WITH recent AS (
                    SELECT normalized_email, client_address, failed_at FROM password_failures
                    WHERE failed_at > now() - make_interval(secs => \(seconds))
                      AND (normalized_email = \(normalizedEmail) OR client_address = \(clientAddress))
                )
                SELECT count(*) FILTER (WHERE normalized_email = \(normalizedEmail)),
                       count(*) FILTER (WHERE client_address = \(clientAddress)),
                       coalesce(ceil(extract(epoch FROM
                           (min(failed_at) + make_interval(secs => \(seconds)) - now())))::int, 0)
                FROM recent
                """)
            guard let row = result.first else {
                return PasswordFailureCounts(forEmail: 0, forAddress: 0, retryAfter: 0)
            }
            return PasswordFailureCounts(
                forEmail: try row.int(0), forAddress: try row.int(1), retryAfter: try row.int(2))
        }
    }

    package func recordPasswordFailure(normalizedEmail: String, clientAddress: String) async throws(RepositoryError) {
        try await pool.run { connection throws(PostgresError) in
            try connection.query(
                """
                INSERT INTO password_failures (normalized_email, client_address)
                VALUES (\(normalizedEmail), \(String(clientAddress.prefix(64))))
                """)
        }
    }
}
