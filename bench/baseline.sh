#!/usr/bin/env bash
# Builds a release passkey-server from another commit, to run as BENCH_BASELINE_BIN next to this
# tree's build in one benchmark run (bench/README.md, "Before and after in one run").
#
#   bash bench/baseline.sh REV [OUTPUT]
#
# REV is anything git names a commit by (main, HEAD~3, a hash). The commit is checked out with
# `git worktree add --detach` in a mktemp folder, built there with
# `swift build -c release --product passkey-server` (a clean build: several minutes), and the
# binary is copied to OUTPUT (default bench/.bin/baseline-<short hash>/passkey-server). Beside it:
# OUTPUT.revision (the short hash and subject, the label the report shows) and Migrations/ (that
# commit's schema, which run.sh compares with this tree's). The worktree is removed on any exit.
# The last line printed is the binary's path.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: bash bench/baseline.sh REV [OUTPUT]" >&2; exit 2; }
commit=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "baseline: '$1' names no commit" >&2; exit 2; }
short=$(git rev-parse --short "$commit")
out=${2:-$ROOT/bench/.bin/baseline-$short/passkey-server}
case "$out" in /*) ;; *) out=$ROOT/$out ;; esac

log() { printf '[baseline %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

TREE=$(mktemp -d /tmp/pkbaseline.XXXXXX)
cleanup() {
    set +e
    git -C "$ROOT" worktree remove --force "$TREE" 2>/dev/null
    rm -rf "$TREE"
    git -C "$ROOT" worktree prune
    # SwiftPM's lock files for that path (/tmp/_tmp_pkbaseline.XXXXXX_.build.lock, …).
    rm -f "${TMPDIR:-/tmp}/${TREE//\//_}_"*.lock
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "checking out $short ($(git log -1 --format=%s "$commit" | cut -c1-72)) in $TREE"
git worktree add --detach --quiet "$TREE" "$commit"

mkdir -p "$(dirname "$out")"
build_log=$(dirname "$out")/swift-build.log
log "building passkey-server (release) there; log: ${build_log#"$ROOT"/}"
if ! (cd "$TREE" && swift build -c release --product passkey-server) >"$build_log" 2>&1; then
    grep -E "error" "$build_log" | head -n 20 >&2
    echo "baseline: swift build failed at $short (log: $build_log)" >&2
    exit 1
fi
bin=$(cd "$TREE" && swift build -c release --show-bin-path)/passkey-server
[ -x "$bin" ] || { echo "baseline: $bin was not built" >&2; exit 1; }

cp "$bin" "$out"
rm -rf "$(dirname "$out")/Migrations"
cp -R "$TREE/Migrations" "$(dirname "$out")/Migrations"
echo "$short $(git log -1 --format=%s "$commit" | cut -c1-72)" >"$out.revision"
log "baseline $short ready"
echo "$out"
