#!/usr/bin/env python3
"""No secret ever appears in an event (spec v3, "Account activity"), over the whole test run.

Reads the folder PASSKEY_TEST_AUDIT_DIR of a `swift test` run (SecretAudit): secrets-*.txt, every
password, token, recovery code and mailed code the suite sent or received, one a line; and
events-*.jsonl, every account_events row of every throwaway database, dumped before its drop.
Fails when either list is empty (the audit would pass vacuously) or when any secret, or its
base64url or hex form, occurs in any event. Usage: check-event-secrets.py DIR
"""
import base64
import glob
import json
import os
import sys


def forms(secret):
    """The spellings of a secret an event could hold it in."""
    raw = secret.encode()
    found = {secret, secret.lower(), secret.upper(), raw.hex()}
    found.add(base64.urlsafe_b64encode(raw).decode().rstrip("="))
    found.add(base64.b64encode(raw).decode().rstrip("="))
    canonical = secret.replace("-", "").replace(" ", "")
    if canonical != secret:  # a recovery code, also without its separators
        found |= {canonical, canonical.lower(), canonical.upper()}
    try:  # a base64url token: its bytes in hex, as a bytea column would show them
        decoded = base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))
        if len(decoded) >= 16:
            found.add(decoded.hex())
    except ValueError:
        pass
    return {f for f in found if f}


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = sys.argv[1]
    secrets = set()
    for path in glob.glob(os.path.join(folder, "secrets-*.txt")):
        with open(path, encoding="utf-8") as f:
            secrets |= {line.rstrip("\n") for line in f if line.strip()}
    events = []
    for path in glob.glob(os.path.join(folder, "events-*.jsonl")):
        with open(path, encoding="utf-8") as f:
            events += [json.loads(line) for line in f if line.strip()]
    # Shorter values are the suite's malformed probes ("x", "short"), no secret of the server's
    # (mailed codes have 6 digits, recovery codes 16 characters, tokens 43, passwords at least 8).
    secrets = {s for s in secrets if len(s) >= 6}
    if not secrets or not events:
        print(f"event secrets: nothing collected in {folder} ({len(secrets)} secrets, {len(events)} events): "
              "the check would pass vacuously", file=sys.stderr)
        return 1
    # The columns that are text or bytes (a uuid, timestamp or boolean cannot hold a secret),
    # each as its distinct values joined, so every form is one fast substring search.
    columns = ("kind", "method", "client_address", "user_agent", "credential_id")
    joined = {c: "\x00".join(sorted({str(e.get(c) or "") for e in events})) for c in columns}
    failures = 0
    for secret in secrets:
        for form in forms(secret):
            for column, text in joined.items():
                # Six-digit mail codes are short: hex credential IDs hold such digit runs by chance.
                if column == "credential_id" and len(form) < 12:
                    continue
                if form in text:
                    failures += 1
                    kinds = sorted({e.get("kind") for e in events if form in str(e.get(column) or "")})
                    print(f"event secrets: a secret ({len(secret)} characters) occurs in column {column} "
                          f"of {kinds} events", file=sys.stderr)
    if failures:
        return 1
    print(f"event secrets: {len(events)} events hold none of {len(secrets)} secrets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
