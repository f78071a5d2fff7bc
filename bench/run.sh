#!/usr/bin/env bash
# The passkey sign-in benchmark: Swift server, py_webauthn and duo-labs/webauthn reference servers,
# and PostgreSQL's own limit for the same SQL, side by side in one run. See bench/README.md and
# docs/benchmark.md.
#
#   bash bench/run.sh
#
# Knobs (environment): DURATION (s, default 20), WARMUP (s, 3), CONCURRENCY (32), ACCOUNTS (1024),
# DATABASE_POOL_SIZE (connections per server in total, 8), PY_WORKERS (2), PGBENCH_CLIENTS
# (default = CONCURRENCY), BENCH_ROWS (swift,swift-8,swift-flood,swift-open,token-mint,introspect-opaque,
# introspect-jwt,python,go,pgbench,pgbench-naive;
# also pgbench-pool), FLOOD (password flood workers of swift-flood, 8), OPEN_RATE (arrivals/s of
# swift-open; default half of the swift row's rate), BENCH_SCRATCH (the release build's scratch
# path, .build-bench), PERF (1 = also record a
# perf profile of the Swift server in the window (and of the baseline's, with BENCH_BASELINE_BIN), "loadgen" = of the load generator; perf adds
# overhead, so do not compare a profiled run's figures), BENCH_SKIP_INSTALL (1 = skip apt/pip checks),
# BENCH_BASELINE_BIN (an older passkey-server release binary, e.g. from bench/baseline.sh REV: each
# swift and swift-8 row is then preceded by the same row on that binary, swift-baseline and
# swift-8-baseline, with identical settings and database state; BENCH_BASELINE_ORDER=after runs
# the baseline row after this tree's instead, so that two runs, one of each order, cancel the
# drift of a run's later rows), BENCH_SERVER_BIN (a release passkey-server to run as this tree's
# rows instead of the one built here: a copy beside the baseline's, so both start alike).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH=$ROOT/bench

# BENCH_SMOKE=1 (make test): every row for a few seconds, on make test's release build, then
# fail unless every row ran without errors. It checks that the benchmark works; no figure is judged.
SMOKE=${BENCH_SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
    DURATION=${DURATION:-2}
    WARMUP=${WARMUP:-1}
    BENCH_SCRATCH=${BENCH_SCRATCH:-$ROOT/.build}
fi
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
CONCURRENCY=${CONCURRENCY:-32}
ACCOUNTS=${ACCOUNTS:-1024}
POOL=${DATABASE_POOL_SIZE:-8}
PY_WORKERS=${PY_WORKERS:-2}
PGBENCH_CLIENTS=${PGBENCH_CLIENTS:-$CONCURRENCY}
ROWS=${BENCH_ROWS:-swift,swift-8,swift-flood,swift-open,token-mint,introspect-opaque,introspect-jwt,python,go,pgbench,pgbench-naive}
# (v4) The token rows' server: a data key and one introspection client, fresh for each run.
INTROSPECTION_CLIENT="bench:$(head -c 36 /dev/urandom | base64 | tr -d '/+=')"
TOKEN_ENV="DATA_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64) INTROSPECTION_CLIENTS=$INTROSPECTION_CLIENT"
PERF=${PERF:-0}
FLOOD=${FLOOD:-8}
OPEN_RATE=${OPEN_RATE:-}
SCRATCH=${BENCH_SCRATCH:-$ROOT/.build-bench}
BASELINE=${BENCH_BASELINE_BIN:-}
BASELINE_ORDER=${BENCH_BASELINE_ORDER:-before}
case "$BASELINE_ORDER" in before | after) ;; *) echo "bench: BENCH_BASELINE_ORDER is before or after" >&2; exit 2 ;; esac

