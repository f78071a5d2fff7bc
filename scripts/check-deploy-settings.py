#!/usr/bin/env python3
"""Checks the deployment files for the settings the fourth security review found missing.

Reads deploy/ha/patroni.yml, deploy/ha/haproxy.cfg and docker-compose.yml (docs/operations.md,
"Settings the deployment files must keep") and fails with one line per problem when:

- patroni.yml: the REST API has no authentication (`restapi.authentication.username` and
  `password`, both non-empty), or it listens on an address other than loopback without TLS
  (`restapi.certfile`);
- haproxy.cfg, for each HTTP proxy (`frontend` or `listen` in `mode http`): no
  `timeout http-request` (its own or its `defaults`'), or one above 30 s; no `stick-table`; no
  per-source tracking when the connection is accepted (`tcp-request connection track-scN src`);
  no per-source connection limit (`tcp-request connection reject` on `sc_conn_cur`); no
  per-source request rate limit (`http-request deny` on `sc_http_req_rate`);
- docker-compose.yml: the server service does not require TRUSTED_PROXIES, i.e. its value is
  not `${VAR?message}` or `${VAR:?message}` (compose then refuses to start while VAR is unset).

The `@NAME@` placeholders of the templates are accepted as values. Exit 0 with one summary
line, 1 with one line per problem, 2 when a file cannot be read.
Usage: check-deploy-settings.py [--patroni F] [--haproxy F] [--compose F] [--service NAME] [ROOT]
"""

import argparse
import ipaddress
import os
import re
import sys

try:
    import yaml

    YAML_ERRORS = (yaml.YAMLError,)

    def load_yaml(text):
        return yaml.safe_load(text)
except ImportError:  # .tools/venv has both; Debian's python3 has PyYAML
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    YAML_ERRORS = (YAMLError,)

    def load_yaml(text):
        return YAML(typ="safe").load(text)

PLACEHOLDER = re.compile(r"@([A-Z0-9_]+)@")
HEAD_TIMEOUT_MAX_SECONDS = 30
PROXY_SECTIONS = {"frontend", "listen", "backend", "defaults"}
SECTIONS = PROXY_SECTIONS | {"global", "peers", "resolvers", "userlist", "http-errors", "ring", "cache",
                             "program", "mailers", "fcgi-app", "crt-store", "traces"}


def read_yaml(path):
    """YAML with each @NAME@ placeholder as the plain string placeholder-NAME (`@` cannot start
    a YAML value)."""
    with open(path) as f:
        text = f.read()
    return load_yaml(PLACEHOLDER.sub(lambda m: "placeholder-" + m.group(1), text)) or {}


def is_loopback(listen):
    host = str(listen).rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a placeholder or a name: may be any address


def check_patroni(path):
    config = read_yaml(path)
    restapi = config.get("restapi") if isinstance(config, dict) else None
    if not isinstance(restapi, dict):
        return [f"{path}: no restapi section"]
    problems = []
    auth = restapi.get("authentication")
    if not isinstance(auth, dict) or not auth.get("username") or not auth.get("password"):
        problems.append(f"{path}: the REST API has no authentication (restapi.authentication.username and "
                        "password): anyone who reaches it can PATCH /config and POST /restart")
    listen = restapi.get("listen", "")
    if not is_loopback(listen) and not restapi.get("certfile"):
        problems.append(f"{path}: the REST API listens on {listen} without TLS (restapi.certfile, keyfile): "
                        "its credentials would cross the network in clear")
    return problems


def haproxy_lines(text):
    """(line number, words) per configuration line, comments removed, quotes kept together."""
    for number, raw in enumerate(text.splitlines(), 1):
        words, word, quote, i = [], "", None, 0
        while i < len(raw):
            c = raw[i]
            if quote:
                if c == quote:
                    quote = None
                else:
                    word += c
            elif c in "'\"":
                quote = c
            elif c == "\\" and i + 1 < len(raw):
                i += 1
                word += raw[i]
            elif c == "#":
                break
            elif c.isspace():
                if word:
                    words.append(word)
                word = ""
            else:
                word += c
            i += 1
        if word:
            words.append(word)
        if words:
            yield number, words


def seconds(value):
    match = re.fullmatch(r"(\d+)(us|ms|s|m|h|d)?", value)
    if not match:
        return None
    factor = {"us": 1e-6, "ms": 1e-3, None: 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]
    return int(match.group(1)) * factor


