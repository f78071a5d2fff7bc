#!/usr/bin/env python3
"""A product backend that trusts the passkey server's tokens (docs/tokens.md, "A worked example").

It serves one endpoint, GET /reports, to callers that present a JWT from
POST /v1/sessions/current/tokens as `Authorization: Bearer <JWT>`. Two ways to check it:

  local         verify the JWT itself with the published keys (PyJWT + PyJWKClient): no call to
                the passkey server per request; a token stays good until its exp (at most
                TOKEN_LIFETIME_SECONDS), even after sign-out.
  introspect    ask the passkey server (RFC 7662, HTTP Basic as a configured service client):
                one call per request, and a signed-out session is refused at once.

Usage:
  resource_server.py serve PORT        run the backend (CHECK=local|introspect, default local)
  resource_server.py verify TOKEN      check one token locally, print its claims as JSON
  resource_server.py introspect TOKEN  ask the passkey server, print its answer as JSON

Environment: PASSKEY_SERVER (e.g. https://auth.example.com), TOKEN_ISSUER (default: the same),
TOKEN_AUDIENCE (this backend's audience, one of the server's TOKEN_AUDIENCES), and for
introspection INTROSPECTION_CLIENT_ID and INTROSPECTION_CLIENT_SECRET. Needs PyJWT with its
cryptography extra (pip install "pyjwt[crypto]").
"""
import base64
import http.server
import json
import os
import sys
import urllib.parse
import urllib.request

import jwt

SERVER = os.environ.get("PASSKEY_SERVER", "http://127.0.0.1:8080").rstrip("/")
ISSUER = os.environ.get("TOKEN_ISSUER", SERVER)
AUDIENCE = os.environ.get("TOKEN_AUDIENCE", ISSUER)

# The key set is fetched once and kept (max-age 300 on the server); an unknown kid (a key made
# by a rotation or a revocation) makes PyJWKClient fetch it again.
KEYS = jwt.PyJWKClient(SERVER + "/.well-known/jwks.json", cache_jwk_set=True, lifespan=300)


def verify_locally(token):
    """The claims of a good token; raises jwt.PyJWTError for anything else."""
    key = KEYS.get_signing_key_from_jwt(token)
    claims = jwt.decode(
        token, key.key,
        algorithms=["ES256"],  # never take the algorithm from the token
        issuer=ISSUER, audience=AUDIENCE,
        options={"require": ["exp", "iat", "iss", "aud", "sub", "sid"]})
    if jwt.get_unverified_header(token).get("typ") != "at+jwt":
        raise jwt.InvalidTokenError("not an access token")
    return claims


def introspect(token):
    """The passkey server's RFC 7662 answer: {"active": false} or the session's facts."""
    client_id = urllib.parse.quote(os.environ["INTROSPECTION_CLIENT_ID"], safe="")
    secret = urllib.parse.quote(os.environ["INTROSPECTION_CLIENT_SECRET"], safe="")
    basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    request = urllib.request.Request(
        SERVER + "/v1/introspect", data=urllib.parse.urlencode({"token": token}).encode(),
        headers={"Authorization": "Basic " + basic, "Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


class Reports(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/reports":
            return self.answer(404, {"error": "not found"})
        header = self.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return self.answer(401, {"error": "a bearer token is required"})
        token = header[len("Bearer "):]
        if os.environ.get("CHECK", "local") == "introspect":
            facts = introspect(token)
            if not facts.get("active"):
                return self.answer(401, {"error": "inactive token"})
            subject, stage = facts["sub"], facts["stage"]
        else:
            try:
                claims = verify_locally(token)
            except jwt.PyJWTError as error:
                return self.answer(401, {"error": type(error).__name__})
            subject, stage = claims["sub"], claims["stage"]
        # What the backend can do with the migration stage: e.g. nudge password-only users.
        return self.answer(200, {"account": subject, "stage": stage, "reports": []})

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(arguments):
    if len(arguments) == 2 and arguments[0] == "serve":
        http.server.ThreadingHTTPServer(("127.0.0.1", int(arguments[1])), Reports).serve_forever()
    elif len(arguments) == 2 and arguments[0] == "verify":
        try:
            print(json.dumps({"ok": True, "claims": verify_locally(arguments[1])}, sort_keys=True))
        except jwt.PyJWTError as error:
            print(json.dumps({"ok": False, "error": type(error).__name__}))
    elif len(arguments) == 2 and arguments[0] == "introspect":
        print(json.dumps(introspect(arguments[1]), sort_keys=True))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
