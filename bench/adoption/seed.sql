-- make bench-adoption: a year of activity for :accounts accounts and about :events events, in
-- a freshly migrated database (bench/adoption/run.sh). Everything is derived from the row
-- number, so two runs seed the same mix, occurred_at included (spread over the past year by a
-- multiplicative hash of the row number).
--
-- Accounts by stage: 55 % password only, 30 % password and passkey, 15 % passkey only; half of
-- the addresses verified. Events, in blocks of 100 consecutive rows:
--   0-19  password sign-in of an account without a passkey (had_passkey false)
--   20-29 password sign-in of an account with one (had_passkey true)
--   30-59 passkey sign-in            60-62 recovery sign-in      63-64 email sign-in
--   65-67 passkey.added conditional, in the session of rows 0-2 (followed)
--   68    passkey.added modal, in the session of row 3           69 passkey.added sign-up
--   70-72 account.created password   73 account.created passkey  74 account.created import
--   75-79 sign-in.failed password    80 password.removed         81 password.set
--   82-85 passkey.renamed / deleted  86-89 sessions.ended, recovery-codes.created
--   90-99 passkey sign-in
-- So 20 % of the events are password sign-ins without a passkey, and 4 in 20 of those
-- sessions are followed by a passkey.added (3 conditional, 1 modal): an upgrade rate of 0.2. The heavy account
-- (00000000-0000-4000-8000-000000000001) gets :heavy extra events for the activity page.
\set ON_ERROR_STOP on
SET synchronous_commit = off;
SET maintenance_work_mem = '256MB';
SET work_mem = '64MB';