int_in() { [[ $2 =~ ^[0-9]+$ ]] && (($2 >= $3 && $2 <= $4)) || { echo "bench: $1 must be $3…$4 (got '$2')" >&2; exit 2; }; }
int_in DURATION "$DURATION" 1 300
int_in WARMUP "$WARMUP" 0 60
int_in CONCURRENCY "$CONCURRENCY" 1 512
int_in ACCOUNTS "$ACCOUNTS" "$CONCURRENCY" 100000
int_in DATABASE_POOL_SIZE "$POOL" 1 64
int_in PY_WORKERS "$PY_WORKERS" 1 16
int_in PGBENCH_CLIENTS "$PGBENCH_CLIENTS" 1 64
int_in FLOOD "$FLOOD" 1 256
[ -z "$OPEN_RATE" ] || int_in OPEN_RATE "$OPEN_RATE" 1 100000
((ACCOUNTS % CONCURRENCY == 0 && ACCOUNTS % PGBENCH_CLIENTS == 0 && ACCOUNTS % POOL == 0)) \
    || { echo "bench: ACCOUNTS must be a multiple of CONCURRENCY, PGBENCH_CLIENTS and DATABASE_POOL_SIZE" >&2; exit 2; }
((POOL % PY_WORKERS == 0)) || { echo "bench: DATABASE_POOL_SIZE must be a multiple of PY_WORKERS" >&2; exit 2; }
BASELINE_LABEL=""
if [ -n "$BASELINE" ]; then
    [ -f "$BASELINE" ] && [ -x "$BASELINE" ] \
        || { echo "bench: BENCH_BASELINE_BIN must be an executable passkey-server (got '$BASELINE')" >&2; exit 2; }
    BASELINE=$(realpath "$BASELINE")
    # bench/baseline.sh writes the commit beside the binary; otherwise (no .revision file: head
    # fails, which must not end the run under pipefail) the path is the label.
    BASELINE_LABEL=$( { head -n 1 "$BASELINE.revision" 2>/dev/null || true; } | cut -d' ' -f1)
    BASELINE_LABEL=${BASELINE_LABEL:-$BASELINE}
fi

