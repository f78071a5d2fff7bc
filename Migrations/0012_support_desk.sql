-- The support desk's account actions (spec v4, "Support desk"; docs/support.md).
--
-- A locked account: no sign-in makes a session for it while locked_at is set. Sign-ins read the
-- two columns FOR KEY SHARE in the statement that writes their session, and a lock takes the row
-- FOR UPDATE before it ends the sessions: one of the two waits for the other, so a sign-in either
-- committed its session before the lock (which then ends it) or sees the lock.
ALTER TABLE accounts
    ADD COLUMN locked_at   timestamptz,
    ADD COLUMN lock_reason text CHECK (char_length(lock_reason) BETWEEN 1 AND 200),
    ADD CONSTRAINT accounts_lock_check CHECK ((locked_at IS NULL) = (lock_reason IS NULL));

-- An operator's action names the operator (actor) and carries no client address or user agent:
-- the user sees who, not from where. account.locked carries the lock's reason, for the user.
ALTER TABLE account_events
    ALTER COLUMN client_address DROP NOT NULL,
    ALTER COLUMN user_agent DROP NOT NULL,
    ADD COLUMN actor  text CHECK (char_length(actor) BETWEEN 1 AND 64),
    ADD COLUMN reason text CHECK (char_length(reason) BETWEEN 1 AND 200),
    ADD CONSTRAINT account_events_origin_check
        CHECK ((actor IS NULL) = (client_address IS NOT NULL) AND (actor IS NULL) = (user_agent IS NOT NULL));
ALTER TABLE account_events DROP CONSTRAINT account_events_kind_check;
ALTER TABLE account_events ADD CONSTRAINT account_events_kind_check CHECK (kind IN (
    'account.created', 'email.verified', 'email.changed', 'account.reclaimed', 'sign-in',
    'sign-in.failed', 'passkey.added', 'passkey.renamed', 'passkey.deleted', 'password.set',
    'password.removed', 'recovery-codes.created', 'recovery-code.issued', 'sessions.ended',
    'signed-out', 'account.locked', 'account.unlocked'));

ALTER TABLE webhook_events
    ALTER COLUMN client_address DROP NOT NULL,
    ALTER COLUMN user_agent DROP NOT NULL,
    ADD COLUMN reason text CHECK (char_length(reason) BETWEEN 1 AND 200);
