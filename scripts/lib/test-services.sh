# shellcheck shell=bash
# Shared by the test stages that run their own server (browser-test.sh, schemathesis.sh).
# Source it after setting `log_prefix` (e.g. "browser-test"); it defines:
#   stop_pid PID [group]      TERM (the process group with `group`), wait up to 10 s, then KILL
#   drop_database CONN DB     drop a throwaway database (WITH FORCE), saying so when it cannot
: "${log_prefix:?set log_prefix before sourcing scripts/lib/test-services.sh}"

stop_pid() {
    local pid=$1 target=$1
    [ -n "$pid" ] || return 0
    [ "${2:-}" = group ] && target="-$pid"
    kill -TERM -- "$target" 2>/dev/null || return 0
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
        sleep 0.1
    done
    echo "$log_prefix: pid $pid did not stop in 10 s, killing it" >&2
    kill -KILL -- "$target" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

drop_database() {
    local conn=$1 db=$2
    [ -n "$db" ] || return 0
    timeout 30 psql -X -q -v ON_ERROR_STOP=1 -d "$conn" \
        -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 \
        || echo "$log_prefix: could not drop database $db" >&2
}
