-- Recovery codes (spec v2, "Account safety"): a user's own set of 10 single-use codes, and
-- single-use codes a support agent issues from the command line, valid 24 hours. Only the
-- SHA-256 digest of a code is stored.

CREATE TABLE recovery_codes (
    id          uuid        CONSTRAINT recovery_codes_pkey PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    code_digest bytea       NOT NULL CHECK (octet_length(code_digest) = 32),
    source      text        NOT NULL CHECK (source IN ('user', 'operator')),
    created_at  timestamptz NOT NULL,
    -- Operator codes expire; a user's set lasts until it is used or replaced.
    expires_at  timestamptz,
    used_at     timestamptz,
    CONSTRAINT recovery_codes_code_digest_key UNIQUE (code_digest),
    CONSTRAINT recovery_codes_expiry_check CHECK ((source = 'operator') = (expires_at IS NOT NULL))
);
-- The account's unused codes (recoveryCodesRemaining, the password-removal precondition,
-- replacing a set).
CREATE INDEX recovery_codes_account_id_idx ON recovery_codes (account_id) WHERE used_at IS NULL;
-- The sweeper: used codes, and operator codes past their expiry.
CREATE INDEX recovery_codes_used_at_idx ON recovery_codes (used_at) WHERE used_at IS NOT NULL;
CREATE INDEX recovery_codes_expires_at_idx ON recovery_codes (expires_at) WHERE expires_at IS NOT NULL;