CREATE FUNCTION pg_temp.account_uuid(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS
$$ SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid $$;
CREATE FUNCTION pg_temp.session_uuid(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS
$$ SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(i), 12, '0'))::uuid $$;
CREATE FUNCTION pg_temp.seed_time(i bigint) RETURNS timestamptz LANGUAGE sql STABLE AS
$$ SELECT now() - make_interval(secs => ((i * 2654435761) % 31536000)::float8 + (i % 1000) / 1000.0) $$;
CREATE FUNCTION pg_temp.event_uuid(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS
$$ SELECT ('00000000-0000-4000-a000-' || lpad(to_hex(i), 12, '0'))::uuid $$;

\echo seeding accounts
INSERT INTO accounts (id, display_name, created_at)
SELECT pg_temp.account_uuid(i), 'User ' || i, now() - interval '400 days'
FROM generate_series(1::bigint, :accounts) i;

INSERT INTO account_emails (id, account_id, email, normalized_email, created_at, verified_at)
SELECT pg_temp.event_uuid(i + 100000000), pg_temp.account_uuid(i), 'user' || i || '@example.com',
       'user' || i || '@example.com', now() - interval '400 days',
       CASE WHEN i % 2 = 0 THEN now() - interval '300 days' END
FROM generate_series(1::bigint, :accounts) i;

-- i % 20: 0-10 password only, 11-16 both, 17-19 passkey only.
INSERT INTO password_credentials (account_id, password_hash)
SELECT pg_temp.account_uuid(i), '$argon2id$v=19$m=19456,t=2,p=1$bench$bench'
FROM generate_series(1::bigint, :accounts) i WHERE i % 20 <= 16;

INSERT INTO passkey_credentials
    (credential_id, account_id, public_key, algorithm, aaguid, backup_eligible, backup_state, attestation_format,
     attestation_type, user_verified, name)
SELECT int8send(i), pg_temp.account_uuid(i), '\x01'::bytea, -7, '00000000-0000-0000-0000-000000000000', true, true,
       'none', 'none', true, 'Passkey'
FROM generate_series(1::bigint, :accounts) i WHERE i % 20 >= 11;

\echo seeding events (indexes and the foreign key are rebuilt afterwards, as a restore does)
CREATE TEMP TABLE saved_indexes AS
SELECT indexdef FROM pg_indexes
WHERE tablename = 'account_events' AND indexname <> 'account_events_pkey';
DO $$ DECLARE r record; BEGIN
    FOR r IN SELECT indexname FROM pg_indexes
             WHERE tablename = 'account_events' AND indexname <> 'account_events_pkey' LOOP
        EXECUTE format('DROP INDEX %I', r.indexname);
    END LOOP;
END $$;
ALTER TABLE account_events DROP CONSTRAINT account_events_pkey;
-- The history is written "late" by design: no closed day has been counted yet, so the trigger
-- that forgets a counted day has nothing to forget.
ALTER TABLE account_events DISABLE TRIGGER account_events_late_insert;
ALTER TABLE account_events DROP CONSTRAINT account_events_account_id_fkey;

INSERT INTO account_events
    (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id, had_passkey)
SELECT pg_temp.event_uuid(g),
       pg_temp.account_uuid(1 + (g * 7919) % :accounts),
       e.kind,
       -- A passkey added in a session comes a minute after that session's sign-in.
       CASE WHEN e.kind = 'passkey.added' AND e.method IN ('conditional', 'modal')
            THEN pg_temp.seed_time(g - p + e.followed) + interval '1 minute' ELSE pg_temp.seed_time(g) END,
       '203.0.113.' || (g % 250),
       'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
       e.method,
       CASE WHEN e.kind IN ('passkey.added', 'passkey.renamed', 'passkey.deleted')
                 OR (e.kind = 'sign-in' AND e.method = 'passkey') THEN int8send(g) END,
       CASE WHEN e.kind = 'passkey.added' AND e.method IN ('conditional', 'modal')
                 THEN pg_temp.session_uuid(g - p + e.followed)
            WHEN e.kind IN ('sign-in', 'passkey.added', 'passkey.renamed', 'passkey.deleted', 'password.removed',
                            'password.set', 'sessions.ended', 'recovery-codes.created')
                 THEN pg_temp.session_uuid(g) END,
       CASE WHEN e.kind = 'sign-in' AND e.method = 'password' THEN p >= 20 END
FROM generate_series(0::bigint, :events - 1) g
CROSS JOIN LATERAL (SELECT g % 100 AS p) pos
CROSS JOIN LATERAL (
    SELECT CASE
             WHEN p < 30 THEN 'sign-in' WHEN p < 65 THEN 'sign-in' WHEN p < 70 THEN 'passkey.added'
             WHEN p < 75 THEN 'account.created' WHEN p < 80 THEN 'sign-in.failed'
             WHEN p = 80 THEN 'password.removed' WHEN p = 81 THEN 'password.set'
             WHEN p < 84 THEN 'passkey.renamed' WHEN p < 86 THEN 'passkey.deleted'
             WHEN p < 88 THEN 'sessions.ended' WHEN p < 90 THEN 'recovery-codes.created'
             ELSE 'sign-in' END AS kind,
           CASE
             WHEN p < 30 THEN 'password' WHEN p < 60 THEN 'passkey' WHEN p < 63 THEN 'recovery'
             WHEN p < 65 THEN 'email' WHEN p < 68 THEN 'conditional' WHEN p = 68 THEN 'modal'
             WHEN p = 69 THEN 'sign-up' WHEN p < 73 THEN 'password' WHEN p = 73 THEN 'passkey'
             WHEN p = 74 THEN 'import' WHEN p < 80 THEN 'password' WHEN p < 86 THEN NULL
             WHEN p < 88 THEN 'others' WHEN p < 90 THEN NULL
             ELSE 'passkey' END AS method,
           CASE WHEN p < 68 THEN p - 65 ELSE 3 END AS followed
) e;

INSERT INTO account_events
    (id, account_id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id, had_passkey)
SELECT pg_temp.event_uuid(:events + g), pg_temp.account_uuid(1), 'sign-in', pg_temp.seed_time(:events + g),
       '198.51.100.7', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', 'passkey', int8send(g),
       pg_temp.session_uuid(:events + g), NULL
FROM generate_series(1::bigint, :heavy) g;

ALTER TABLE account_events ENABLE TRIGGER account_events_late_insert;
\echo indexing
ALTER TABLE account_events ADD CONSTRAINT account_events_pkey PRIMARY KEY (id);
DO $$ DECLARE r record; BEGIN
    FOR r IN SELECT indexdef FROM saved_indexes LOOP EXECUTE r.indexdef; END LOOP;
END $$;
ALTER TABLE account_events ADD CONSTRAINT account_events_account_id_fkey
    FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE;
\echo vacuum analyze
VACUUM ANALYZE;
SELECT count(*) AS accounts FROM accounts;
SELECT count(*) AS events FROM account_events;
