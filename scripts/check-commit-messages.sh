#!/usr/bin/env bash
# Refuses commit messages that break the house rule (DEVELOPERS.md, docs/architecture.md "Commits"):
# a subject of at most 72 characters, then, when there is a body, one blank line before it.
# Checks every commit after the baseline in .commit-message-baseline (the last commit made before
# the rule; older history is left as it is), or the message file given as $1 (a commit-msg hook:
# scripts/install-hooks.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

check_message() { # NAME FILE
    local name=$1 file=$2 subject second
    subject=$(sed -n '1p' "$file")
    second=$(sed -n '2p' "$file")
    if [ -z "$subject" ]; then
        echo "commit-messages: $name has an empty subject" >&2
        return 1
    fi
    if [ "${#subject}" -gt 72 ]; then
        echo "commit-messages: $name's subject has ${#subject} characters (at most 72): $subject" >&2
        return 1
    fi
    if [ -n "$second" ]; then
        echo "commit-messages: $name has no blank line between its subject and its body" >&2
        return 1
    fi
}

if [ $# -ge 1 ]; then
    # As a commit-msg hook: the message git is about to record, without its comment lines.
    msg=$(mktemp)
    trap 'rm -f "$msg"' EXIT
    grep -v '^#' "$1" >"$msg" || true
    check_message "this commit" "$msg"
    exit
fi

baseline=$(tr -d ' \n' <.commit-message-baseline)
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
    echo "commit-messages: the baseline commit $baseline is not in this history" >&2
    exit 1
fi
status=0
count=0
msg=$(mktemp)
trap 'rm -f "$msg"' EXIT
for commit in $(git rev-list "$baseline..HEAD"); do
    git log -1 --format=%B "$commit" >"$msg"
    check_message "$(git log -1 --format=%h "$commit")" "$msg" || status=1
    count=$((count + 1))
done
[ "$status" -eq 0 ] && echo "commit-messages: $count commits since $baseline have a subject of at most 72 characters"
exit "$status"
