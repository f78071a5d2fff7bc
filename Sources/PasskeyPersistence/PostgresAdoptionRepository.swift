package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// The adoption figures' queries (spec v3, "Adoption, for operators"; docs/adoption.md has their
/// plans at a million accounts and ten million events). Each is one statement; the window's
/// bounds are UTC midnights, so a day is `[start, next start)` whatever the session's time zone.
package struct PostgresAdoptionRepository: AdoptionRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    /// Four counts over the credentials' own keys instead of one join of every account with
    /// both tables (which spills to disk at a million accounts): ② is the password holders that
    /// have a passkey, ① and ③ the rest of each side.
    package func accountStages() async throws(RepositoryError) -> AccountStages {
        try await pool.runTransaction { connection async throws(PostgresError) in
            try await Self.tune(connection)
            // ② as a merge join of the two tables' account indexes, already in order: at a
            // million accounts the planner's parallel hash took 2.5 times as long.
            try await connection.query("SET LOCAL enable_hashjoin = off")
            try await Self.serial(connection)
            let result = try await connection.query(
                """
                SELECT (SELECT count(*) FROM accounts) AS total,
                       (SELECT count(*) FROM password_credentials) AS with_password,
                       (SELECT count(DISTINCT account_id) FROM passkey_credentials) AS with_passkey,
                       (SELECT count(*) FROM password_credentials p
                        WHERE EXISTS (SELECT 1 FROM passkey_credentials k WHERE k.account_id = p.account_id)) AS password_and_passkey,
                       (SELECT count(*) FROM account_emails WHERE verified_at IS NOT NULL) AS email_verified
                """)
            guard let row = result.first else { throw PostgresError(kind: .decoding, diagnostic: "no row") }
            let (withPassword, withPasskey, both): (Int, Int, Int) = (
                try row.decode(column: "with_password"), try row.decode(column: "with_passkey"),
                try row.decode(column: "password_and_passkey")
            )
            return AccountStages(
                total: try row.decode(column: "total"), passwordOnly: withPassword - both, passwordAndPasskey: both,
                passkeyOnly: withPasskey - both, emailVerified: try row.decode(column: "email_verified"))
        }
    }

    /// Closed days (ended more than an hour ago, by the database's clock) come from
    /// `account_event_days`, which this fills from the events the first time a day is asked for;
    /// the open days are counted from the events each time (docs/adoption.md).
    package func dailyCounts(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> [AdoptionEventCount] {
        let (first, last) = (days.lowerBound.description, days.upperBound.description)
        let (start, end) = (days.lowerBound.start, days.upperBound.adding(days: 1).start)
        return try await pool.runTransaction { connection async throws(PostgresError) in
            try await Self.tune(connection)
            // The triggers of migration 0007 take this lock shared: a deletion or a late event
            // either commits before this reads the events or waits and adjusts what it wrote.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext('account_event_days'))")
            try await connection.query(
                """
                WITH missing AS (
                    SELECT d::date AS day
                    FROM generate_series(\(first)::date,
                                         least(\(last)::date, \(unescaped: Self.firstOpenDay) - 1),
                                         interval '1 day') d
                    WHERE NOT EXISTS (SELECT 1 FROM account_event_days_done done WHERE done.day = d::date)
                ), marked AS (
                    INSERT INTO account_event_days_done (day) SELECT day FROM missing
                    ON CONFLICT DO NOTHING RETURNING day
                )
                INSERT INTO account_event_days (day, kind, method, events)
                SELECT m.day, e.kind, coalesce(e.method, ''), count(*)
                FROM marked m
                JOIN account_events e
                  ON e.occurred_at >= m.day::timestamp AT TIME ZONE 'UTC'
                 AND e.occurred_at < (m.day + 1)::timestamp AT TIME ZONE 'UTC'
                WHERE e.kind IN (\(unescaped: Self.countedKinds))
                GROUP BY 1, 2, 3
                """)
            let result = try await connection.query(
                """
                SELECT day - DATE '1970-01-01' AS day, kind, nullif(method, '') AS method, events AS n
                FROM account_event_days
                WHERE day >= \(first)::date AND day <= \(last)::date AND day < \(unescaped: Self.firstOpenDay)
                UNION ALL
                SELECT (occurred_at AT TIME ZONE 'UTC')::date - DATE '1970-01-01', kind, method, count(*)
                FROM account_events
                WHERE occurred_at >= greatest(\(start), \(unescaped: Self.firstOpenDay)::timestamp AT TIME ZONE 'UTC')
                  AND occurred_at < \(end) AND kind IN (\(unescaped: Self.countedKinds))
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

    /// The first UTC day that is not closed: today, or yesterday during the first hour of today
    /// (an event of a closed day arriving late is added to its counts by the trigger of migration 0007).
    static let firstOpenDay: StaticString = "((now() - interval '1 hour') AT TIME ZONE 'UTC')::date"
    static let countedKinds: StaticString = "'sign-in', 'passkey.added', 'account.created', 'password.removed'"

    /// These statements read hundreds of thousands of rows: no JIT (its compile time is more than
    /// it saves here), and room for the hash of the passkeys' sessions.
    static func tune(_ connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query("SET LOCAL jit = off")
        try await connection.query("SET LOCAL work_mem = '64MB'")
    }

    /// One process for the stages and the upgrade: on two cores, parallel workers each built the
    /// same hash or scanned the same index again (docs/adoption.md), so they cost more than they gave.
    static func serial(_ connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query("SET LOCAL max_parallel_workers_per_gather = 0")
    }

    package func upgrade(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> AdoptionFigures.Upgrade {
        let (start, end) = (days.lowerBound.start, days.upperBound.adding(days: 1).start)
        return try await pool.runTransaction { connection async throws(PostgresError) in
            try await Self.tune(connection)
            try await Self.serial(connection)
            // A passkey added in a session is added after its sign-in, so only the passkeys
            // added since the window's start can follow one of its sign-ins: their sessions are
            // one hashed subplan (built once, no DISTINCT), probed by each sign-in.
            let result = try await connection.query(
                """
                SELECT count(*) AS password_sign_ins,
                       count(*) FILTER (WHERE s.session_id IN (
                           SELECT session_id FROM account_events
                           WHERE kind = 'passkey.added' AND session_id IS NOT NULL
                             AND occurred_at >= \(start))) AS followed
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
