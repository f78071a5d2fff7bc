#!/usr/bin/env bash
# `make run`: installs what is missing, builds, starts a local PostgreSQL (data kept in
# .postgres/ between runs) unless DATABASE_URL is set, migrates, then serves.
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

"$exe" migrate
"$exe" serve
