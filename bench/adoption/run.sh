#!/usr/bin/env bash
# make bench-adoption (not part of make test): the adoption figures and the activity page at
# scale. Starts its own throwaway PostgreSQL, applies the real migrations with
# `passkey-server migrate`, seeds 1,000,000 accounts of mixed stages and 10,000,000 events over
# the past year (bench/adoption/seed.sql, INSERT … SELECT generate_series), VACUUM ANALYZE, then
# times `passkey-server adoption --days 30|366 --json` (the same use case and SQL as
# GET /v1/operator/adoption; process start included) and the activity page of an account with
# 10,000 events (the SQL of GET /v1/account/activity, through pgbench), and prints
# EXPLAIN (ANALYZE, BUFFERS) of each query. Results: docs/adoption.md, docs/benchmark.md.
#
# Knobs: BENCH_ACCOUNTS (1000000), BENCH_EVENTS (10000000), BENCH_HEAVY_EVENTS (10000),
# BENCH_RUNS (5), BENCH_PG_PORT (5490), BENCH_OUT (.build/bench-adoption: the table of days=30 and the EXPLAIN output).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ACCOUNTS=${BENCH_ACCOUNTS:-1000000}
EVENTS=${BENCH_EVENTS:-10000000}
HEAVY=${BENCH_HEAVY_EVENTS:-10000}
RUNS=${BENCH_RUNS:-5}
PORT=${BENCH_PG_PORT:-5490}
OUT=${BENCH_OUT:-$ROOT/.build/bench-adoption}
mkdir -p "$OUT"

DIR=$(mktemp -d /tmp/pg-adoption.XXXXXX)
cleanup() { scripts/pg.sh stop "$DIR" || true; rm -rf "$DIR"; }
trap cleanup EXIT
echo "bench-adoption: PostgreSQL in $DIR" >&2
CONNINFO=$(PG_NOSYNC=1 PG_EXTRA_OPTIONS="-c fsync=off -c full_page_writes=off -c max_wal_size=8GB \
    -c checkpoint_timeout=1h -c shared_buffers=512MB" scripts/pg.sh start "$DIR" "$PORT")
psql_() { psql -X -q -v ON_ERROR_STOP=1 "$CONNINFO" "$@"; }

swift build --product passkey-server 2>&1 | grep -E "error|warning: [^y]" >&2 || true
BIN=$(swift build --show-bin-path)/passkey-server
[ -x "$BIN" ] || { echo "bench-adoption: $BIN not built" >&2; exit 1; }
export DATABASE_URL=$CONNINFO LOG_LEVEL=warning
"$BIN" migrate >/dev/null

start=$(date +%s)
psql_ -v accounts="$ACCOUNTS" -v events="$EVENTS" -v heavy="$HEAVY" -f bench/adoption/seed.sql
echo "bench-adoption: seeded in $(($(date +%s) - start)) s" >&2
psql_ -At -c "SELECT pg_size_pretty(pg_total_relation_size('account_events'))" | sed 's/^/account_events with indexes: /'
psql_ -At -c "SELECT indexrelname || ' ' || pg_size_pretty(pg_relation_size(indexrelid)) FROM pg_stat_user_indexes WHERE relname = 'account_events' ORDER BY 1"

# Median of RUNS wall times (ms) of a command.
median_ms() {
    local times=() t0 t1
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        "$@" >/dev/null
        t1=$(date +%s%N)
        times+=($(((t1 - t0) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " ms (runs: " NR ")"}'
}
# The first request of a window counts its closed days from the events and keeps them
# (account_event_days): timed once on its own, then the median of RUNS more.
for days in 366 30; do
    t0=$(date +%s%N)
    "$BIN" adoption --days "$days" >"$OUT/adoption-$days.txt"
    echo "adoption --days $days, first (counts the closed days): $((($(date +%s%N) - t0) / 1000000)) ms"
done
echo "adoption --days 30:  $(median_ms "$BIN" adoption --days 30 --json)"
echo "adoption --days 366: $(median_ms "$BIN" adoption --days 366 --json)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# The activity page: the keyset query of GET /v1/account/activity (limit 50, +1 to know `next`),
# the first page and one half-way back (HEAVY/2 events older than the newest).
HEAVY_ACCOUNT=00000000-0000-4000-8000-000000000001
cat >"$DIR/page.sql" <<SQL
SELECT id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id
FROM account_events WHERE account_id = '$HEAVY_ACCOUNT'
ORDER BY occurred_at DESC, id DESC LIMIT 51;
SQL
BEFORE=$(psql_ -At -c "SELECT occurred_at || '|' || id FROM account_events WHERE account_id = '$HEAVY_ACCOUNT' ORDER BY occurred_at DESC, id DESC OFFSET $((HEAVY / 2)) LIMIT 1")
cat >"$DIR/page-before.sql" <<SQL
SELECT id, kind, occurred_at, client_address, user_agent, method, credential_id, session_id
FROM account_events WHERE account_id = '$HEAVY_ACCOUNT'
  AND (occurred_at, id) < ('${BEFORE%%|*}'::timestamptz, '${BEFORE##*|}'::uuid)
ORDER BY occurred_at DESC, id DESC LIMIT 51;
SQL
for page in page page-before; do
    latency=$(pgbench -n -c 1 -t 200 -f "$DIR/$page.sql" "$CONNINFO" 2>/dev/null | awk -F' = ' '/latency average/ {print $2}')
    echo "activity $page (account with $(psql_ -At -c "SELECT count(*) FROM account_events WHERE account_id = '$HEAVY_ACCOUNT'") events): $latency"
done

# EXPLAIN (ANALYZE, BUFFERS) of every query, with the SQL the repository sends.
{
    for days in 30 366; do
        echo "== days=$days"
        first=$(date -u -d "today -$((days - 1)) days" +%Y-%m-%d)
        psql_ -v first="$first" -v last="$(date -u +%Y-%m-%d)" -v start="${first}T00:00:00Z" \
            -v end="$(date -u -d tomorrow +%Y-%m-%dT00:00:00Z)" -f bench/adoption/explain.sql
    done
    echo "== activity page"
    psql_ -c "EXPLAIN (ANALYZE, BUFFERS) $(cat "$DIR/page.sql")"
    echo "== activity page half-way back"
    psql_ -c "EXPLAIN (ANALYZE, BUFFERS) $(cat "$DIR/page-before.sql")"
} >"$OUT/explain.txt" 2>&1
echo "bench-adoption: EXPLAIN (ANALYZE, BUFFERS) in $OUT/explain.txt" >&2
