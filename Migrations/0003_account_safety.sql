-- Account safety (spec v2): which passkey a session signed in with, so that deleting that
-- passkey can end the sessions it opened; `recovery` as a session method.

ALTER TABLE authentication_sessions
    ADD COLUMN credential_id bytea CHECK (octet_length(credential_id) BETWEEN 1 AND 1023);
ALTER TABLE authentication_sessions DROP CONSTRAINT authentication_sessions_method_check;
ALTER TABLE authentication_sessions
    ADD CONSTRAINT authentication_sessions_method_check CHECK (method IN ('password', 'passkey', 'recovery'));
ALTER TABLE authentication_sessions
    ADD CONSTRAINT authentication_sessions_credential_method_check CHECK (credential_id IS NULL OR method = 'passkey');
-- Revoking the other sessions of one passkey (passkey deletion) looks them up by credential.
CREATE INDEX authentication_sessions_credential_id_idx ON authentication_sessions (credential_id)
    WHERE credential_id IS NOT NULL;

-- password_failures now holds attempts: a row is written, under a lock on the email and the
-- address, before the password is checked, and deleted again when the password was right
-- (see PostgresRateLimitRepository). The table itself is unchanged.