log() { printf '[bench %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# 1. What it needs: Debian packages (as root), a venv for the Python server, three builds.
if [ "${BENCH_SKIP_INSTALL:-0}" != 1 ]; then
    scripts/deps.sh
    need=()
    command -v go >/dev/null || need+=(golang-go)
    command -v curl >/dev/null || need+=(curl)
    python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -x "$pg_bin/pgbench" ] || need+=(postgresql-contrib)
    # The Go row's libraries, built in GOPATH mode from /usr/share/gocode (no module proxy).
    for pkg in golang-github-duo-labs-webauthn-dev golang-github-jackc-pgx-v4-dev; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
    done
    if ((${#need[@]})); then
        if [ "$(id -u)" -eq 0 ]; then
            log "installing ${need[*]}"
            export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq
            apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
        else
            echo "bench: missing Debian packages: ${need[*]} (sudo apt-get install ${need[*]})" >&2
            exit 1
        fi
    fi
    stamp=$BENCH/.venv/.requirements.sha256
    want=$(sha256sum "$BENCH/pyserver/requirements.txt" | cut -d' ' -f1)
    if [ ! -x "$BENCH/.venv/bin/uvicorn" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        log "creating bench/.venv (PyPI: $(grep -v '^#' "$BENCH/pyserver/requirements.txt" | tr '\n' ' '))"
        python3 -m venv "$BENCH/.venv"
        "$BENCH/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$BENCH/pyserver/requirements.txt"
        echo "$want" >"$stamp"
    fi
fi
PG_BIN=${PASSKEY_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}

mkdir -p "$BENCH/.cache"
log "building passkey-server (release, scratch path ${SCRATCH#"$ROOT"/})"
# Other engineers may edit Sources/ meanwhile ("modified during the build"): try up to 3 times.
for attempt in 1 2 3; do
    if swift build -c release --product passkey-server --scratch-path "$SCRATCH" >"$BENCH/.cache/swift-build.log" 2>&1; then
        tail -n 1 "$BENCH/.cache/swift-build.log" >&2
        break
    fi
    grep -E "error|warning: " "$BENCH/.cache/swift-build.log" | head -n 20 >&2
    ((attempt < 3)) || { echo "bench: swift build failed (log: bench/.cache/swift-build.log)" >&2; exit 1; }
    log "build failed (attempt $attempt); retrying in 10 s"
    sleep 10
done
SERVER=${BENCH_SERVER_BIN:-$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/passkey-server}
[ -x "$SERVER" ] || { echo "bench: $SERVER was not built" >&2; exit 1; }

log "building the load generator (Go standard library only)"
mkdir -p "$BENCH/.bin" "$BENCH/.cache"
(cd "$BENCH/loadgen" && GOCACHE=$BENCH/.cache/go-build GOPATH=$BENCH/.cache/gopath GOPROXY=off GOFLAGS=-mod=mod \
    go build -o "$BENCH/.bin/loadgen" .)
LOADGEN=$BENCH/.bin/loadgen

# The Go row's server: GOPATH mode over Debian's /usr/share/gocode (duo-labs/webauthn, pgx v4),
# no module, no proxy, no network. Rebuilt when its sources change.
GOSERVER=$BENCH/.cache/goserver
go_stamp=$BENCH/.cache/goserver.sha256
go_want=$(cat "$BENCH"/goserver/*.go | sha256sum | cut -d' ' -f1)
if [ ! -x "$GOSERVER" ] || [ "$(cat "$go_stamp" 2>/dev/null)" != "$go_want" ]; then
    log "building the Go reference server (GOPATH mode: duo-labs/webauthn + pgx v4 from /usr/share/gocode)"
    mkdir -p "$BENCH/.cache/goserver-gopath"
    (cd "$BENCH/goserver" && GO111MODULE=off GOPATH=/usr/share/gocode:$BENCH/.cache/goserver-gopath \
        GOCACHE=$BENCH/.cache/go-build GOPROXY=off GOFLAGS='' go build -o "$GOSERVER.new" .)
    mv "$GOSERVER.new" "$GOSERVER"
    echo "$go_want" >"$go_stamp"
fi

# ---------------------------------------------------------------------------------------------
# 2. A throwaway PostgreSQL with durable settings; everything stopped on exit.
OUT=$BENCH/results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
TMP=$(mktemp -d /tmp/pkbench.XXXXXX)
SERVER_PID=""
PGBENCH_PID=""
cleanup() {
    set +e
    for pid in $SERVER_PID $PGBENCH_PID; do
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
    done
    "$ROOT/scripts/pg.sh" stop "$TMP" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

unset PG_NOSYNC PG_EXTRA_OPTIONS
PGPORT=$((20000 + RANDOM % 20000))
log "starting PostgreSQL (fsync=on, synchronous_commit=on) in $TMP"
CONNINFO=$(PG_EXTRA_OPTIONS="-c fsync=on -c synchronous_commit=on -c full_page_writes=on -c max_connections=100 -c shared_buffers=256MB" \
    "$ROOT/scripts/pg.sh" start "$TMP" "$PGPORT")
PG_PID=$(head -n 1 "$TMP/data/postmaster.pid")
psql_() { "$PG_BIN/psql" "$CONNINFO" -X -q -v ON_ERROR_STOP=1 "$@"; }
psql_ -At -c "SELECT name || '=' || current_setting(name) FROM pg_settings
              WHERE name IN ('fsync','synchronous_commit','full_page_writes','wal_sync_method','shared_buffers','server_version')
              ORDER BY name" >"$OUT/postgres-settings.txt"
grep -q '^fsync=on$' "$OUT/postgres-settings.txt" && grep -q '^synchronous_commit=on$' "$OUT/postgres-settings.txt" \
    || { echo "bench: PostgreSQL is not durable:" >&2; cat "$OUT/postgres-settings.txt" >&2; exit 1; }

log "migrating and seeding $ACCOUNTS accounts with one ES256 passkey each"
DATABASE_URL=$CONNINFO PASSKEY_MIGRATIONS_DIR=$ROOT/Migrations "$SERVER" migrate >"$OUT/migrate.log" 2>&1 \
    || { cat "$OUT/migrate.log" >&2; exit 1; }
"$LOADGEN" seed -accounts "$ACCOUNTS" | psql_ >/dev/null

# TRUNCATE comes after VACUUM ANALYZE: a table analyzed while empty (reltuples = 0) makes the
# planner cache a sequential-scan plan for the primary-key lookups of the challenges, which then
# scans the growing table on every statement until autovacuum analyzes it again (up to a minute,
# longer than a row). A truncated table has reltuples = -1 ("unknown"), and the index is used.
reset_db() {
    psql_ -c "UPDATE passkey_credentials SET sign_count = 0, backup_state = false, last_used_at = NULL" \
        -c "VACUUM ANALYZE" -c "TRUNCATE authentication_sessions, passkey_authentication_challenges" -c "CHECKPOINT"
}
sessions() { psql_ -At -c "SELECT count(*) FROM authentication_sessions"; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_ready() { # url pid
    for _ in $(seq 1 120); do
        curl -sf -o /dev/null "$1/healthz" && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.25
    done
    return 1
}

stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

load() { # name url [extra loadgen flags…]
    local name=$1 url=$2
    shift 2
    local perf_pid=""
    if [ "$PERF" = 1 ] && { [ "$name" = swift ] || [ "$name" = swift-baseline ]; } && command -v perf >/dev/null; then
        (sleep "$WARMUP"; exec perf record -F 499 -g -p "$SERVER_PID" -o "$OUT/perf-$name.data" -- sleep "$DURATION") \
            >"$OUT/perf-record-$name.log" 2>&1 &
        perf_pid=$!
    fi
    if [ "$PERF" = loadgen ]; then
        (sleep "$WARMUP"; exec perf record -F 499 -g -p "$(pgrep -n -f "^$LOADGEN run")" -o "$OUT/perf-loadgen.data" -- sleep "$DURATION") \
            >"$OUT/perf-record.log" 2>&1 &
    fi
    "$LOADGEN" run -url "$url" -accounts "$ACCOUNTS" -concurrency "$CONCURRENCY" -warmup "${WARMUP}s" \
        -duration "${DURATION}s" -watch "server=$SERVER_PID,postgres=$PG_PID" -out "$OUT/$name.json" "$@"
    if [ -n "$perf_pid" ]; then
        wait "$perf_pid" || true
        { perf report -i "$OUT/perf-$name.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^$' | head -n 30
          perf report -i "$OUT/perf-$name.data" --children --sort symbol --stdio -g none 2>/dev/null | grep -v '^$' | head -n 150
        } >"$OUT/perf-$name.txt" || true
    fi
}

# ---------------------------------------------------------------------------------------------
# 3. The rows.
run_swift() { # name [extra loadgen flags…]: the same server for rows swift, swift-8, swift-flood, swift-open
    # ROW_SERVER: the binary to run (default this tree's release build; the baseline rows set it).
    local name=$1 bin=${ROW_SERVER:-$SERVER}
    shift
    reset_db
    local port; port=$(free_port)
    log "($name) Swift passkey-server${ROW_SERVER:+ (baseline $BASELINE_LABEL)} on 127.0.0.1:$port, pool $POOL, loadgen ${*:-closed loop, $CONCURRENCY connections}"
    # The flood row's wrong passwords all come from 127.0.0.1: the per-address failure limit is
    # raised so that each one costs the server a hash (what a flood from many addresses does).
    # ROW_ENV: more variables for the row's server (the token rows turn tokens and introspection on).
    # shellcheck disable=SC2086 # ROW_ENV is a list of NAME=value words
    env ${ROW_ENV:-} DATABASE_URL="$CONNINFO" HOST=127.0.0.1 PORT="$port" PASSKEY_RP_ID=localhost \
        PASSKEY_ORIGINS=http://localhost:8080 RATE_LIMIT_STARTS_PER_MINUTE=0 LOG_LEVEL=warning \
        RATE_LIMIT_PASSWORD_PER_ADDRESS=1000000 SHUTDOWN_DRAIN_SECONDS=0 \
        DATABASE_POOL_SIZE="$POOL" PASSKEY_MIGRATIONS_DIR="$ROOT/Migrations" PASSKEY_OPENAPI_FILE="$ROOT/openapi.json" \
        "$bin" serve >"$OUT/$name-server.log" 2>&1 &
    SERVER_PID=$!
    wait_ready "http://127.0.0.1:$port" "$SERVER_PID" || { tail -n 20 "$OUT/$name-server.log" >&2; exit 1; }
    load "$name" "http://127.0.0.1:$port" "$@"
    stop_server
    sessions >"$OUT/$name-sessions.txt"
}

run_python() {
    reset_db
    local port; port=$(free_port)
    log "(b) Python py_webauthn server (uvicorn, $PY_WORKERS workers, $((POOL / PY_WORKERS)) connections each) on 127.0.0.1:$port"
    env DATABASE_URL="$CONNINFO" PASSKEY_RP_ID=localhost PASSKEY_ORIGINS=http://localhost:8080 \
        DATABASE_POOL_SIZE=$((POOL / PY_WORKERS)) \
        "$BENCH/.venv/bin/uvicorn" app:app --app-dir "$BENCH/pyserver" --host 127.0.0.1 --port "$port" \
        --workers "$PY_WORKERS" --loop uvloop --http httptools --no-access-log --log-level warning \
        >"$OUT/python-server.log" 2>&1 &
    SERVER_PID=$!
    wait_ready "http://127.0.0.1:$port" "$SERVER_PID" || { tail -n 20 "$OUT/python-server.log" >&2; exit 1; }
    sleep 1 # every worker up, pools open
    load python "http://127.0.0.1:$port"
    stop_server
    sessions >"$OUT/python-sessions.txt"
}

run_go() {
    reset_db
    local port; port=$(free_port)
    log "(b-go) Go duo-labs/webauthn + pgx server (net/http, one process, $POOL connections) on 127.0.0.1:$port"
    env DATABASE_URL="$CONNINFO" HOST=127.0.0.1 PORT="$port" PASSKEY_RP_ID=localhost \
        PASSKEY_ORIGINS=http://localhost:8080 DATABASE_POOL_SIZE="$POOL" \
        "$GOSERVER" >"$OUT/go-server.log" 2>&1 &
    SERVER_PID=$!
    wait_ready "http://127.0.0.1:$port" "$SERVER_PID" || { tail -n 20 "$OUT/go-server.log" >&2; exit 1; }
    load go "http://127.0.0.1:$port"
    stop_server
    sessions >"$OUT/go-sessions.txt"
}

run_pgbench() { # name clients script
    local name=$1 clients=$2 script=$3
    reset_db
    log "($name) PostgreSQL: pgbench, $clients clients, $script"
    local host; host=$(sed -E 's/.*host=([^ ]+).*/\1/' <<<"$CONNINFO")
    "$PG_BIN/pgbench" -h "$host" -p "$PGPORT" -U postgres -n -M prepared -r \
        -c "$clients" -j 2 -T $((WARMUP + DURATION + 2)) \
        -D nclients="$clients" -D naccounts="$ACCOUNTS" \
        -f "$BENCH/pgbench/$script" -l --log-prefix="$TMP/$name-log" postgres \
        >"$OUT/$name.txt" 2>&1 &
    PGBENCH_PID=$!
    "$LOADGEN" sample -warmup "${WARMUP}s" -duration "${DURATION}s" \
        -watch "pgbench=$PGBENCH_PID,postgres=$PG_PID" -out "$OUT/$name-cpu.json"
    local status=0
    wait "$PGBENCH_PID" || status=$?
    PGBENCH_PID=""
    echo "$status" >"$OUT/$name-status.txt"
    echo "$clients" >"$OUT/$name-clients.txt"
    cat "$TMP/$name-log".* >"$OUT/$name-transactions.log" 2>/dev/null || true
    sessions >"$OUT/$name-sessions.txt"
}

{
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "nproc=$(nproc)"
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "loadavg_before=$(cat /proc/loadavg)"
    echo "duration=$DURATION warmup=$WARMUP concurrency=$CONCURRENCY accounts=$ACCOUNTS pool=$POOL py_workers=$PY_WORKERS pgbench_clients=$PGBENCH_CLIENTS flood=$FLOOD"
    echo "swift=$(swift --version 2>/dev/null | head -n 1)"
    echo "python=$("$BENCH/.venv/bin/python" --version 2>&1)"
    echo "go=$(go version 2>/dev/null | cut -d' ' -f3) $(dpkg-query -W -f='duo-labs-webauthn ${Version}, ' golang-github-duo-labs-webauthn-dev 2>/dev/null)$(dpkg-query -W -f='pgx ${Version}' golang-github-jackc-pgx-v4-dev 2>/dev/null)"
    echo "git=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet HEAD -- Sources 2>/dev/null || echo ' (Sources modified)')"
    if [ -n "$BASELINE" ]; then
        echo "baseline=$BASELINE_LABEL"
        echo "baseline_bin=$BASELINE"
        echo "baseline_revision=$(head -n 1 "$BASELINE.revision" 2>/dev/null)"
        # The database is migrated by this tree; a baseline whose own Migrations/ differ (when
        # bench/baseline.sh copied them) runs against a schema it was not written for.
        if [ -d "$(dirname "$BASELINE")/Migrations" ]; then
            if diff -rq "$(dirname "$BASELINE")/Migrations" "$ROOT/Migrations" >/dev/null 2>&1; then
                echo "baseline_migrations=same"
            else
                echo "baseline_migrations=differ"
            fi
        else
            echo "baseline_migrations=unknown"
        fi
    fi
} >"$OUT/environment.txt"
if grep -q '^baseline_migrations=differ$' "$OUT/environment.txt"; then
    log "warning: the baseline's Migrations/ differ from this tree's; it runs on this tree's schema"
fi

IFS=, read -ra rows <<<"$ROWS"
ran=()
for row in "${rows[@]}"; do
    ran+=("$row")
    case "$row" in
    swift)
        [ "$BASELINE_ORDER" = after ] && run_swift swift
        if [ -n "$BASELINE" ]; then
            ROW_SERVER=$BASELINE run_swift swift-baseline
            ran+=(swift-baseline)
        fi
        [ "$BASELINE_ORDER" = after ] || run_swift swift ;;
    swift-8)
        [ "$BASELINE_ORDER" = after ] && CONCURRENCY=8 run_swift swift-8
        if [ -n "$BASELINE" ]; then
            CONCURRENCY=8 ROW_SERVER=$BASELINE run_swift swift-8-baseline
            ran+=(swift-8-baseline)
        fi
        [ "$BASELINE_ORDER" = after ] || CONCURRENCY=8 run_swift swift-8 ;;
    swift-flood) run_swift swift-flood -flood "$FLOOD" ;;
    token-mint | introspect-opaque | introspect-jwt)
        # (v4) One request per loop: a mint, or an introspection of a session token or a JWT, next
        # to passkey sign-in in the same run (docs/benchmark.md, "Tokens").
        ROW_ENV="$TOKEN_ENV" run_swift "$row" -mode "${row#token-}" -introspection-client "$INTROSPECTION_CLIENT" ;;
    swift-open)
        rate=$OPEN_RATE
        if [ -z "$rate" ]; then
            rate=$(python3 -c 'import json,sys; print(max(1, int(json.load(open(sys.argv[1]))["ceremonies_per_second"] / 2)))' \
                "$OUT/swift.json" 2>/dev/null) || { echo "bench: swift-open needs the swift row first, or OPEN_RATE" >&2; exit 2; }
        fi
        run_swift swift-open -rate "$rate" ;;
    python) run_python ;;
    go) run_go ;;
    pgbench) run_pgbench pgbench "$PGBENCH_CLIENTS" ceremony.sql ;;
    pgbench-pool) run_pgbench pgbench-pool "$POOL" ceremony.sql ;;
    pgbench-naive) run_pgbench pgbench-naive "$PGBENCH_CLIENTS" naive.sql ;;
    *) echo "bench: unknown row '$row' in BENCH_ROWS" >&2; exit 2 ;;
    esac
done
echo "loadavg_after=$(cat /proc/loadavg)" >>"$OUT/environment.txt"

python3 "$BENCH/report.py" "$OUT" | tee "$OUT/summary.md"
log "raw results in ${OUT#"$ROOT"/}"
if [ "$SMOKE" = 1 ]; then
    python3 "$BENCH/report.py" --check "$(IFS=,; echo "${ran[*]}")" "$OUT"
fi
