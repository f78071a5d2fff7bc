package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// The adoption figures' queries (spec v3, "Adoption, for operators"; docs/adoption.md has their
/// plans at a million accounts and ten million events). Each is one statement; the window's
/// bounds are UTC midnights, so a day is `[start, next start)` whatever the session's time zone.
package struct PostgresAdoptionRepository: AdoptionRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func accountStages() async throws(RepositoryError) -> AccountStages {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT count(*) AS total,
                       count(*) FILTER (WHERE has_password AND NOT has_passkey) AS password_only,
                       count(*) FILTER (WHERE has_password AND has_passkey) AS password_and_passkey,
                       count(*) FILTER (WHERE has_passkey AND NOT has_password) AS passkey_only,
                       (SELECT count(*) FROM account_emails WHERE verified_at IS NOT NULL) AS email_verified
                FROM (SELECT p.account_id IS NOT NULL AS has_password, k.account_id IS NOT NULL AS has_passkey
                      FROM accounts a
                      LEFT JOIN password_credentials p ON p.account_id = a.id
                      LEFT JOIN (SELECT DISTINCT account_id FROM passkey_credentials) k ON k.account_id = a.id) s
                """)
            guard let row = result.first else { throw PostgresError(kind: .decoding, diagnostic: "no row") }
            return AccountStages(
                total: try row.decode(column: "total"), passwordOnly: try row.decode(column: "password_only"),
                passwordAndPasskey: try row.decode(column: "password_and_passkey"),
                passkeyOnly: try row.decode(column: "passkey_only"),
                emailVerified: try row.decode(column: "email_verified"))
        }
    }

    package func dailyCounts(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> [AdoptionEventCount] {
        let (start, end) = (days.lowerBound.start, days.upperBound.adding(days: 1).start)
        return try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT (occurred_at AT TIME ZONE 'UTC')::date - DATE '1970-01-01' AS day, kind, method,
                       count(*) AS n
                FROM account_events
                WHERE occurred_at >= \(start) AND occurred_at < \(end)
                  AND kind IN ('sign-in', 'passkey.added', 'account.created', 'password.removed')
                GROUP BY 1, 2, 3
                """)
            var counts: [AdoptionEventCount] = []
            for row in result.rows {
                guard let kind = AccountActivity.Kind(rawValue: try row.decode(column: "kind")) else { continue }
                counts.append(
                    AdoptionEventCount(
                        day: UTCDay(daysSince1970: try row.decode(column: "day")), kind: kind,
                        method: try row.decode(String?.self, column: "method"), count: try row.decode(column: "n")))
            }
            return counts
        }
    }

    package func upgrade(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> AdoptionFigures.Upgrade {
        let (start, end) = (days.lowerBound.start, days.upperBound.adding(days: 1).start)
        return try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT count(*) AS password_sign_ins,
                       count(*) FILTER (WHERE EXISTS (
                           SELECT 1 FROM account_events added
                           WHERE added.session_id = s.session_id AND added.kind = 'passkey.added')) AS followed
                FROM account_events s
                WHERE s.kind = 'sign-in' AND s.method = 'password' AND NOT s.had_passkey
                  AND s.occurred_at >= \(start) AND s.occurred_at < \(end)
                """)
            guard let row = result.first else { throw PostgresError(kind: .decoding, diagnostic: "no row") }
            return AdoptionFigures.Upgrade(
                passwordSignIns: try row.decode(column: "password_sign_ins"),
                followedByPasskey: try row.decode(column: "followed"))
        }
    }
}
