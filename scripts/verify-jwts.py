#!/usr/bin/env python3
"""Verifies the server's JWTs with PyJWT, as a product backend would (spec v4, "What a consumer
should do"): the key from the served key set by the token's kid (PyJWKClient), then alg ES256
only, the signature, iss, aud and exp.

    verify-jwts.py JWKS_URL ISSUER AUDIENCE TOKEN...

Prints one line of JSON per token, in order: {"ok": true, "header": {...}, "claims": {...}} or
{"ok": false, "error": "<PyJWT's exception class>"}. Exit 0 when every line could be written
(whatever the verdicts: the caller judges them), 2 on a usage error.
"""
import json
import sys

import jwt


def main() -> int:
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    url, issuer, audience, tokens = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    # No caching between tokens: each verdict reflects the key set as served now.
    client = jwt.PyJWKClient(url, cache_keys=False, cache_jwk_set=False)
    for token in tokens:
        try:
            key = client.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token, key.key, algorithms=["ES256"], issuer=issuer, audience=audience,
                options={"require": ["exp", "iat", "iss", "aud", "sub", "jti"]})
            line = {"ok": True, "header": jwt.get_unverified_header(token), "claims": claims}
        except Exception as error:  # every PyJWT refusal is a verdict, reported by its class
            line = {"ok": False, "error": type(error).__name__}
        print(json.dumps(line, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
