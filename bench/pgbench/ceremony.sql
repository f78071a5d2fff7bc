-- One passkey sign-in ceremony's SQL, as the Swift server runs it: three statements, three
-- autocommit transactions, one durable commit. The challenge insert commits asynchronously (as
-- the server's does); the finish reads the challenge, the credential and its account without
-- writing, then (after verification) one statement consumes the challenge, moves the counter and
-- inserts the session. The same text as Sources/PasskeyPersistence/PostgresChallengeRepository.swift
-- (saveAuthenticationChallenge, assertionContext) and PostgresSessionRepository.swift
-- (recordAssertion). Values a server computes itself (UUIDs, random challenge and token digest,
-- timestamps) are computed here by PostgreSQL; the credential ID of account k is k as 16 bytes
-- big-endian (see bench/loadgen). Each client uses only its own accounts, as the HTTP load
-- generator does, so counters never race.
--   pgbench -n -M prepared -f ceremony.sql -D nclients=C -D naccounts=N -c C ...
\set k :client_id + 1 + :nclients * random(0, :naccounts / :nclients - 1)

-- start: saveAuthenticationChallenge
WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
INSERT INTO passkey_authentication_challenges (id, challenge, expires_at, consumed_at)
SELECT gen_random_uuid(), sha256(random()::text::bytea), now() + interval '300 seconds', NULL FROM relaxed
RETURNING id AS challenge_id \gset

-- finish, round trip 1: assertionContext (a read; no commit to wait for)
SELECT c.challenge, c.expires_at AS challenge_expires_at, c.consumed_at AS challenge_consumed_at,
       a.id AS account_id, a.display_name AS account_display_name, a.created_at AS account_created_at,
       pc.credential_id, pc.account_id AS credential_account_id, pc.public_key, pc.algorithm, pc.sign_count,
       pc.aaguid, pc.transports, pc.backup_eligible, pc.backup_state,
       pc.attestation_format, pc.attestation_type, pc.resident_key, pc.user_verified,
       pc.name AS credential_name, pc.created_at AS credential_created_at,
       pc.last_used_at AS credential_last_used_at
FROM (SELECT 1) AS one
LEFT JOIN passkey_authentication_challenges c
       ON c.id = :challenge_id::uuid AND c.consumed_at IS NULL AND c.expires_at > now()
LEFT JOIN passkey_credentials pc ON pc.credential_id = decode(lpad(to_hex(:k::bigint), 32, '0'), 'hex')
LEFT JOIN accounts a ON a.id = pc.account_id \gset r_

-- finish, round trip 2: recordAssertion, the one durable commit (counter +1, as the authenticator would send)
WITH c AS (
    UPDATE passkey_authentication_challenges SET consumed_at = now()
    WHERE id = :challenge_id::uuid AND consumed_at IS NULL AND expires_at > now()
    RETURNING id
), u AS (
    UPDATE passkey_credentials
    SET sign_count = GREATEST(sign_count, :r_sign_count::bigint + 1), backup_state = false,
        last_used_at = now()
    WHERE credential_id = decode(lpad(to_hex(:k::bigint), 32, '0'), 'hex') AND sign_count = :r_sign_count::bigint
      AND EXISTS (SELECT 1 FROM c)
    RETURNING account_id
), s AS (
    INSERT INTO authentication_sessions (id, account_id, token_digest, method, credential_id, created_at, expires_at)
    SELECT gen_random_uuid(), u.account_id, sha256(gen_random_uuid()::text::bytea), 'passkey',
           decode(lpad(to_hex(:k::bigint), 32, '0'), 'hex'), now(), now() + interval '30 days'
    FROM u
    RETURNING id
)
SELECT EXISTS (SELECT 1 FROM c) AS consumed, EXISTS (SELECT 1 FROM s) AS recorded;
