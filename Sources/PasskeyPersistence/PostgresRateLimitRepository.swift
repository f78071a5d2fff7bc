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
            // Fixed one-minute window; one upsert counts and reads in one round trip.
            let result = try connection.query(
                """
                INSERT INTO rate_limit_windows AS w (key, window_start, hits)
                VALUES (\("start:" + clientAddress), date_trunc('minute', now()), 1)
                ON CONFLICT (key, window_start) DO UPDATE SET hits = w.hits + 1
                RETURNING hits, ceil(extract(epoch FROM (w.window_start + interval '1 minute' - now())))::int
                """)
            guard let row = result.first else { return .allowed }
            let hits = try row.int(0)
            return hits > limitPerMinute ? .limited(retryAfter: max(1, try row.int(1))) : .allowed
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
            guard let row = result.first else { return PasswordFailureCounts(forEmail: 0, forAddress: 0, retryAfter: 0) }
            return PasswordFailureCounts(forEmail: try row.int(0), forAddress: try row.int(1), retryAfter: try row.int(2))
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
