-- The webhook endpoints and their deliveries (spec v4, "Webhooks"; docs/webhooks.md).
--
-- webhooks: one row per registered endpoint. The signing secret is sealed with
-- DATA_ENCRYPTION_KEY (AES-256-GCM, bound to the row's id); after a rotation the previous secret
-- still signs, next to the new one, until previous_secret_until. A removed endpoint keeps its row
-- (removed_at) until the sweep, so that a change writing a delivery for it while it is being
-- removed never fails on a foreign key: the sender skips removed endpoints.
CREATE TABLE webhooks (
    id                    uuid        PRIMARY KEY,
    url                   text        NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
    -- The kinds sent to it; empty: every kind.
    events                text[]      NOT NULL DEFAULT '{}',
    description           text        NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
    secret                bytea       NOT NULL,
    previous_secret       bytea,
    previous_secret_until timestamptz,
    created_at            timestamptz NOT NULL,
    last_delivered_at     timestamptz,
    removed_at            timestamptz
);

-- One row per (endpoint, event) still to send, or abandoned: a delivered one is deleted at once.
-- Written by the statement that writes the event (AccountEventStatement), so it commits with the
-- change or not at all. (written_by, position) is the event's place in webhook_events; no foreign
-- key either way (the retention sweep deletes both, and a removal must not fail a change).
CREATE TABLE webhook_deliveries (
    webhook_id      uuid        NOT NULL,
    written_by      xid8        NOT NULL,
    position        bigint      NOT NULL,
    account_id      uuid        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    leased_until    timestamptz,
    abandoned_at    timestamptz,
    last_error      text        CHECK (char_length(last_error) <= 500),
    CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (webhook_id, written_by, position)
);

-- The sender's claim: pending deliveries by due time...
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE abandoned_at IS NULL;
-- ...and, for each, whether an earlier one of the same account to the same endpoint is pending.
CREATE INDEX webhook_deliveries_account_order ON webhook_deliveries (webhook_id, account_id, written_by, position)
    WHERE abandoned_at IS NULL;
