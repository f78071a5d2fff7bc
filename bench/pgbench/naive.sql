-- Row (d): the naive statement list of one passkey sign-in ceremony, the obvious SQL a server
-- would send one step at a time (as the issue that asked for it spells it out): an autocommit
-- INSERT of the challenge (asynchronous commit, like both servers'); then one transaction with
-- the consuming UPDATE … RETURNING, a SELECT of the credential joined with its account, the
-- counter UPDATE, the session INSERT and a durable COMMIT. Seven statements, two commits (one
-- durable). No server can beat this row while sending this list; ours sends less (ceremony.sql).
--   pgbench -n -M prepared -f naive.sql -D nclients=C -D naccounts=N -c C ...
\set k :client_id + 1 + :nclients * random(0, :naccounts / :nclients - 1)

WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
INSERT INTO passkey_authentication_challenges (id, challenge, expires_at, consumed_at)
SELECT gen_random_uuid(), sha256(random()::text::bytea), now() + interval '300 seconds', NULL FROM relaxed
RETURNING id AS challenge_id \gset

BEGIN;
UPDATE passkey_authentication_challenges SET consumed_at = now()
WHERE id = :challenge_id::uuid AND consumed_at IS NULL AND expires_at > now()
RETURNING challenge, expires_at \gset c_
SELECT pc.credential_id, pc.account_id, pc.public_key, pc.algorithm, pc.sign_count, pc.aaguid,
       pc.transports, pc.backup_eligible, pc.backup_state, pc.attestation_format, pc.attestation_type,
       pc.resident_key, pc.user_verified, pc.name, pc.created_at, pc.last_used_at,
       a.id AS account, a.display_name, a.created_at AS account_created_at
FROM passkey_credentials pc JOIN accounts a ON a.id = pc.account_id
WHERE pc.credential_id = decode(lpad(to_hex(:k::bigint), 32, '0'), 'hex') \gset r_
UPDATE passkey_credentials SET sign_count = :r_sign_count::bigint + 1, backup_state = false, last_used_at = now()
WHERE credential_id = decode(lpad(to_hex(:k::bigint), 32, '0'), 'hex');
INSERT INTO authentication_sessions (id, account_id, token_digest, method, credential_id, created_at, expires_at)
VALUES (gen_random_uuid(), :r_account_id::uuid, sha256(gen_random_uuid()::text::bytea), 'passkey',
        decode(lpad(to_hex(:k::bigint), 32, '0'), 'hex'), now(), now() + interval '30 days');
COMMIT;
