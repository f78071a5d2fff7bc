#!/usr/bin/env bash
# `make container-test`: build the Dockerfile's images with podman, bring docker-compose.yml up
# with podman-compose, wait for health, run the README walk-through and a passkey sign-in with a
# software authenticator against the published port, check the stack's hardening (the server's
# database role cannot create a table and is not superuser, no capabilities, secrets from files,
# the port on 127.0.0.1, /metrics behind its token), and tear everything down (docs/containers.md).
#
# Where an official base image cannot be pulled, a stand-in of the same Debian release is built
# and tagged with the official name for the duration of the run (scripts/container/*.Containerfile);
# the summary says which images were stand-ins. The Dockerfile and compose file are the
# repository's own files, used unchanged. Root only (rootful podman). Everything the run creates
# (containers, images, network, volume, the scratch folder) carries a per-run suffix and is removed
# at the end, also on failure. The debootstrap'd base is cached in .container-cache/ (git-ignored).
#
# Environment: CONTAINER_CACHE_DIR (default .container-cache), SWIFT_TOOLCHAIN (the toolchain's
# usr folder, default: found from `swift` on PATH), DEBIAN_MIRROR (default: apt's own).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
started=$(date +%s)

say() { printf '==> [%4ss] %s\n' "$(($(date +%s) - started))" "$*"; }
die() { printf 'container-test: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (rootful podman; see docs/containers.md)"

# --- Tools --------------------------------------------------------------------------------------
apt_packages=(podman runc debootstrap uidmap slirp4netns golang-github-containernetworking-plugin-dnsname
    iptables python3-venv)
missing=()
for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    say "installing ${missing[*]} (apt)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

venv=.tools/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if ! [ -x "$venv/bin/podman-compose" ] || ! "$venv/bin/python" -c 'import cbor2, cryptography' 2>/dev/null; then
    say "installing podman-compose, cbor2, cryptography (PyPI) into $venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check podman-compose cbor2 cryptography >/dev/null
fi
compose=("$repo/$venv/bin/podman-compose")

toolchain=${SWIFT_TOOLCHAIN:-}
if [ -z "$toolchain" ]; then
    swift_bin=$(command -v swift) || die "swift is not on PATH (set SWIFT_TOOLCHAIN to the toolchain's usr folder)"
    toolchain=$(dirname "$(dirname "$(readlink -f "$swift_bin")")")
fi
[ -x "$toolchain/bin/swift-frontend" ] || die "no Swift toolchain in $toolchain"

# --- Per-run names, podman configuration, clean-up ------------------------------------------------
run=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
project=passkey-ct-$run
scratch=$(mktemp -d "/tmp/passkey-ct-$run.XXXXXX")
cache=${CONTAINER_CACHE_DIR:-$repo/.container-cache}
mkdir -p "$cache"

# crun fails on this kind of machine (hybrid cgroups, RLIMIT_NPROC not settable): runc and cgroupfs,
# no default ulimits. Our own file, so the machine's podman configuration is left alone.
cat >"$scratch/containers.conf" <<'EOF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF=$scratch/containers.conf
# The Dockerfile build runs without layer caching, so it leaves no intermediate images behind.
export BUILDAH_LAYERS=false

images_before=$(podman images -a -q --no-trunc | sort -u)
our_images=()        # names this run tagged (stand-ins, the server image)
declare -A origin    # image name -> "real (pulled)" or "stand-in (...)"
compose_up=""
status=failed

cleanup() {
    local rc=$?
    set +e
    [ "$rc" = 130 ] && status=interrupted
    trap - EXIT INT TERM
    say "tearing down"
    if [ -n "$compose_up" ]; then
        (cd "$repo" && "${compose[@]}" -p "$project" down -v -t 5 >"$scratch/down.log" 2>&1) \
            || cat "$scratch/down.log" >&2
    fi
    # Whatever the compose project left (a failed `up` can leave a half-made stack).
    podman ps -aq --filter "label=io.podman.compose.project=$project" | xargs -r podman rm -f -t 2 >/dev/null
    podman volume ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman volume rm -f >/dev/null
    podman network ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman network rm -f >/dev/null
    local ids=()
    for name in "${our_images[@]}"; do
        id=$(podman image inspect --format '{{.Id}}' "$name" 2>/dev/null) && ids+=("$id")
    done
    ((${#ids[@]})) && podman rmi -f "${ids[@]}" >/dev/null 2>&1
    # Dangling images this run's builds made (none are expected with BUILDAH_LAYERS=false).
    comm -13 <(echo "$images_before") <(podman images -a -q --no-trunc --filter dangling=true | sort -u) \
        | xargs -r podman rmi -f >/dev/null 2>&1
    local left
    left=$(( $(podman ps -aq --filter "label=io.podman.compose.project=$project" | wc -l)
        + $(podman volume ls -q --filter "label=io.podman.compose.project=$project" | wc -l)
        + $(podman network ls -q --filter "label=io.podman.compose.project=$project" | wc -l)
        + $(podman images --format '{{.Repository}}:{{.Tag}}' | grep -c -- "$run" || true) ))
    rm -rf "$scratch"
    echo
    echo "== container-test summary (run $run) =="
    for name in swift:6.3-bookworm debian:bookworm-slim postgres:15; do
        printf '  %-22s %s\n' "$name" "${origin[$name]:-not reached}"
    done
    echo "  Dockerfile             the repository's file, $(file_state Dockerfile)"
    echo "  docker-compose.yml     the repository's file, $(file_state docker-compose.yml)"
    if [ "$left" = 0 ]; then
        echo "  clean-up               containers, network, volume of $project and the run's images removed"
    else
        echo "  clean-up               $left container(s)/volume(s)/network(s)/image(s) of run $run are left over"
    fi
    echo "  result                 $status after $(($(date +%s) - started))s"
    exit "$rc"
}
file_state() {
    local sum
    sum=$(sha256sum "$repo/$1" | cut -c1-12)
    if git -C "$repo" diff --quiet HEAD -- "$1" 2>/dev/null; then
        echo "as committed ($(git -C "$repo" rev-parse --short HEAD), sha256 $sum…)"
    else
        echo "with uncommitted changes (sha256 $sum…)"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "run $run: project $project, scratch $scratch, toolchain $toolchain"

# --- The Debian 12 base (cached) -----------------------------------------------------------------
base_tar=$cache/debian-bookworm-minbase.tar
if [ ! -s "$base_tar" ]; then
    mirror=${DEBIAN_MIRROR:-$(grep -h -m1 -oE '^URIs: *\S+/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | awk '{print $2}' | head -n1)}
    mirror=${mirror:-http://deb.debian.org/debian}
    say "debootstrap --variant=minbase bookworm from $mirror (cached in $base_tar)"
    debootstrap --variant=minbase bookworm "$scratch/rootfs" "$mirror" >"$scratch/debootstrap.log" 2>&1 \
        || { tail -n 20 "$scratch/debootstrap.log" >&2; die "debootstrap failed"; }
    # The official images' apt sources: the release, its updates and security.
    rm -f "$scratch/rootfs/etc/apt/sources.list"
    cat >"$scratch/rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian*}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "$scratch"/rootfs/var/cache/apt/archives/*.deb "$scratch"/rootfs/var/lib/apt/lists/*
    tar -C "$scratch/rootfs" --numeric-owner -cf "$base_tar.tmp" . && mv "$base_tar.tmp" "$base_tar"
    rm -rf "$scratch/rootfs"
else
    say "Debian 12 base from the cache ($base_tar)"
fi
base=localhost/passkey-ct-base:$run
podman import -q "$base_tar" "$base" >/dev/null
our_images+=("$base")

# --- Base images: the official one if it can be pulled, else a stand-in with its name -------------
pull_or_standin() {
    local name=$1 build=$2
    if timeout 120 podman pull -q "docker.io/library/$name" >"$scratch/pull.log" 2>&1; then
        podman tag "docker.io/library/$name" "localhost/$name"
        origin[$name]="real (pulled docker.io/library/$name)"
        our_images+=("docker.io/library/$name" "localhost/$name")
        return
    fi
    say "$name cannot be pulled ($(tail -n1 "$scratch/pull.log" | cut -c1-100)…): building a stand-in"
    our_images+=("localhost/$name")
    "$build"
    origin[$name]="stand-in: $3"
}
build_debian_slim() { podman tag "$base" localhost/debian:bookworm-slim; }
build_swift() {
    podman build --pull=never -q --layers=false -v "$toolchain:/toolchain:ro" --build-arg "BASE=$base" \
        -f scripts/container/swift-standin.Containerfile -t localhost/swift:6.3-bookworm scripts/container \
        >"$scratch/swift-standin.log" 2>&1 || { tail -n 30 "$scratch/swift-standin.log" >&2; die "swift stand-in failed"; }
}
build_postgres() {
    podman build --pull=never -q --layers=false --build-arg "BASE=$base" \
        -f scripts/container/postgres-standin.Containerfile -t localhost/postgres:15 scripts/container \
        >"$scratch/postgres-standin.log" 2>&1 || { tail -n 30 "$scratch/postgres-standin.log" >&2; die "postgres stand-in failed"; }
}
pull_or_standin debian:bookworm-slim build_debian_slim "debootstrap'd Debian 12 minbase"
pull_or_standin swift:6.3-bookworm build_swift \
    "Debian 12 minbase + the official image's apt packages + this machine's toolchain ($("$toolchain/bin/swift" --version 2>/dev/null | head -n1 | sed 's/ (.*//'))"
pull_or_standin postgres:15 build_postgres \
    "Debian 12 minbase + Debian's postgresql-15 + an entrypoint for POSTGRES_USER/PASSWORD/DB (and their _FILE)"

# --- The stack -----------------------------------------------------------------------------------
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')
export PASSKEY_IMAGE=localhost/passkey-server:ct-$run PASSKEY_PORT=$port
# The compose file requires a decision on TRUSTED_PROXIES: the walk-through connects to the
# published port directly, with no proxy in front, so none is trusted (empty).
export PASSKEY_TRUSTED_PROXIES=
# The compose file's secrets, made as its header says: a private folder, one line per file.
export PASSKEY_SECRETS_DIR=$scratch/secrets
install -d -m 700 "$PASSKEY_SECRETS_DIR"
for s in postgres_password migrator_password server_password metrics_token; do
    (umask 022 && head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$PASSKEY_SECRETS_DIR/$s")
done
our_images+=("$PASSKEY_IMAGE")
pc() { "${compose[@]}" -p "$project" -f "$repo/docker-compose.yml" "$@"; }
container_of() { podman ps -a --format '{{.Names}}' --filter "label=io.podman.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" | head -n1; }
# podman runs health checks from systemd timers; without systemd (as here) nothing runs them, and
# podman-compose before podman 4.6 ignores `condition: service_healthy`. So the script runs each
# check itself (`podman healthcheck run` executes the compose file's test in the container) and
# starts the services in their dependency order.
wait_healthy() {
    local name=$1 tries=$2
    for ((i = 0; i < tries; i++)); do
        podman healthcheck run "$name" >/dev/null 2>&1 && return 0
        [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] || break
        sleep 2
    done
    podman logs --tail 30 "$name" >&2
    die "$name did not become healthy"
}

say "building the server image from the Dockerfile (podman-compose build server; a release build: minutes)"
build_started=$(date +%s)
pc build --pull=never server >"$scratch/build.log" 2>&1 || { tail -n 40 "$scratch/build.log" >&2; die "the Dockerfile build failed"; }
say "built $PASSKEY_IMAGE in $(($(date +%s) - build_started))s ($(podman image inspect --format '{{.Size}}' "$PASSKEY_IMAGE" | awk '{printf "%.0f MB", $1/1e6}'))"

say "the image as a non-root user on a read-only root filesystem"
podman run --rm --read-only --user 10001:10001 "$PASSKEY_IMAGE" healthcheck --help >/dev/null \
    || die "passkey-server healthcheck --help failed in the image"
if podman run --rm --read-only "$PASSKEY_IMAGE" healthcheck >/dev/null 2>&1; then
    die "healthcheck passed with no server running"
fi

compose_up=yes
say "podman-compose up: postgres (port $port published for the server)"
pc up -d --no-build postgres >"$scratch/up.log" 2>&1 || { cat "$scratch/up.log" >&2; die "podman-compose up postgres failed"; }
pg=$(container_of postgres)
wait_healthy "$pg" 60
say "$pg is healthy (pg_isready)"

pc up -d --no-build --no-deps postgres-roles >>"$scratch/up.log" 2>&1 || { cat "$scratch/up.log" >&2; die "podman-compose up postgres-roles failed"; }
roles=$(container_of postgres-roles)
roles_rc=$(podman wait "$roles")
podman logs "$roles" 2>&1 | sed 's/^/    postgres-roles| /' | tail -n 5
[ "$roles_rc" = 0 ] || die "postgres-roles exited with $roles_rc"
say "$roles completed (exit 0): roles passkey_migrator and passkey_server"

pc up -d --no-build --no-deps migrate >>"$scratch/up.log" 2>&1 || { cat "$scratch/up.log" >&2; die "podman-compose up migrate failed"; }
migrate=$(container_of migrate)
migrate_rc=$(podman wait "$migrate")
podman logs "$migrate" 2>&1 | sed 's/^/    migrate| /' | tail -n 5
[ "$migrate_rc" = 0 ] || die "migrate exited with $migrate_rc"
say "$migrate completed (exit 0)"

pc up -d --no-build --no-deps server >>"$scratch/up.log" 2>&1 || { cat "$scratch/up.log" >&2; die "podman-compose up server failed"; }
server=$(container_of server)
wait_healthy "$server" 60
say "$server is healthy (passkey-server healthcheck); user $(podman exec "$server" id -u), read-only root: $(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$server")"
[ "$(podman exec "$server" id -u)" != 0 ] || die "the server runs as root"
if podman exec "$server" sh -c 'echo x >/app/probe' 2>/dev/null; then die "the server's root filesystem is writable"; fi
podman exec "$server" passkey-server healthcheck --ready || die "readyz is not 200"

say "the walk-through against http://127.0.0.1:$port (origin http://localhost:$port)"
"$venv/bin/python" scripts/container/walkthrough.py "http://127.0.0.1:$port" "http://localhost:$port" \
    || { podman logs --tail 30 "$server" >&2; die "the walk-through failed"; }

say "the stack's hardening: restricted database role, no capabilities, secrets from files, port on 127.0.0.1"
bash scripts/container/hardening-check.sh "$pg" "$server" "$migrate" "$port" "$PASSKEY_SECRETS_DIR" \
    || die "a hardening check failed"

status=passed
