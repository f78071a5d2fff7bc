#!/usr/bin/env python3
"""The signing keys across two instances of one fleet (spec v4, "Keys"; issue 36): a rotation's
next key is in both instances' key sets at once and signs on neither yet; a revoked key leaves
both key sets at once, its tokens introspect as inactive on both, and within the instances' key
cache bound (5 s) both sign with the replacement.

    token-keys-test.py --base URL --app URL --app URL --exe PATH --client ID:SECRET

The passkey-server executable runs `keys rotate` and `keys revoke` with this process's
environment (DATABASE_URL and DATA_ENCRYPTION_KEY of the fleet). Prints one PASS line, or the
first failed check and exit 1.
"""
import argparse
import base64
import json
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid


def call(url, method="GET", body=None, headers=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    # urllib keeps header names capitalize()d ("Content-type"): ask it, not the dict.
    if body is not None and not request.has_header("Content-type"):
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def fail(message):
    print(f"fleet: keys       FAIL {message}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--app", action="append", required=True)
    parser.add_argument("--exe", required=True)
    parser.add_argument("--client", required=True)
    args = parser.parse_args()
    basic = "Basic " + base64.b64encode(args.client.encode()).decode()

    email = f"keys-{uuid.uuid4().hex[:8]}@example.com"
    status, _ = call(args.base + "/v1/accounts", "POST",
                     {"email": email, "displayName": "Keys", "password": "correct horse battery"})
    if status != 201:
        fail(f"sign-up answered {status}")
    status, session = call(args.base + "/v1/sessions", "POST", {"email": email, "password": "correct horse battery"})
    if status != 200:
        fail(f"sign-in answered {status}")
    bearer = {"Authorization": "Bearer " + session["accessToken"]}

    def mint(app):
        status, body = call(app + "/v1/sessions/current/tokens", "POST", {}, bearer)
        if status != 201:
            fail(f"mint on {app} answered {status} {body}")
        header = body["token"].split(".")[0]
        return body["token"], json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]

    def published(app):
        return {key["kid"] for key in call(app + "/.well-known/jwks.json")[1]["keys"]}

    def active(app, token):
        form = urllib.parse.urlencode({"token": token}).encode()
        status, body = call(app + "/v1/introspect", "POST", form,
                            {"Authorization": basic, "Content-Type": "application/x-www-form-urlencoded"})
        if status != 200:
            fail(f"introspection on {app} answered {status}")
        return body.get("active")

    def keys(*arguments):
        done = subprocess.run([args.exe, "keys", *arguments], capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"keys {' '.join(arguments)}: {done.stdout}{done.stderr}")
        return done.stdout

    first = {mint(app)[1] for app in args.app}
    if len(first) != 1:
        fail(f"the instances sign with different keys: {first}")
    (current,) = first
    keys("rotate")
    nxt = [k for k in published(args.app[0]) if k != current]
    if len(nxt) != 1:
        fail(f"after keys rotate the key set is {published(args.app[0])}")
    for app in args.app:
        if published(app) != {current, nxt[0]}:
            fail(f"{app} does not publish the next key at once: {published(app)}")
        if mint(app)[1] != current:
            fail(f"{app} signs with the next key before its 600 s")
    old_token, _ = mint(args.app[0])
    keys("revoke", current)
    for app in args.app:
        if current in published(app) or nxt[0] in published(app):
            fail(f"{app} still publishes a revoked key: {published(app)}")
        if active(app, old_token) is not False:
            fail(f"{app} reports a token of a revoked key active")
    deadline = time.time() + 10
    replacement = published(args.app[0])
    while True:
        kids = {mint(app)[1] for app in args.app}
        if kids == replacement:
            break
        if time.time() > deadline:
            fail(f"the instances still sign with {kids}, not {replacement}, 10 s after the revocation")
        time.sleep(0.5)
    fresh, _ = mint(args.app[1])
    if not all(active(app, fresh) for app in args.app):
        fail("a token of the replacement key is not active on every instance")
    print(f"fleet: keys       rotation published at once on {len(args.app)} instances, not signing early; "
          f"revoked key out of every key set at once, its token inactive everywhere, the replacement signing "
          f"within {10 - max(0, deadline - time.time()):.1f} s  goal: spec v4 Keys across instances [PASS]")


if __name__ == "__main__":
    main()
