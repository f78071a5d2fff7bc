#!/usr/bin/env bash
# Installs the Debian packages the project needs when they are missing (as root),
# or says which ones are missing (as a normal user). Usage: scripts/deps.sh [--with-test-tools]
set -euo pipefail

packages=(pkg-config libpq-dev libssl-dev libmicrohttpd-dev libsodium-dev libcrypt-dev libcurl4-openssl-dev postgresql)
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

# install_test_tool PACKAGE: apt-get install it as root (updating the lists once if the first
# try fails); as a normal user, name it and stop.
install_test_tool() {
    if [ "$(id -u)" -eq 0 ]; then
        echo "deps: installing $1" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >/dev/null \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >/dev/null; }
    else
        echo "deps: missing Debian package: $1 (run: sudo apt-get install $1)" >&2
        exit 1
    fi
}

if [ "${1:-}" = "--with-test-tools" ]; then
    # PgBouncer (Debian's 1.18) for the transaction-pooling tests (scripts/pgbouncer.sh).
    if ! command -v pgbouncer >/dev/null; then
        install_test_tool pgbouncer
        # The package starts a system-wide service; the tests run their own.
        service pgbouncer stop >/dev/null 2>&1 || true
    fi
    # ShellCheck (Debian's) lints the project's shell scripts in make test.
    command -v shellcheck >/dev/null || install_test_tool shellcheck
    # Debian's aiosmtpd for /usr/bin/python3: the real SMTP server of the mail tests (TestSMTPServer).
    /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || install_test_tool python3-aiosmtpd
    # check-jsonschema (PyPI) validates docker-compose.yml and Schemathesis (PyPI) tests the API
    # against openapi.json (scripts/schemathesis.sh); they live in a project-local venv
    # (.tools/venv, ignored by git) so neither root's nor Debian's system Python is touched.
    venv=.tools/venv
    schemathesis_version=4.32.5 # pinned: a new release may add checks or change generation
    if [ ! -x "$venv/bin/python" ]; then
        if ! python3 -m venv "$venv" >/dev/null 2>&1; then
            rm -rf "$venv"
            # python3 cannot make a venv without Debian's python3-venv.
            install_test_tool python3-venv
            python3 -m venv "$venv"
        fi
    fi
    if [ ! -x "$venv/bin/check-jsonschema" ]; then
        echo "deps: installing check-jsonschema (PyPI) into $venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check check-jsonschema >/dev/null
    fi
    if [ "$("$venv/bin/schemathesis" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+')" != "$schemathesis_version" ]; then
        echo "deps: installing schemathesis $schemathesis_version (PyPI) into $venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version" >/dev/null
    fi
    # (v4) PyJWT with its cryptography backend judges the server's JWTs against the served key set
    # (scripts/verify-jwts.py, run by TokensJOSETests): a JOSE library nobody here wrote.
    pyjwt_version=2.10.1
    if ! "$venv/bin/python" -c "import jwt, cryptography; assert jwt.__version__ == '$pyjwt_version'" 2>/dev/null; then
        echo "deps: installing PyJWT $pyjwt_version with cryptography (PyPI) into $venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check "pyjwt[crypto]==$pyjwt_version" >/dev/null
    fi
    # (v4) The Standard Webhooks reference library judges the webhooks' signatures
    # (scripts/verify-webhook-signature.py, run by StandardWebhookSignatureTests).
    standardwebhooks_version=1.3.0
    if ! "$venv/bin/pip" show standardwebhooks 2>/dev/null | grep -qx "Version: $standardwebhooks_version"; then
        echo "deps: installing standardwebhooks $standardwebhooks_version (PyPI) into $venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check "standardwebhooks==$standardwebhooks_version" >/dev/null
    fi
    # (v4, issue 40) axe-core for the browser test's accessibility audits (scripts/browser-test.sh):
    # the NHS fork of axe-selenium-python ships axe-core 4.9 and runs on Debian 12's Python 3.11
    # (axe-selenium-python 3.x needs Python 3.12; its 2.x ships axe-core 3.1, from 2018).
    axe_version=1.0.4
    if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('axe-selenium-python-nhsuk') == '$axe_version'" \
        2>/dev/null; then
        echo "deps: installing axe-selenium-python-nhsuk $axe_version (PyPI) into $venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check "axe-selenium-python-nhsuk==$axe_version" >/dev/null
    fi
fi
