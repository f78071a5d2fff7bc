#!/bin/sh
# The server image's entrypoint: secrets from files (compose `secrets`), then `passkey-server`.
#
#   DATABASE_PASSWORD_FILE  the database password: written to a libpq password file (PGPASSFILE,
#                           default /tmp/passkey.pgpass, mode 0600; libpq reads it for every
#                           connection), so it is in no environment variable and no command line.
#                           DATABASE_URL then names host, database and user only.
#   METRICS_TOKEN_FILE      METRICS_TOKEN is read from this file.
#
# A named file that is missing, unreadable, empty or holds more than one line stops the container
# with a one-line error. `docker compose exec server passkey-server …` skips this script: it finds
# the password file through PGPASSFILE, which the compose file sets for the whole container.
set -eu

fail() {
    echo "passkey-entrypoint: $*" >&2
    exit 1
}

# The file's one line (without its newline); fails on anything else.
secret() {
    [ -r "$2" ] || fail "$1 ($2) is not a readable file"
    [ "$(wc -l <"$2")" -le 1 ] || fail "$1 ($2) has more than one line"
    value=$(cat "$2")
    [ -n "$value" ] || fail "$1 ($2) is empty"
    printf '%s' "$value"
}

if [ -n "${DATABASE_PASSWORD_FILE:-}" ]; then
    password=$(secret DATABASE_PASSWORD_FILE "$DATABASE_PASSWORD_FILE")
    PGPASSFILE=${PGPASSFILE:-/tmp/passkey.pgpass}
    export PGPASSFILE
    # host:port:database:user:password, with ':' and '\' escaped; libpq ignores the file unless
    # only its owner can read it.
    (umask 077 && printf '*:*:*:*:%s\n' "$(printf '%s' "$password" | sed 's/[\\:]/\\&/g')" >"$PGPASSFILE") \
        || fail "cannot write the password file $PGPASSFILE (a tmpfs /tmp is expected)"
    unset password
fi

if [ -n "${METRICS_TOKEN_FILE:-}" ]; then
    METRICS_TOKEN=$(secret METRICS_TOKEN_FILE "$METRICS_TOKEN_FILE")
    export METRICS_TOKEN
fi

exec passkey-server "$@"
