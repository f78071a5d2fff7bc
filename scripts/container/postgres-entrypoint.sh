#!/bin/bash
# The stand-in postgres:15 image's entrypoint: the official image's contract, reduced to what a
# compose file uses. On an empty $PGDATA: initdb with POSTGRES_USER (default postgres) as the
# superuser and POSTGRES_PASSWORD as its password, scram-sha-256 over TCP, trust on the local
# socket (as the official image), and a database POSTGRES_DB (default: the user's name). As the
# official image, each of the three may instead be read from the file VAR_FILE names (compose
# `secrets`).
set -euo pipefail

for var in POSTGRES_USER POSTGRES_PASSWORD POSTGRES_DB; do
    file_var=${var}_FILE
    if [ -n "${!file_var:-}" ]; then
        if [ -n "${!var:-}" ]; then
            echo "entrypoint: both $var and $file_var are set" >&2
            exit 1
        fi
        export "$var=$(<"${!file_var}")"
        unset "$file_var"
    fi
done

if [ "${1:-}" != postgres ]; then exec "$@"; fi

as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }

: "${PGDATA:=/var/lib/postgresql/data}"
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
chmod 2775 /var/run/postgresql

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "entrypoint: POSTGRES_PASSWORD is not set (the official image refuses to start too)" >&2
        exit 1
    fi
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    chown postgres "$pwfile"
    as_postgres initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    if [ "$db" != postgres ]; then
        as_postgres pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
        as_postgres psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres \
            -c "CREATE DATABASE \"$db\" OWNER \"$user\""
        as_postgres pg_ctl -D "$PGDATA" -w -m fast stop >/dev/null
    fi
    echo "entrypoint: initialised $PGDATA (user $user, database $db)"
fi

exec setpriv --reuid=postgres --regid=postgres --init-groups -- postgres -D "$PGDATA" "${@:2}"
