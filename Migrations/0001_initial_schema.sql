-- The eight tables of the contract (shared/spec.md, "Database").
-- Constraint names are stable: the application maps them to error codes.

CREATE TABLE accounts (
    id           uuid        CONSTRAINT accounts_pkey PRIMARY KEY,
    display_name text        NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 64),
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE account_emails (
    id               uuid        CONSTRAINT account_emails_pkey PRIMARY KEY,
    account_id       uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    email            text        NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    normalized_email text        NOT NULL CHECK (char_length(normalized_email) BETWEEN 3 AND 254),
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT account_emails_account_id_key UNIQUE (account_id),
    CONSTRAINT account_emails_normalized_email_key UNIQUE (normalized_email)
);

CREATE TABLE password_credentials (
    account_id    uuid        CONSTRAINT password_credentials_pkey PRIMARY KEY
                              REFERENCES accounts (id) ON DELETE CASCADE,
    password_hash text        NOT NULL CHECK (char_length(password_hash) BETWEEN 1 AND 512),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE passkey_credentials (
    credential_id      bytea       CONSTRAINT passkey_credentials_pkey PRIMARY KEY
                                   CHECK (octet_length(credential_id) BETWEEN 1 AND 1023),
    account_id         uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    public_key         bytea       NOT NULL CHECK (octet_length(public_key) BETWEEN 1 AND 4096),
    algorithm          integer     NOT NULL,
    sign_count         bigint      NOT NULL DEFAULT 0 CHECK (sign_count BETWEEN 0 AND 4294967295),
    aaguid             uuid        NOT NULL,
    transports         text[]      NOT NULL DEFAULT '{}' CHECK (cardinality(transports) <= 16),
    backup_eligible    boolean     NOT NULL,
    backup_state       boolean     NOT NULL,
    attestation_format text        NOT NULL CHECK (char_length(attestation_format) BETWEEN 1 AND 32),
    attestation_type   text        NOT NULL
                                   CHECK (attestation_type IN ('none', 'self', 'basic', 'attca', 'anonca')),
    resident_key       boolean,
    user_verified      boolean     NOT NULL,
    name               text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
    created_at         timestamptz NOT NULL DEFAULT now(),
    last_used_at       timestamptz,
    CONSTRAINT passkey_credentials_backup_state_check CHECK (backup_eligible OR NOT backup_state)
);
CREATE INDEX passkey_credentials_account_id_idx ON passkey_credentials (account_id, created_at);

CREATE TABLE authentication_sessions (
    id           uuid        CONSTRAINT authentication_sessions_pkey PRIMARY KEY,
    account_id   uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    token_digest bytea       NOT NULL CHECK (octet_length(token_digest) = 32),
    method       text        NOT NULL CHECK (method IN ('password', 'passkey')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz,
    CONSTRAINT authentication_sessions_token_digest_key UNIQUE (token_digest),
    CHECK (expires_at > created_at)
);
CREATE INDEX authentication_sessions_account_id_idx ON authentication_sessions (account_id);
CREATE INDEX authentication_sessions_expires_at_idx ON authentication_sessions (expires_at);

CREATE TABLE passkey_registration_challenges (
    id          uuid        CONSTRAINT passkey_registration_challenges_pkey PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    challenge   bytea       NOT NULL CHECK (octet_length(challenge) BETWEEN 16 AND 64),
    mode        text        NOT NULL CHECK (mode IN ('modal', 'conditional')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    consumed_at timestamptz
);
CREATE INDEX passkey_registration_challenges_account_id_idx ON passkey_registration_challenges (account_id);
CREATE INDEX passkey_registration_challenges_expires_at_idx ON passkey_registration_challenges (expires_at);

CREATE TABLE passkey_authentication_challenges (
    id          uuid        CONSTRAINT passkey_authentication_challenges_pkey PRIMARY KEY,
    challenge   bytea       NOT NULL CHECK (octet_length(challenge) BETWEEN 16 AND 64),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    consumed_at timestamptz
);
CREATE INDEX passkey_authentication_challenges_expires_at_idx ON passkey_authentication_challenges (expires_at);

-- No foreign key on prospective_account_id: the account does not exist until finish.
CREATE TABLE passkey_account_registrations (
    id                     uuid        CONSTRAINT passkey_account_registrations_pkey PRIMARY KEY,
    prospective_account_id uuid        NOT NULL,
    email                  text        CHECK (char_length(email) BETWEEN 3 AND 254),
    display_name           text        CHECK (char_length(display_name) BETWEEN 1 AND 64),
    challenge              bytea       NOT NULL CHECK (octet_length(challenge) BETWEEN 16 AND 64),
    created_at             timestamptz NOT NULL DEFAULT now(),
    expires_at             timestamptz NOT NULL,
    completed_at           timestamptz
);
CREATE INDEX passkey_account_registrations_expires_at_idx ON passkey_account_registrations (expires_at);
