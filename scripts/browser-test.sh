#!/usr/bin/env bash
# Real-browser end-to-end test: headless Chromium with a CDP virtual authenticator runs the
# passkey ceremonies of Tests/browser/index.html against a running passkey-server (cross-origin),
# then drives the server's own web client at / through its visible controls (same-origin), then
# (v3) the operator page /operator/ against a second server on an empty database of its own;
# screenshots of each step land in Tests/browser/screenshots/ (only activity.png, operator-data.png,
# operator-empty.png, account-en.png and account-ja.png are kept in git). (v4, issue 40) First, the
# message catalogues are checked without a browser (scripts/check-web-catalogue.py and its tests);
# the web client and the operator page are then audited with axe-core in English and Japanese,
# light and dark, and driven by keyboard only (docs/browser-test.md).
#
#   PASSKEY_TEST_DATABASE_URL="host=… port=… user=postgres dbname=postgres" scripts/browser-test.sh
#
# Environment:
#   PASSKEY_TEST_DATABASE_URL  required; libpq conninfo of a PostgreSQL where this script may
#                              CREATE/DROP its own database passkey_test_browser_<random>
#   PASSKEY_SERVER_BIN         the built server (default .build/debug/passkey-server)
#   CHROMIUM_BIN, CHROMEDRIVER_BIN   default /usr/bin/chromium, /usr/bin/chromedriver
#   BROWSER_TEST_KEEP=1        keep the scratch folder (logs) after the run
#   BROWSER_TEST_JS_FALLBACK=1 convert options/credentials in page JS instead of the native
#                              parse*OptionsFromJSON / toJSON (tests the fallback path)
#   BROWSER_TEST_MAIL=0        (v3) serve without mail and leave out the web client's email steps
#                              (default 1: a real SMTP server, Debian's python3-aiosmtpd, receives
#                              the mails the server's background sender delivers over SMTP; the steps
#                              read the codes from its Maildir)
# Installs what is missing (apt: chromium chromium-driver fonts-ipafont-gothic, as root; PyPI:
# selenium and axe-selenium-python-nhsuk (axe-core) into .tools/venv). Prints PASS/FAIL per test,
# ends with "N passed, M failed"; exit 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

started_at=$(date +%s)
phase_at=$started_at
phase() { # phase NAME: prints how long the previous phase took, on stderr
    local now; now=$(date +%s)
    echo "browser-test: $1 (+$((now - phase_at)) s)" >&2
    phase_at=$now
}
die() { # setup failures are test failures, loudly
    echo "FAIL setup: $*"
    echo "browser-test: $*" >&2
    exit 1
}

tmp=""
db=""
base_conn=""
server_pid=""
operator_pid=""
operator_db=""
http_pid=""
smtp_pid=""
test_pid=""
summary_printed=0

log_prefix=browser-test
# shellcheck source=scripts/lib/test-services.sh
source scripts/lib/test-services.sh  # the working directory is the repository here

cleanup_done=0
cleanup() {
    [ "$cleanup_done" -eq 1 ] && return 0
    cleanup_done=1
    # The test runs in its own process group (via `timeout`): chromedriver and Chromium go with it.
    stop_pid "$test_pid" group
    stop_pid "$server_pid"
    stop_pid "$operator_pid"
    stop_pid "$http_pid"
    stop_pid "$smtp_pid"
    drop_database "$base_conn" "$db"
    drop_database "$base_conn" "$operator_db"
    if [ -n "$tmp" ]; then
        if [ "${BROWSER_TEST_KEEP:-0}" = 1 ]; then echo "browser-test: kept $tmp" >&2; else rm -rf "$tmp"; fi
    fi
}
on_exit() {
    local status=$?
    cleanup
    if [ "$summary_printed" -eq 0 ]; then
        case "$status" in 130 | 143) echo "FAIL interrupted: stopped by a signal" ;; esac
        echo "0 passed, 1 failed"
        [ "$status" -eq 0 ] && status=1
    fi
    exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- inputs ----
base_conn=${PASSKEY_TEST_DATABASE_URL:-}
[ -n "$base_conn" ] || die "PASSKEY_TEST_DATABASE_URL is not set (a libpq conninfo for database postgres)"
exe=${PASSKEY_SERVER_BIN:-.build/debug/passkey-server}
[ -x "$exe" ] || die "server executable $exe not found (swift build --build-tests, or set PASSKEY_SERVER_BIN)"
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
chromium=${CHROMIUM_BIN:-/usr/bin/chromium}
chromedriver=${CHROMEDRIVER_BIN:-/usr/bin/chromedriver}
command -v psql >/dev/null || die "psql not found (apt-get install postgresql-client)"

