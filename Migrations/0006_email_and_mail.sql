-- Verified email and mail (spec v3, "Email addresses and mail"): an account's address starts
-- unverified and is proven by a mailed 6-digit code; mails are queued in the same transaction
-- as the change that causes them and sent in the background (docs/mail.md).

-- Null until the owner proves the address; the language of the account's mails, from the
-- sign-up request's Accept-Language.
ALTER TABLE account_emails
    ADD COLUMN verified_at timestamptz,
    ADD COLUMN language    text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ja'));

-- Mailed codes. Only the SHA-256 digest of a code is stored. A code is void once used, once a
-- newer code of the same purpose and account was issued (voided_at), after 5 wrong tries, or
-- after expires_at.
CREATE TABLE email_codes (
    id               uuid        CONSTRAINT email_codes_pkey PRIMARY KEY,
    account_id       uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose          text        NOT NULL CHECK (purpose IN ('verify', 'change', 'sign-in')),
    -- The address the code was sent to (for 'change': the new address).
    email            text        NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    -- What the per-recipient sending limit counts by.
    normalized_email text        NOT NULL CHECK (char_length(normalized_email) BETWEEN 3 AND 254),
    code_digest      bytea       NOT NULL CHECK (octet_length(code_digest) = 32),
    created_at       timestamptz NOT NULL,
    expires_at       timestamptz NOT NULL,
    failed_tries     integer     NOT NULL DEFAULT 0 CHECK (failed_tries >= 0),
    used_at          timestamptz,
    voided_at        timestamptz
);
-- The live code of an account and purpose (confirming, voiding the older ones).
CREATE INDEX email_codes_account_purpose_idx ON email_codes (account_id, purpose)
    WHERE used_at IS NULL AND voided_at IS NULL;
-- The sending limit: codes mailed to one address within the last hour.
CREATE INDEX email_codes_recipient_idx ON email_codes (normalized_email, created_at);
-- The sweeper.
CREATE INDEX email_codes_expires_at_idx ON email_codes (expires_at);

-- The outbox. No foreign key: the notice of an account's deletion outlives the account.
CREATE TABLE mail_outbox (
    id              uuid        CONSTRAINT mail_outbox_pkey PRIMARY KEY,
    recipient       text        NOT NULL CHECK (char_length(recipient) BETWEEN 3 AND 254),
    subject         text        NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 200),
    -- UTF-8 plain text; set to null once the mail is sent or abandoned.
    body            text,
    created_at      timestamptz NOT NULL,
    -- The expiry of the code the mail carries: past it the mail is dropped, never sent late.
    not_after       timestamptz,
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL,
    -- A sender's lease on a claimed row: after it, another sender may take the row again.
    leased_until    timestamptz,
    sent_at         timestamptz,
    abandoned_at    timestamptz,
    last_error      text        CHECK (char_length(last_error) <= 500),
    CONSTRAINT mail_outbox_body_check CHECK (body IS NOT NULL OR sent_at IS NOT NULL OR abandoned_at IS NOT NULL)
);
-- Due mails, claimed with FOR UPDATE SKIP LOCKED.
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at)
    WHERE sent_at IS NULL AND abandoned_at IS NULL;
-- The sweeper: sent and abandoned mails.
CREATE INDEX mail_outbox_done_idx ON mail_outbox (coalesce(sent_at, abandoned_at))
    WHERE sent_at IS NOT NULL OR abandoned_at IS NOT NULL;

-- An email sign-in (recovery by a mailed code) is a session method of its own.
ALTER TABLE authentication_sessions DROP CONSTRAINT authentication_sessions_method_check;
ALTER TABLE authentication_sessions
    ADD CONSTRAINT authentication_sessions_method_check
    CHECK (method IN ('password', 'passkey', 'recovery', 'email'));
