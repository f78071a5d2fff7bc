#!/usr/bin/env bash
# Installs the project's commit-msg hook (scripts/check-commit-messages.sh) and the commit
# message template (.gitmessage) into this clone. Usage: scripts/install-hooks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
hooks=$(git rev-parse --git-path hooks)
mkdir -p "$hooks"
printf '#!/bin/sh\nexec "$(git rev-parse --show-toplevel)/scripts/check-commit-messages.sh" "$1"\n' >"$hooks/commit-msg"
chmod +x "$hooks/commit-msg"
git config commit.template .gitmessage
echo "install-hooks: commit-msg hook and .gitmessage template installed"