# ---- 1. install what is missing ----
missing=()
for p in chromium chromium-driver; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) && [ -x "$chromium" ] && [ -x "$chromedriver" ] && missing=() # a browser of its own
# (v4) A Japanese font, so that the Japanese screenshots show words, not boxes.
fc-list :lang=ja 2>/dev/null | grep -q . || missing+=(fonts-ipafont-gothic)
if ((${#missing[@]})); then
    [ "$(id -u)" -eq 0 ] || die "missing Debian packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})"
    echo "browser-test: installing ${missing[*]} (apt)" >&2
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get -o DPkg::Lock::Timeout=120 update -qq >/dev/null || die "apt-get update failed"
    timeout 900 apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed"
fi
[ -x "$chromium" ] || die "Chromium not found at $chromium"
[ -x "$chromedriver" ] || die "chromedriver not found at $chromedriver"

venv=.tools/venv
if [ ! -x "$venv/bin/python" ]; then
    echo "browser-test: creating $venv" >&2
    python3 -m venv "$venv" >/dev/null 2>&1 || die "python3 -m venv failed (apt-get install python3-venv)"
fi
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    echo "browser-test: installing selenium (PyPI) into $venv" >&2
    timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.11,<5" >/dev/null \
        || die "pip install selenium failed"
fi
# (v4) axe-core for the accessibility audits: the NHS fork of axe-selenium-python ships axe-core 4.9
# and runs on Debian 12's Python 3.11 (the upstream 3.x needs 3.12; its 2.x ships axe-core 3.1).
axe_version=1.0.4
if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('axe-selenium-python-nhsuk') == '$axe_version'" \
    2>/dev/null; then
    echo "browser-test: installing axe-selenium-python-nhsuk $axe_version (PyPI) into $venv" >&2
    timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check "axe-selenium-python-nhsuk==$axe_version" \
        >/dev/null || die "pip install axe-selenium-python-nhsuk failed"
fi
phase "dependencies ready: $("$chromium" --version 2>/dev/null | head -n1), selenium $("$venv/bin/python" -c 'import selenium; print(selenium.__version__)')"

# ---- 1b. (v4, issue 40) the message catalogues, without a browser ----
catalogue_passed=0 catalogue_failed=0
if out=$(python3 scripts/check-web-catalogue.py 2>&1); then
    echo "PASS catalogue_check (${out##*check-web-catalogue: })"
    catalogue_passed=$((catalogue_passed + 1))
else
    echo "FAIL catalogue_check: scripts/check-web-catalogue.py"
    sed 's/^/    /' <<<"$out"
    catalogue_failed=$((catalogue_failed + 1))
fi
if out=$(python3 scripts/test_check_web_catalogue.py 2>&1); then
    echo "PASS catalogue_check_tests ($(grep -E '^Ran ' <<<"$out"))"
    catalogue_passed=$((catalogue_passed + 1))
else
    echo "FAIL catalogue_check_tests: scripts/test_check_web_catalogue.py"
    tail -n 30 <<<"$out" | sed 's/^/    /'
    catalogue_failed=$((catalogue_failed + 1))
fi
phase "message catalogues checked"

# ---- 2. database, static page, server ----
tmp=$(mktemp -d /tmp/pkbt.XXXXXX)
db="passkey_test_browser_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
case "$base_conn" in
postgres://* | postgresql://*)
    db_conn=$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$base_conn" "$db")
    ;;
*) db_conn="$(sed -E 's/(^|[[:space:]])dbname=[^[:space:]]*//g' <<<"$base_conn") dbname=$db" ;;
esac
timeout 30 psql -X -q -v ON_ERROR_STOP=1 -d "$base_conn" -c "CREATE DATABASE \"$db\"" >/dev/null \
    || { db=""; die "cannot create a database through PASSKEY_TEST_DATABASE_URL"; }
DATABASE_URL="$db_conn" PASSKEY_MIGRATIONS_DIR="$root/Migrations" timeout 60 "$exe" migrate >"$tmp/migrate.log" 2>&1 \
    || { cat "$tmp/migrate.log" >&2; die "passkey-server migrate failed"; }
phase "database $db migrated"

wait_for_port() { # wait_for_port PID LOGFILE REGEX-with-one-group NAME: prints the port (30 s bound)
    local pid=$1 log=$2 regex=$3 name=$4 port=""
    for _ in $(seq 300); do
        port=$(sed -nE "s/$regex/\\1/p" "$log" 2>/dev/null | head -n1)
        [ -n "$port" ] && { echo "$port"; return 0; }
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "browser-test: $name exited before reporting a port; its output (may be empty):" >&2
            tail -n 20 "$log" | sed 's/^/    /' >&2
            return 1
        fi
        sleep 0.1
    done
    tail -n 20 "$log" >&2
    echo "browser-test: $name did not report a port within 30 s" >&2
    return 1
}

python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$root/Tests/browser" >"$tmp/http.log" 2>&1 &
http_pid=$!
page_port=$(wait_for_port "$http_pid" "$tmp/http.log" '^Serving HTTP on 127\.0\.0\.1 port ([0-9]+).*' "http.server") \
    || die "python3 -m http.server did not start"
page="http://localhost:$page_port"

# The web client is same-origin, so the server's own origin must be allowed too: its port is
# chosen here (a free one, from the kernel) instead of PORT=0.
api_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mail_env=()
mail_dir=""
if [ "${BROWSER_TEST_MAIL:-1}" = 1 ]; then
    [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null \
        || die "python3-aiosmtpd is missing (scripts/deps.sh --with-test-tools installs it)"
    smtp_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # A complete Maildir (aiosmtpd only creates tmp/, new/ and cur/ when the folder is missing).
    mkdir -p "$tmp/maildir/tmp" "$tmp/maildir/new" "$tmp/maildir/cur"
    /usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$smtp_port" -c aiosmtpd.handlers.Mailbox "$tmp/maildir" \
        >"$tmp/smtp.log" 2>&1 &
    smtp_pid=$!
    for _ in $(seq 100); do
        python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$smtp_port" \
            2>/dev/null && break
        kill -0 "$smtp_pid" 2>/dev/null || { cat "$tmp/smtp.log" >&2; die "aiosmtpd did not start"; }
        sleep 0.1
    done
    # Plain SMTP is allowed to a loopback host only; the Maildir's new/ holds what arrived.
    mail_dir="$tmp/maildir/new"
    mail_env=(MAIL_URL="smtp://127.0.0.1:$smtp_port")
fi
env "${mail_env[@]}" DATABASE_URL="$db_conn" HOST=127.0.0.1 PORT="$api_port" PASSKEY_RP_ID=localhost \
    PASSKEY_ORIGINS="$page,http://localhost:$api_port" CORS_ALLOWED_ORIGINS="$page" RATE_LIMIT_STARTS_PER_MINUTE=0 \
    LOG_LEVEL=info SHUTDOWN_DRAIN_SECONDS=0 PASSKEY_MIGRATIONS_DIR="$root/Migrations" PASSKEY_WEB_CLIENT_DIR="$root/WebClient" \
    "$exe" serve >"$tmp/server.log" 2>&1 &
server_pid=$!
listening=$(wait_for_port "$server_pid" "$tmp/server.log" '.*event=listening.* port=([0-9]+).*' "passkey-server") \
    || die "passkey-server did not start (port $api_port)"
[ "$listening" = "$api_port" ] || die "passkey-server listens on $listening, not $api_port"
api="http://localhost:$api_port"
for _ in $(seq 300); do # the server reports ready when its database answers
    curl_ok=$(python3 -c 'import sys, urllib.request as r
try: print(r.urlopen(sys.argv[1], timeout=2).status)
except Exception: print(0)' "http://127.0.0.1:$api_port/readyz")
    [ "$curl_ok" = 200 ] && break
    sleep 0.1
done
[ "$curl_ok" = 200 ] || { tail -n 20 "$tmp/server.log" >&2; die "passkey-server /readyz not 200 within 30 s"; }
phase "page $page, API $api"

# ---- 3. the browser test ----
# `timeout` puts the test in its own process group: cleanup stops chromedriver and Chromium with it.
PAGE_URL="$page" API_URL="$api" CHROMIUM_BIN="$chromium" CHROMEDRIVER_BIN="$chromedriver" WORK_DIR="$tmp" \
    SERVER_LOG="$tmp/server.log" SUMMARY_FILE="$tmp/summary" \
    timeout -k 10 300 "$venv/bin/python" -u Tests/browser/test_browser.py &
test_pid=$!
test_status=0
wait "$test_pid" || test_status=$?
test_pid=""
phase "browser tests finished (status $test_status)"

passed=0 failed=0
if [ -s "$tmp/summary" ]; then
    read -r passed failed <"$tmp/summary"
fi
passed=$((passed + catalogue_passed))
if [ "$test_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "FAIL test-runner: test_browser.py exited with status $test_status$([ "$test_status" -eq 124 ] && echo ' (timed out after 300 s)')"
    failed=$((failed + 1))
fi
failed=$((failed + catalogue_failed))

# ---- 4. the web client at /, through its visible controls ----
shots="$root/Tests/browser/screenshots"
rm -rf "$shots"
MAIL_DIR="$mail_dir" WEB_URL="$api" CHROMIUM_BIN="$chromium" CHROMEDRIVER_BIN="$chromedriver" WORK_DIR="$tmp" \
    SCREENSHOT_DIR="$shots" SUMMARY_FILE="$tmp/summary-web" \
    timeout -k 10 420 "$venv/bin/python" -u Tests/browser/test_web_client.py &
test_pid=$!
web_status=0
wait "$test_pid" || web_status=$?
test_pid=""
phase "web client tests finished (status $web_status, screenshots in Tests/browser/screenshots/)"
web_passed=0 web_failed=0
if [ -s "$tmp/summary-web" ]; then
    read -r web_passed web_failed <"$tmp/summary-web"
fi
if [ "$web_status" -ne 0 ] && [ "$web_failed" -eq 0 ]; then
    echo "FAIL test-runner: test_web_client.py exited with status $web_status$([ "$web_status" -eq 124 ] && echo ' (timed out after 420 s)')"
    web_failed=1
fi
passed=$((passed + web_passed))
failed=$((failed + web_failed))

# ---- 5. (v3) the operator page, on a server of its own whose database starts empty ----
operator_db="${db}_ops"
case "$base_conn" in
postgres://* | postgresql://*)
    operator_conn=$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$base_conn" "$operator_db")
    ;;
*) operator_conn="$(sed -E 's/(^|[[:space:]])dbname=[^[:space:]]*//g' <<<"$base_conn") dbname=$operator_db" ;;
esac
op_passed=0 op_failed=0
if timeout 30 psql -X -q -v ON_ERROR_STOP=1 -d "$base_conn" -c "CREATE DATABASE \"$operator_db\"" >/dev/null \
    && DATABASE_URL="$operator_conn" PASSKEY_MIGRATIONS_DIR="$root/Migrations" timeout 60 "$exe" migrate \
        >"$tmp/migrate-ops.log" 2>&1; then
    operator_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    operator_token="browser-test-operator-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
    DATABASE_URL="$operator_conn" HOST=127.0.0.1 PORT="$operator_port" PASSKEY_RP_ID=localhost \
        PASSKEY_ORIGINS="http://localhost:$operator_port" RATE_LIMIT_STARTS_PER_MINUTE=0 OPERATOR_TOKEN="$operator_token" \
        DATA_ENCRYPTION_KEY="$(head -c 32 /dev/urandom | base64)" LOG_LEVEL=info SHUTDOWN_DRAIN_SECONDS=0 PASSKEY_MIGRATIONS_DIR="$root/Migrations" PASSKEY_WEB_CLIENT_DIR="$root/WebClient" \
        "$exe" serve >"$tmp/server-ops.log" 2>&1 &
    operator_pid=$!
    if wait_for_port "$operator_pid" "$tmp/server-ops.log" '.*event=listening.* port=([0-9]+).*' "passkey-server (operator)" \
        >/dev/null; then
        OPERATOR_URL="http://localhost:$operator_port" OPERATOR_TOKEN="$operator_token" OPERATOR_DB="$operator_conn" \
            CHROMIUM_BIN="$chromium" CHROMEDRIVER_BIN="$chromedriver" WORK_DIR="$tmp" SCREENSHOT_DIR="$shots" \
            SUMMARY_FILE="$tmp/summary-ops" timeout -k 10 420 "$venv/bin/python" -u Tests/browser/test_operator.py &
        test_pid=$!
        op_status=0
        wait "$test_pid" || op_status=$?
        test_pid=""
        [ -s "$tmp/summary-ops" ] && read -r op_passed op_failed <"$tmp/summary-ops"
        if [ "$op_status" -ne 0 ] && [ "$op_failed" -eq 0 ]; then
            echo "FAIL test-runner: test_operator.py exited with status $op_status"
            op_failed=1
        fi
        phase "operator page tests finished (status $op_status)"
        if [ "$op_failed" -ne 0 ]; then
            echo "browser-test: operator server log (last 20 lines):" >&2
            tail -n 20 "$tmp/server-ops.log" | sed 's/^/    /' >&2
        fi
    else
        echo "FAIL operator_setup: the operator server did not start"
        op_failed=1
    fi
else
    echo "FAIL operator_setup: cannot create or migrate $operator_db"
    op_failed=1
fi
passed=$((passed + op_passed))
failed=$((failed + op_failed))
if [ "$failed" -ne 0 ]; then
    echo "browser-test: server log (last 20 lines):" >&2
    tail -n 20 "$tmp/server.log" | sed 's/^/    /' >&2
fi

cleanup
echo "browser-test: total $(( $(date +%s) - started_at )) s" >&2
echo "$passed passed, $failed failed"
summary_printed=1
[ "$failed" -eq 0 ]
