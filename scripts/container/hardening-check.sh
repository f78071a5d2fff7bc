#!/usr/bin/env bash
# The stack's hardening, checked inside the running stack (scripts/container-test.sh runs it after
# the walk-through; docs/containers.md):
#
#   hardening-check.sh POSTGRES_CONTAINER SERVER_CONTAINER MIGRATE_CONTAINER PORT SECRETS_DIR
#
# The server's database role (passkey_server, connecting with its own password over TCP as the
# server does) is not superuser, cannot create a table (nor a temporary one), alter or drop one,
# but reads and writes them; the tables belong to passkey_migrator; every client connection the
# server holds is passkey_server's. The server process has no capabilities and no-new-privileges,
# PostgreSQL only the five its entrypoint needs; no secret is in a container's configured
# environment; the password file is the server user's, mode 600; the port is published on
# 127.0.0.1 only and PostgreSQL's not at all; /metrics needs the token. Exit 1 when any fails.
set -euo pipefail
pg=$1 server=$2 migrate=$3 port=$4 secrets=$5
failures=0

check() {
    local what=$1
    shift
    if "$@"; then
        echo "    ok    $what"
    else
        echo "    FAIL  $what" >&2
        failures=$((failures + 1))
    fi
}

# psql inside the postgres container: as the server's role over TCP with its password, or as the
# superuser over the local socket.
as_server() {
    podman exec -e PGPASSWORD="$(cat "$secrets/server_password")" "$pg" \
        psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -U passkey_server -d passkey -c "$1" 2>&1
}
as_superuser() { podman exec "$pg" psql -X -q -At -v ON_ERROR_STOP=1 -U postgres -d passkey -c "$1" 2>&1; }
refused() { local out; ! out=$(as_server "$1") && grep -q "permission denied\|must be owner" <<<"$out"; }
equals() { [ "$1" = "$2" ] || { echo "          got: $1" >&2; return 1; }; }
status_line() { podman exec "$1" sh -c 'cat /proc/1/status' | awk -v k="$2:" '$1 == k { print $2 }'; }
http_status() {
    python3 - "$@" <<'PY'
import sys, urllib.error, urllib.request
request = urllib.request.Request(sys.argv[1], headers={"Authorization": "Bearer " + sys.argv[2]} if len(sys.argv) > 2 else {})
try:
    print(urllib.request.urlopen(request, timeout=10).status)
except urllib.error.HTTPError as error:
    print(error.code)
PY
}

check "passkey_server is not superuser" equals "$(as_server "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")" f
check "passkey_server cannot CREATE TABLE" refused "CREATE TABLE hardening_probe (x int)"
check "passkey_server cannot CREATE TEMP TABLE" refused "CREATE TEMP TABLE hardening_probe (x int)"
check "passkey_server cannot ALTER TABLE" refused "ALTER TABLE accounts ADD COLUMN hardening_probe int"
check "passkey_server cannot DROP TABLE" refused "DROP TABLE schema_migrations"
check "passkey_server cannot create a role" refused "CREATE ROLE hardening_probe"
check "passkey_server reads the tables" equals "$(as_server "SELECT count(*) > 0 FROM accounts")" t
check "every table belongs to passkey_migrator" \
    equals "$(as_superuser "SELECT string_agg(DISTINCT tableowner, ',') FROM pg_tables WHERE schemaname = 'public'")" \
    passkey_migrator
podman exec "$server" passkey-server healthcheck --ready >/dev/null  # the server uses its pool now
check "the server's database connections are all passkey_server's" equals "$(as_superuser "
    SELECT string_agg(DISTINCT usename, ',') FROM pg_stat_activity
    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")" passkey_server

check "the server process has no capabilities" equals "$(status_line "$server" CapEff)/$(status_line "$server" CapBnd)" \
    0000000000000000/0000000000000000
check "the server process has no-new-privileges" equals "$(status_line "$server" NoNewPrivs)" 1
# CHOWN, DAC_OVERRIDE, FOWNER, SETGID, SETUID: bits 0, 1, 3, 6, 7.
check "PostgreSQL keeps only the five capabilities it starts with" equals "$(status_line "$pg" CapBnd)" 00000000000000cb
check "PostgreSQL has no-new-privileges" equals "$(status_line "$pg" NoNewPrivs)" 1
check "migrate ran without capabilities" \
    equals "$(podman inspect --format '{{.EffectiveCaps}}' "$migrate")" "[]"

environment=$(for c in "$pg" "$server" "$migrate"; do podman inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$c"; done)
no_secret_in_environment() {
    local s
    for s in postgres_password migrator_password server_password metrics_token; do
        ! grep -qF "$(cat "$secrets/$s")" <<<"$environment" || { echo "          $s is in an environment" >&2; return 1; }
    done
}
check "no secret is in a container's environment" no_secret_in_environment
check "the password file is the server user's, mode 600" \
    equals "$(podman exec "$server" stat -c '%a %U' /tmp/passkey.pgpass)" "600 passkey"

check "the server is published on 127.0.0.1 only" equals "$(podman port "$server")" "8080/tcp -> 127.0.0.1:$port"
check "PostgreSQL is not published" equals "$(podman port "$pg")" ""
check "/metrics without the token is 401" equals "$(http_status "http://127.0.0.1:$port/metrics")" 401
check "/metrics with the token is 200" \
    equals "$(http_status "http://127.0.0.1:$port/metrics" "$(cat "$secrets/metrics_token")")" 200

((failures == 0)) || { echo "    $failures hardening check(s) failed" >&2; exit 1; }
