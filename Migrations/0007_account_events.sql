-- The activity log (spec v3, "Account activity" and "Adoption, for operators"): one row per
-- sign-in, failed sign-in of an existing account and security-relevant change, written in the
-- same transaction (or the same statement) as the change. It never holds a secret: no password,
-- token, code or recovery code. The operators' adoption figures are read from it alone.
CREATE TABLE account_events (
    id             uuid        CONSTRAINT account_events_pkey PRIMARY KEY,
    account_id     uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind           text        NOT NULL CHECK (kind IN (
                                   'account.created', 'email.verified', 'email.changed',
                                   'account.reclaimed', 'sign-in', 'sign-in.failed',
                                   'passkey.added', 'passkey.renamed', 'passkey.deleted',
                                   'password.set', 'password.removed', 'recovery-codes.created',
                                   'recovery-code.issued', 'sessions.ended')),
    occurred_at    timestamptz NOT NULL,
    -- The resolved client address (TRUSTED_PROXIES), or 'command line'.
    client_address text        NOT NULL CHECK (char_length(client_address) BETWEEN 1 AND 100),
    -- The request's User-Agent cut to 256 characters; empty when it sent none.
    user_agent     text        NOT NULL CHECK (char_length(user_agent) <= 256),
    -- account.created: password, passkey or import; sign-in: password, passkey, recovery or
    -- email; sign-in.failed: password, recovery or email; passkey.added: modal, conditional or
    -- sign-up; recovery-code.issued: the issuer's name; sessions.ended: one or others.
    method         text        CHECK (char_length(method) BETWEEN 1 AND 64),
    -- The passkey concerned (sign-in with a passkey, passkey.added/renamed/deleted).
    credential_id  bytea       CHECK (octet_length(credential_id) BETWEEN 1 AND 1023),
    -- The session created (sign-in) or the session that made the change. No foreign key:
    -- sessions are swept long before their events.
    session_id     uuid,
    -- A password sign-in only: whether the account had a passkey then (what `upgrade` counts by).
    had_passkey    boolean,
    CONSTRAINT account_events_had_passkey_check
        CHECK ((had_passkey IS NOT NULL) = (kind = 'sign-in' AND method IS NOT DISTINCT FROM 'password'))
);
-- GET /v1/account/activity: an account's events newest first, paged by (occurred_at, id).
CREATE INDEX account_events_account_idx ON account_events (account_id, occurred_at DESC, id DESC);
-- The adoption figures per day and the retention sweep.
CREATE INDEX account_events_occurred_at_idx ON account_events (occurred_at) INCLUDE (kind, method);
-- The upgrade rate: password sign-ins of accounts without a passkey, and the passkeys their
-- sessions added.
CREATE INDEX account_events_upgrade_sign_in_idx ON account_events (occurred_at) INCLUDE (session_id)
    WHERE kind = 'sign-in' AND method = 'password' AND NOT had_passkey;
CREATE INDEX account_events_passkey_added_session_idx ON account_events (session_id)
    WHERE kind = 'passkey.added';
