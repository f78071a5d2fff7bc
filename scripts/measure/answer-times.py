#!/usr/bin/env python3
"""Median answer times of the failure paths for a known and an unknown address (security round
4, finding 11), against a running server on a durable PostgreSQL:

    python3 scripts/measure/answer-times.py http://127.0.0.1:8080 [ROUNDS]

Creates one password account, then alternates known and unknown addresses for each path, so
both see the same machine load: a wrong password (POST /v1/sessions), a code request (POST
/v1/recovery/email, mail on) and a wrong email code (POST /v1/recovery/email/sessions). The
server must not limit the test's address (raise RATE_LIMIT_* for the run). Prints one line per
path: known and unknown medians in ms and their difference. Not part of `make test`: timings
are measured, never asserted (docs/benchmark.md).
"""
import http.client
import json
import statistics
import sys
import time
import urllib.parse
import uuid


def main() -> int:
    base = urllib.parse.urlparse(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    connection = http.client.HTTPConnection(base.hostname, base.port or 80, timeout=30)

    def post(path: str, body: dict) -> tuple[int, float]:
        data = json.dumps(body).encode()
        start = time.perf_counter()
        connection.request("POST", path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, (time.perf_counter() - start) * 1000

    known = f"timing-{uuid.uuid4().hex[:8]}@example.com"
    status, _ = post("/v1/accounts", {"email": known, "displayName": "Timing", "password": "correct horse battery"})
    if status != 201:
        print(f"answer-times: sign-up answered {status}", file=sys.stderr)
        return 1
    paths = {
        "wrong password (POST /v1/sessions)": lambda email: post(
            "/v1/sessions", {"email": email, "password": "wrong password!"}),
        "code request (POST /v1/recovery/email)": lambda email: post("/v1/recovery/email", {"email": email}),
        "wrong code (POST /v1/recovery/email/sessions)": lambda email: post(
            "/v1/recovery/email/sessions", {"email": email, "code": "000000"}),
    }
    for name, call in paths.items():
        times: dict[str, list[float]] = {"known": [], "unknown": []}
        statuses: set[int] = set()
        for index in range(rounds):
            for which in ("known", "unknown") if index % 2 == 0 else ("unknown", "known"):
                email = known if which == "known" else f"nobody-{uuid.uuid4().hex[:8]}@example.com"
                status, elapsed = call(email)
                statuses.add(status)
                times[which].append(elapsed)
        k, u = statistics.median(times["known"]), statistics.median(times["unknown"])
        print(f"{name}: known {k:.2f} ms, unknown {u:.2f} ms, difference {k - u:+.2f} ms (statuses {sorted(statuses)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
