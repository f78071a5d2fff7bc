#!/usr/bin/env bash
# `make run`: installs what is missing, builds, starts a local PostgreSQL (data kept in
# .postgres/ between runs) unless DATABASE_URL is set, migrates, then serves; mails go to
# .mail/ unless MAIL_URL is set.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh
swift build -c release --product passkey-server
exe=$(swift build -c release --show-bin-path)/passkey-server

if [ -z "${DATABASE_URL:-}" ]; then
    dir=$PWD/.postgres
    port=${PGPORT_LOCAL:-5439}
    DATABASE_URL=$(scripts/pg.sh start "$dir" "$port")
    export DATABASE_URL
    trap 'scripts/pg.sh stop "$dir"' EXIT
    echo "run: local PostgreSQL at $DATABASE_URL (data in .postgres/)" >&2
fi

# Mail goes to .mail/ as .eml files unless MAIL_URL says otherwise (docs/mail.md): open the
# newest one to read a code. The server also logs where mails go at start.
# (v4) Tokens need DATA_ENCRYPTION_KEY: a local one (32 random bytes, base64, mode 600) so that
# a person trying the server can mint and verify tokens. Never copy it to a real deployment.
if [ -z "${DATA_ENCRYPTION_KEY:-}" ] && [ -z "${DATA_ENCRYPTION_KEY_FILE:-}" ]; then
    key=$PWD/.data-encryption-key
    if [ ! -s "$key" ]; then
        (umask 077 && head -c 32 /dev/urandom | base64 >"$key")
        echo "run: made a local DATA_ENCRYPTION_KEY in $key (tokens on; docs/tokens.md)" >&2
    fi
    export DATA_ENCRYPTION_KEY_FILE="$key"
fi

if [ -z "${MAIL_URL:-}" ]; then
    export MAIL_URL="file://$PWD/.mail"
    echo "run: mails are written to $PWD/.mail/ (one .eml file each)" >&2
fi

"$exe" migrate
"$exe" serve
