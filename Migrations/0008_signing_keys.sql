-- Tokens for the product's other services (spec v4): the server's ES256 signing keys, and
-- whether a passkey session's sign-in was user-verified (the JWT's amr says "mfa" then).
--
-- One row per key. public_key is the JWK the key set publishes ({kty, crv, x, y}); private_key
-- is the private key's DER sealed with AES-256-GCM under DATA_ENCRYPTION_KEY (nonce, ciphertext,
-- tag; the key's id is the associated data), never stored in the clear. A key is published
-- from created_at until revoked_at, or until every token it signed has expired after
-- retired_at; it signs from signs_from (600 s after a rotation made it) until the next key does.
CREATE TABLE signing_keys (
    id          text        CONSTRAINT signing_keys_pkey PRIMARY KEY CHECK (char_length(id) BETWEEN 8 AND 64),
    public_key  jsonb       NOT NULL CHECK (public_key ? 'x' AND public_key ? 'y'),
    private_key bytea       NOT NULL CHECK (octet_length(private_key) BETWEEN 29 AND 4096),
    created_at  timestamptz NOT NULL,
    signs_from  timestamptz NOT NULL,
    retired_at  timestamptz,
    revoked_at  timestamptz
);

ALTER TABLE authentication_sessions ADD COLUMN user_verified boolean NOT NULL DEFAULT false;
