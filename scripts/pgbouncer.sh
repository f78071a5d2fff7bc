#!/usr/bin/env bash
# Debian's PgBouncer (1.18) in transaction pooling mode in front of a local PostgreSQL, for tests.
#   scripts/pgbouncer.sh start DIR PORT UPSTREAM_SOCKET_DIR UPSTREAM_PORT   start, print a conninfo
#   scripts/pgbouncer.sh stop DIR
# Any database name is forwarded to the same-named database upstream (`* =`), user postgres,
# trust authentication, Unix socket only. As root it runs as `postgres` (PgBouncer refuses root).
set -euo pipefail

as_pg() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd=${1:?usage: pgbouncer.sh start DIR PORT UPSTREAM_SOCKET_DIR UPSTREAM_PORT | stop DIR}
dir=${2:?directory}
case "$cmd" in
start)
    port=${3:?port}
    upstream_dir=${4:?upstream socket directory}
    upstream_port=${5:?upstream port}
    command -v pgbouncer >/dev/null || { echo "pgbouncer: not installed (apt-get install pgbouncer)" >&2; exit 1; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$upstream_dir port=$upstream_port
[pgbouncer]
listen_addr =
listen_port = $port
unix_socket_dir = $dir
auth_type = trust
auth_file = $dir/users.txt
pool_mode = transaction
max_client_conn = 400
default_pool_size = 40
max_db_connections = 0
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    echo '"postgres" ""' >"$dir/users.txt"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/pgbouncer.ini" "$dir/users.txt"
    as_pg pgbouncer -d "$dir/pgbouncer.ini" >/dev/null 2>&1 || { tail -n 20 "$dir/pgbouncer.log" >&2; exit 1; }
    for _ in $(seq 50); do [ -S "$dir/.s.PGSQL.$port" ] && break; sleep 0.1; done
    [ -S "$dir/.s.PGSQL.$port" ] || { echo "pgbouncer: did not start" >&2; tail -n 20 "$dir/pgbouncer.log" >&2; exit 1; }
    echo "host=$dir port=$port user=postgres dbname=postgres"
    ;;
stop)
    if [ -f "$dir/pgbouncer.pid" ]; then
        kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
        for _ in $(seq 50); do [ -f "$dir/pgbouncer.pid" ] || break; sleep 0.1; done
    fi
    ;;
*) echo "usage: pgbouncer.sh start DIR PORT UPSTREAM_SOCKET_DIR UPSTREAM_PORT | stop DIR" >&2; exit 2 ;;
esac
