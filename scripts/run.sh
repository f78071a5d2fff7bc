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
if [ -z "${MAIL_URL:-}" ]; then
    export MAIL_URL="file://$PWD/.mail"
    echo "run: mails are written to $PWD/.mail/ (one .eml file each)" >&2
fi

"$exe" migrate
"$exe" serve
