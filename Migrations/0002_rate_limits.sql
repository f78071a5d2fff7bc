-- Rate limits kept in the database so they hold across restarts and instances.

-- Option issuance (the three start endpoints together): a fixed one-minute window per client address.
CREATE TABLE rate_limit_windows (
    key          text        NOT NULL CHECK (char_length(key) BETWEEN 1 AND 128),
    window_start timestamptz NOT NULL,
    hits         integer     NOT NULL CHECK (hits >= 0),
    CONSTRAINT rate_limit_windows_pkey PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_windows_window_start_idx ON rate_limit_windows (window_start);

-- Failed password sign-ins, counted per email and per client address within a sliding window.
CREATE TABLE password_failures (
    id               bigserial   CONSTRAINT password_failures_pkey PRIMARY KEY,
    normalized_email text        NOT NULL CHECK (char_length(normalized_email) BETWEEN 1 AND 254),
    client_address   text        NOT NULL CHECK (char_length(client_address) BETWEEN 1 AND 64),
    failed_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_failures_email_idx ON password_failures (normalized_email, failed_at);
CREATE INDEX password_failures_address_idx ON password_failures (client_address, failed_at);
CREATE INDEX password_failures_failed_at_idx ON password_failures (failed_at);
