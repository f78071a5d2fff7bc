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
-- closed day's counted events adjusts its counts in the same transaction (the triggers below):
-- an account's deletion and the retention sweep subtract, an event written late adds. Filling
-- takes the advisory lock `hashtext('account_event_days')` exclusively and the triggers take it
-- shared, so a change either commits before a fill reads the events or waits and adjusts the
-- counts that fill wrote.
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
CREATE FUNCTION account_event_days_add_late() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('account_event_days'));
    INSERT INTO account_event_days (day, kind, method, events)
    SELECT done.day, NEW.kind, coalesce(NEW.method, ''), 1
    FROM account_event_days_done done
    WHERE done.day = (NEW.occurred_at AT TIME ZONE 'UTC')::date
    ON CONFLICT (day, kind, method) DO UPDATE SET events = account_event_days.events + 1;
    RETURN NULL;
END $$;
CREATE FUNCTION account_event_days_subtract_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('account_event_days'));
    UPDATE account_event_days c SET events = c.events - g.events
    FROM (SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, kind, coalesce(method, '') AS method,
                 count(*) AS events
          FROM gone
          WHERE kind IN ('sign-in', 'passkey.added', 'account.created', 'password.removed')
          GROUP BY 1, 2, 3) g
    WHERE c.day = g.day AND c.kind = g.kind AND c.method = g.method;
    RETURN NULL;
END $$;
-- Only a counted event of a day that may be closed already fires it (never one written now).
CREATE TRIGGER account_events_late_insert AFTER INSERT ON account_events FOR EACH ROW
    WHEN (NEW.occurred_at < now() - interval '1 hour'
          AND NEW.kind IN ('sign-in', 'passkey.added', 'account.created', 'password.removed'))
    EXECUTE FUNCTION account_event_days_add_late();
CREATE TRIGGER account_events_deleted AFTER DELETE ON account_events REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION account_event_days_subtract_deleted();