def check_haproxy(path):
    with open(path) as f:
        text = f.read()
    sections = []  # (kind, name, [words...])
    for _, words in haproxy_lines(text):
        if words[0] in SECTIONS:
            sections.append((words[0], words[1] if len(words) > 1 else "", []))
        elif sections:
            sections[-1][2].append(words)
    tables = {name for kind, name, lines in sections if any(w[0] == "stick-table" for w in lines)}
    problems = []
    defaults = []
    http_proxies = 0
    for kind, name, lines in sections:
        if kind == "defaults":
            defaults = lines
            continue
        if kind not in ("frontend", "listen"):
            continue
        mode = [w[1] for w in defaults + lines if w[0] == "mode" and len(w) > 1]
        if not mode or mode[-1] != "http":
            continue
        http_proxies += 1
        where = f"{path}: {kind} {name}"
        timeouts = [w[2] for w in defaults + lines if w[:2] == ["timeout", "http-request"] and len(w) > 2]
        if not timeouts:
            problems.append(f"{where}: no timeout http-request: a client may send a request head as slowly as it "
                            "likes and hold its connection for timeout client")
        elif seconds(timeouts[-1]) is None or seconds(timeouts[-1]) > HEAD_TIMEOUT_MAX_SECONDS:
            problems.append(f"{where}: timeout http-request {timeouts[-1]} is above {HEAD_TIMEOUT_MAX_SECONDS} s")
        own_table = any(w[0] == "stick-table" for w in lines)
        tracks = [w for w in lines if w[:2] == ["tcp-request", "connection"] and len(w) > 3
                  and re.fullmatch(r"track-sc\d", w[2])]
        by_source = [w for w in tracks if w[3] == "src" or w[3].startswith("src,")]
        used_tables = {w[w.index("table") + 1] for w in by_source if "table" in w[:-1]}
        if not own_table and not (used_tables and used_tables <= tables):
            problems.append(f"{where}: no stick-table to count connections and requests per source")
        if not by_source:
            late = any(w[0] == "http-request" and len(w) > 1 and w[1].startswith("track-sc") for w in lines)
            problems.append(f"{where}: no per-source tracking when a connection is accepted (tcp-request connection "
                            "track-sc0 src)" + (": http-request track-sc counts a client only once its head "
                                                "has arrived, so slow heads are not counted" if late else ""))
        conn_limit = any(w[:3] == ["tcp-request", "connection", "reject"] and re.search(r"sc\d?_conn_cur", " ".join(w))
                         for w in lines)
        if not conn_limit:
            problems.append(f"{where}: no per-source connection limit (tcp-request connection reject if "
                            "{ sc_conn_cur(0) gt N }): one address may hold every connection HAProxy accepts")
        rate_limit = any(w[0] == "http-request" and len(w) > 1 and w[1] in ("deny", "tarpit", "reject")
                         and re.search(r"sc\d?_http_req_rate", " ".join(w)) for w in lines)
        if not rate_limit:
            problems.append(f"{where}: no per-source request rate limit (http-request deny deny_status 429 if "
                            "{ sc_http_req_rate(0) gt N })")
    if not http_proxies:
        problems.append(f"{path}: no frontend or listen section in mode http")
    return problems


def check_compose(path, service):
    config = read_yaml(path)
    server = (config.get("services") or {}).get(service) if isinstance(config, dict) else None
    if not isinstance(server, dict):
        return [f"{path}: no service {service}"]
    environment = server.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) if "=" in item else (item, None) for item in environment)
    if "TRUSTED_PROXIES" not in environment:
        return [f"{path}: service {service} sets no TRUSTED_PROXIES: behind a proxy every client would be the "
                "proxy's one address (require it: TRUSTED_PROXIES: ${PASSKEY_TRUSTED_PROXIES?…})"]
    value = "" if environment["TRUSTED_PROXIES"] is None else str(environment["TRUSTED_PROXIES"])
    if not re.fullmatch(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?\?[^}]*\}", value):
        return [f"{path}: service {service} sets TRUSTED_PROXIES to {value!r}, not a requirement: make it "
                "${PASSKEY_TRUSTED_PROXIES?…} so that compose refuses to start until the operator decides"]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--patroni")
    parser.add_argument("--haproxy")
    parser.add_argument("--compose")
    parser.add_argument("--service", default="server", help="the compose service that runs passkey-server serve")
    args = parser.parse_args()
    files = {
        "patroni": args.patroni or os.path.join(args.root, "deploy/ha/patroni.yml"),
        "haproxy": args.haproxy or os.path.join(args.root, "deploy/ha/haproxy.cfg"),
        "compose": args.compose or os.path.join(args.root, "docker-compose.yml"),
    }
    problems = []
    try:
        problems += check_patroni(files["patroni"])
        problems += check_haproxy(files["haproxy"])
        problems += check_compose(files["compose"], args.service)
    except (OSError,) + YAML_ERRORS as e:
        print(f"check-deploy-settings: {e}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print("check-deploy-settings: Patroni's REST API authenticated, HAProxy's head timeout and per-source limits "
          "set, the compose server requires TRUSTED_PROXIES")
    return 0


if __name__ == "__main__":
    sys.exit(main())
