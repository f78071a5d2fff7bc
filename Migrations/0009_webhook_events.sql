-- The event log of the webhooks and of GET /v1/operator/events (spec v4, "Webhooks"): every
-- account event, written in the same statement as its account_events row (or alone, for the
-- webhook-only kinds), so that it commits with the change or not at all.
--
-- No foreign key to accounts: account.deleted, and the events before it, outlive the account
-- (kept WEBHOOK_EVENT_RETENTION_DAYS). written_by is the writing transaction's ID: the events API
-- serves only rows whose transaction is older than the oldest one still running, in
-- (written_by, position) order, so a transaction that commits after a later-numbered one is
-- never skipped (docs/webhooks.md, "The events API").
--
-- One index only, the primary key in log order, into which rows go (nearly) in sequence: every
-- sign-in writes a row here, so a random-UUID index would cost each one a scattered page. The
-- event's ID is unique by construction (an account_events row has the same ID, under its own
-- primary key); the retention sweep walks the log in order too.
CREATE TABLE webhook_events (
    written_by     xid8        NOT NULL DEFAULT pg_current_xact_id(),
    position       bigint      GENERATED ALWAYS AS IDENTITY,
    id             uuid        NOT NULL,
    account_id     uuid        NOT NULL,
    kind           text        NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 64),
    occurred_at    timestamptz NOT NULL,
    client_address text        NOT NULL CHECK (char_length(client_address) BETWEEN 1 AND 100),
    user_agent     text        NOT NULL CHECK (char_length(user_agent) <= 256),
    method         text        CHECK (char_length(method) BETWEEN 1 AND 64),
    credential_id  bytea       CHECK (octet_length(credential_id) BETWEEN 1 AND 1023),
    session_id     uuid,
    -- The operator who did it (the support desk); null when the user did.
    actor          text        CHECK (char_length(actor) BETWEEN 1 AND 64),
    -- stage.changed only: the account's migration stage before and after the transaction.
    stage_from     text,
    stage_to       text,
    CONSTRAINT webhook_events_pkey PRIMARY KEY (written_by, position)
);

-- signed-out (DELETE /v1/sessions/current) is a kind of the activity too.
ALTER TABLE account_events DROP CONSTRAINT account_events_kind_check;
ALTER TABLE account_events ADD CONSTRAINT account_events_kind_check CHECK (kind IN (
    'account.created', 'email.verified', 'email.changed', 'account.reclaimed', 'sign-in',
    'sign-in.failed', 'passkey.added', 'passkey.renamed', 'passkey.deleted', 'password.set',
    'password.removed', 'recovery-codes.created', 'recovery-code.issued', 'sessions.ended',
    'signed-out'));
