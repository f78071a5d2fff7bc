#!/usr/bin/env bash
# A local PostgreSQL for development and tests, on a Unix socket only.
#   scripts/pg.sh start DIR PORT   initialise DIR/data if needed, start, print a libpq conninfo
#   scripts/pg.sh stop DIR         stop it (fast)
# As root the server runs as the `postgres` user (PostgreSQL refuses root).
set -euo pipefail

bin=${PASSKEY_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$bin/initdb" ] || { echo "pg: PostgreSQL server binaries not found (install postgresql)" >&2; exit 1; }

as_pg() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd=${1:?usage: pg.sh start DIR PORT | stop DIR}
dir=${2:?directory}
case "$cmd" in
start)
    port=${3:?port}
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
        # postgres must be able to reach the folder through every parent.
        p=$dir; while [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 ${PG_NOSYNC:+--no-sync} >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    extra=${PG_EXTRA_OPTIONS:-}
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 \
        -o "-k $dir -p $port -c listen_addresses='' $extra" start >/dev/null \
        || { tail -n 20 "$dir/log" >&2; exit 1; }
    echo "host=$dir port=$port user=postgres dbname=postgres"
    ;;
stop)
    [ -f "$dir/data/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
*) echo "usage: pg.sh start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
