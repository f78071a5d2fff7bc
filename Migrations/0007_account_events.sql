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
-- The upgrade rate: password sign-ins of accounts without a passkey, and the passkeys added
-- since the window's start, whose sessions are hashed and probed by each sign-in (both read by
-- index-only range scans; docs/adoption.md). A passkey sign-in touches neither.
CREATE INDEX account_events_upgrade_sign_in_idx ON account_events (occurred_at) INCLUDE (session_id)
    WHERE kind = 'sign-in' AND method = 'password' AND NOT had_passkey;
CREATE INDEX account_events_passkey_added_idx ON account_events (occurred_at) INCLUDE (session_id)
    WHERE kind = 'passkey.added';

-- The adoption figures' daily counts of closed UTC days, derived from account_events and nothing
-- else (docs/adoption.md): a cache, not a second bookkeeping. No use case writes it; the
-- adoption query fills a closed day (one that ended more than an hour ago) the first time it is
-- asked for, from the events of that day, and reads it from here afterwards. Whatever changes a
-- closed day's events forgets that day (the triggers below), so it is counted again from the
-- events next time: an account's deletion, the retention sweep, an event written late.
CREATE TABLE account_event_days_done (
    day date CONSTRAINT account_event_days_done_pkey PRIMARY KEY
);
CREATE TABLE account_event_days (
    day    date   NOT NULL REFERENCES account_event_days_done (day) ON DELETE CASCADE,
    kind   text   NOT NULL,
    -- '' for the kinds without a method.
    method text   NOT NULL,
    events bigint NOT NULL,
    CONSTRAINT account_event_days_pkey PRIMARY KEY (day, kind, method)
);
CREATE FUNCTION account_event_days_forget_late() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM account_event_days_done WHERE day = (NEW.occurred_at AT TIME ZONE 'UTC')::date;
    RETURN NULL;
END $$;
CREATE FUNCTION account_event_days_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM account_event_days_done
    WHERE day IN (SELECT DISTINCT (occurred_at AT TIME ZONE 'UTC')::date FROM gone);
    RETURN NULL;
END $$;
-- Only an event of a day that may be closed already fires it (never one written now).
CREATE TRIGGER account_events_late_insert AFTER INSERT ON account_events FOR EACH ROW
    WHEN (NEW.occurred_at < now() - interval '1 hour') EXECUTE FUNCTION account_event_days_forget_late();
CREATE TRIGGER account_events_deleted AFTER DELETE ON account_events REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION account_event_days_forget_deleted();
