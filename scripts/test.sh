#!/usr/bin/env bash
# `make test`: installs what is missing, starts a throwaway PostgreSQL, runs every test and
# the offline checks, always stops the cluster, exits non-zero on any failure.
# `make check` (scripts/test.sh --check): the fast inner loop: lint, commit messages, the debug
# build and `swift test`; no release build, Schemathesis, browser or benchmark smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
full=1
[ "${1:-}" = "--check" ] && full=0

scripts/deps.sh --with-test-tools

tmp=$(mktemp -d /tmp/pkt.XXXXXX)
cleanup() { scripts/pgbouncer.sh stop "$tmp/bouncer" || true; scripts/pg.sh stop "$tmp" || true; rm -rf "$tmp"; }
trap cleanup EXIT
port=$((20000 + RANDOM % 20000))
conninfo=$(PG_NOSYNC=1 PG_EXTRA_OPTIONS="-c fsync=off -c max_connections=600" scripts/pg.sh start "$tmp" "$port")
export PASSKEY_TEST_DATABASE_URL="$conninfo"
echo "test: throwaway PostgreSQL at $conninfo"
# PgBouncer in transaction pooling mode in front of it (PgBouncerTests): no dbname, the tests add theirs.
bouncer=$(scripts/pgbouncer.sh start "$tmp/bouncer" $((port + 1)) "$tmp" "$port")
export PASSKEY_TEST_PGBOUNCER_URL="${bouncer% dbname=postgres}"
echo "test: PgBouncer (transaction pooling) at $PASSKEY_TEST_PGBOUNCER_URL"

status=0

echo "[${SECONDS} s] == offline checks"
.tools/venv/bin/check-jsonschema --builtin-schema vendor.compose-spec docker-compose.yml || status=1
echo "[${SECONDS} s] == the image's build context holds every path the manifest and the server need"
python3 scripts/check-image-context.py || status=1
python3 scripts/test_check_image_context.py 2>&1 | tail -n 3 || status=1
echo "[${SECONDS} s] == deployment settings: Patroni REST API authenticated, HAProxy head timeout and per-source limits, compose requires TRUSTED_PROXIES"
.tools/venv/bin/python scripts/check-deploy-settings.py || status=1
.tools/venv/bin/python scripts/test_check_deploy_settings.py 2>&1 | tail -n 3 || status=1
echo "[${SECONDS} s] == the web client's message catalogues: en and ja alike, no words outside them"
python3 scripts/check-web-catalogue.py || status=1
python3 scripts/test_check_web_catalogue.py 2>&1 | tail -n 3 || status=1
echo "[${SECONDS} s] == docs/ios.md's slide table: every file:line holds the symbol it names"
python3 scripts/check-slide-table.py || status=1
python3 scripts/test_check_slide_table.py || status=1

echo "[${SECONDS} s] == commit messages: subjects of at most 72 characters since .commit-message-baseline"
scripts/check-commit-messages.sh || status=1
msg=$(mktemp)
printf '%080d\n' 0 >"$msg"
if scripts/check-commit-messages.sh "$msg" 2>/dev/null; then
    echo "test: the commit message check passed an 80-character subject" >&2
    status=1
fi
rm -f "$msg"

echo "[${SECONDS} s] == shellcheck (warnings and errors) on every shell script git tracks"
git ls-files -z '*.sh' .ci/run | xargs -0 shellcheck -S warning -x || status=1

echo "[${SECONDS} s] == swift format lint"
swift format lint --strict --recursive Sources Tests Fuzz/Sources Examples Package.swift || status=1

echo "[${SECONDS} s] == example app's SwiftUI views: syntax only (SwiftUI exists on Apple platforms only; its Presenters and Interactors are built and tested below)"
swiftc -parse Examples/PasskeyMigrationApp/Sources/PasskeyMigrationApp/Views/*.swift || status=1

echo "[${SECONDS} s] == swift build (a warning fails the run)"
swift build --build-tests 2>&1 | tee "$tmp/build.log" >/dev/null || status=1
if grep -E "(error|warning):" "$tmp/build.log"; then status=1; fi

# The Apple glue (AuthenticationServices bridge, Keychain token store) is type-checked and tested
# by the build above: on Linux it is the PasskeyClientGlue module, built against the stand-ins in
# Tests/StandIns (docs/ios.md).
# (The product is automatic: an app chooses static or dynamic linkage, and SwiftPM builds an
# automatic product only as part of what depends on it, so its target is built here.)
echo "[${SECONDS} s] == swift build --target PasskeyClient (the library an app links, alone)"
swift build --target PasskeyClient 2>&1 | tee "$tmp/client.log" >/dev/null || status=1
if grep -E "(error|warning):" "$tmp/client.log"; then status=1; fi

if [ "$full" -eq 1 ]; then
    echo "[${SECONDS} s] == swift build -c release (what make run builds; some errors show only there)"
    swift build -c release --product passkey-server 2>&1 | tee "$tmp/release.log" >/dev/null || status=1
    if grep -E "(error|warning):" "$tmp/release.log"; then status=1; fi
fi

echo "[${SECONDS} s] == swift test"
# Every secret the suite uses and every event it writes are collected here (SecretAudit).
export PASSKEY_TEST_AUDIT_DIR="$tmp/audit"
swift test 2>&1 | tee "$tmp/test.log" || status=1
# A filter or a broken target can make swift test pass with nothing run: insist on tests.
grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$tmp/test.log" || { echo "test: no Swift Testing run found" >&2; status=1; }
echo "[${SECONDS} s] == the client's unit tests without a database (as on a Mac or in an iOS app's CI)"
env -u PASSKEY_TEST_DATABASE_URL -u PASSKEY_TEST_PGBOUNCER_URL swift test --skip-build --filter '^PasskeyClientTests\.' \
    2>&1 | tee "$tmp/client-unit.log" >/dev/null || status=1
grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$tmp/client-unit.log" || { echo "test: client unit tests did not pass" >&2; status=1; }
echo "[${SECONDS} s] == no secret in any event (every account_events row of the run against every secret it used)"
python3 scripts/check-event-secrets.py "$PASSKEY_TEST_AUDIT_DIR" || status=1
unset PASSKEY_TEST_AUDIT_DIR

if [ "$full" -eq 1 ]; then
    echo "[${SECONDS} s] == schemathesis: openapi.json against the debug server (coverage, fuzzing, stateful; --checks all)"
    scripts/schemathesis.sh || status=1

    echo "[${SECONDS} s] == browser end-to-end (headless Chromium, virtual authenticator)"
    scripts/browser-test.sh || status=1

    echo "[${SECONDS} s] == benchmark smoke (bench/run.sh, every row for a few seconds; no figure is judged)"
    BENCH_SMOKE=1 bash bench/run.sh >"$tmp/bench.log" 2>&1 || { tail -n 40 "$tmp/bench.log"; status=1; }
    grep -E "^bench smoke:" "$tmp/bench.log" || true
fi

what=$([ "$full" -eq 1 ] && echo "all checks" || echo "make check (lint, build, swift test)")
if [ "$status" -eq 0 ]; then echo "test: $what passed in ${SECONDS} s"; else echo "test: FAILED" >&2; fi
exit "$status"
