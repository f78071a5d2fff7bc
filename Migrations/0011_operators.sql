-- The support desk's named operators (spec v4, "Support desk"; docs/support.md): a name, a role
-- and the SHA-256 of the operator's token (256 bits from the CSPRNG, shown once). The token is
-- looked up by its digest on every request, so a removed operator's token stops at once on every
-- instance. OPERATOR_TOKEN (v3) is not stored: it stays the admin named "operator".
CREATE TABLE operators (
    name         text        PRIMARY KEY CHECK (char_length(name) BETWEEN 1 AND 64),
    role         text        NOT NULL CHECK (role IN ('viewer', 'support', 'admin')),
    token_digest bytea       NOT NULL UNIQUE CHECK (octet_length(token_digest) = 32),
    created_at   timestamptz NOT NULL
);
