#!/usr/bin/env bash
# Installs the Debian packages the project needs when they are missing (as root),
# or says which ones are missing (as a normal user). Usage: scripts/deps.sh [--with-test-tools]
set -euo pipefail

packages=(pkg-config libpq-dev libssl-dev libmicrohttpd-dev libsodium-dev libcrypt-dev postgresql)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    if [ "$(id -u)" -eq 0 ]; then
        echo "deps: installing ${missing[*]}" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "deps: missing Debian packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})" >&2
        exit 1
    fi
fi

command -v swift >/dev/null || { echo "deps: swift is not on PATH (Swift 6.x toolchain needed)" >&2; exit 1; }

if [ "${1:-}" = "--with-test-tools" ]; then
    if ! command -v check-jsonschema >/dev/null 2>&1; then
        echo "deps: installing check-jsonschema (PyPI) to validate docker-compose.yml" >&2
        if [ "$(id -u)" -eq 0 ]; then
            python3 -m pip install --quiet --disable-pip-version-check check-jsonschema >/dev/null
        else
            python3 -m pip install --quiet --disable-pip-version-check --user check-jsonschema >/dev/null
        fi
    fi
fi
