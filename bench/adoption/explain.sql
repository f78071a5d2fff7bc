-- The adoption figures' statements as PostgresAdoptionRepository sends them, with the window
-- [:'start', :'end') (and its first and last day, :'first' and :'last') bound as its parameters
-- are; run by bench/adoption/run.sh after the timed runs, so the closed days are counted already.
SET jit = off;
SET work_mem = '64MB';
\echo -- accountStages
SET enable_hashjoin = off;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (ANALYZE, BUFFERS)
SELECT (SELECT count(*) FROM accounts) AS total,
       (SELECT count(*) FROM password_credentials) AS with_password,
       (SELECT count(DISTINCT account_id) FROM passkey_credentials) AS with_passkey,
       (SELECT count(*) FROM password_credentials p
        WHERE EXISTS (SELECT 1 FROM passkey_credentials k WHERE k.account_id = p.account_id)) AS password_and_passkey,
       (SELECT count(*) FROM account_emails WHERE verified_at IS NOT NULL) AS email_verified;
RESET enable_hashjoin;
RESET max_parallel_workers_per_gather;
\echo -- dailyCounts (the closed days from account_event_days, the open ones from the events)
EXPLAIN (ANALYZE, BUFFERS)
SELECT day - DATE '1970-01-01' AS day, kind, nullif(method, '') AS method, events AS n
FROM account_event_days
WHERE day >= :'first'::date AND day <= :'last'::date AND day < ((now() - interval '1 hour') AT TIME ZONE 'UTC')::date
UNION ALL
SELECT (occurred_at AT TIME ZONE 'UTC')::date - DATE '1970-01-01', kind, method, count(*)
FROM account_events
WHERE occurred_at >= greatest(:'start'::timestamptz, ((now() - interval '1 hour') AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC')
  AND occurred_at < :'end' AND kind IN ('sign-in', 'passkey.added', 'account.created', 'password.removed')
GROUP BY 1, 2, 3;
\echo -- dailyCounts of every day from the events (what the first request of a window pays once)
EXPLAIN (ANALYZE, BUFFERS)
SELECT (occurred_at AT TIME ZONE 'UTC')::date - DATE '1970-01-01' AS day, kind, method, count(*) AS n
FROM account_events
WHERE occurred_at >= :'start' AND occurred_at < :'end'
  AND kind IN ('sign-in', 'passkey.added', 'account.created', 'password.removed')
GROUP BY 1, 2, 3;
\echo -- upgrade
SET max_parallel_workers_per_gather = 0;
EXPLAIN (ANALYZE, BUFFERS)
SELECT count(*) AS password_sign_ins,
       count(*) FILTER (WHERE s.session_id IN (
           SELECT session_id FROM account_events
           WHERE kind = 'passkey.added' AND session_id IS NOT NULL
             AND occurred_at >= :'start')) AS followed
FROM account_events s
WHERE s.kind = 'sign-in' AND s.method = 'password' AND NOT s.had_passkey
  AND s.occurred_at >= :'start' AND s.occurred_at < :'end';
RESET max_parallel_workers_per_gather;
