#!/usr/bin/env bash
# `make fleet-test` (slow, not part of `make test`; about 3-6 minutes after the release build):
# a fleet on 127.0.0.1 — three etcd members, Patroni managing two PostgreSQL 15 nodes with
# synchronous replication, HAProxy in front of the database and of two passkey-server
# instances, aiosmtpd receiving the mail — under a load mix that records every acknowledged
# write (scripts/fleet/main.go). Faults one after another, each followed by a check that every
# write acknowledged so far is still there:
#   rolling    SIGTERM one instance, wait until HAProxy routes to it again, then the other
#   kill       SIGKILL one instance (started again afterwards)
#   switchover patronictl switchover
#   failover   SIGKILL the primary's postmaster
#   rejoin     the old primary back as a standby, under load
# Then every token, every acknowledged mail (delivered once) and the sweeper (expired rows
# planted after the failover, deleted by the instances) are checked, (v4) the token signing
# keys' rotation and revocation across both instances (scripts/fleet/token-keys-test.py), and
# (v4) the webhooks: an endpoint registered for account.created before the load must have
# received every such event of the log, each signed (judged by PyPI standardwebhooks in
# scripts/webhook-receiver.py), none abandoned, through the kill and both database switches.
# Before the fleet starts, scripts/fleet/haproxy-limits-test.py checks haproxy.cfg's slow-client
# and per-source limits with an HAProxy of its own; once Patroni runs, its REST API must refuse
# the endpoints that change the cluster without the credentials this run drew (401), while the
# health endpoints HAProxy checks still answer.
# One summary line per fault (docs/operations.md records a run); exit 1 on any missed goal.
# Everything is stopped and deleted afterwards. Configuration: deploy/ha/.
# FLEET_KEEP=1 keeps the folder (logs, requests, acks) for a look afterwards.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "[fleet $(date -u +%H:%M:%S)] $*" >&2; }
die() { echo "fleet-test: $*" >&2; exit 1; }
now() { date +%s.%N; }

# --- What it needs (installed when missing, as root) -------------------------------------
need=()
for pair in patroni:patroni etcd:etcd-server etcdctl:etcd-client haproxy:haproxy go:golang-go psql:postgresql-client \
    curl:curl; do
    command -v "${pair%%:*}" >/dev/null || need+=("${pair#*:}")
done
/usr/bin/python3 -c 'import etcd' 2>/dev/null || need+=(python3-etcd)
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || need+=(python3-aiosmtpd)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# (v4) The webhook receiver judges signatures with PyPI standardwebhooks, in the project's venv.
venv_python=$root/.tools/venv/bin/python
if ! "$venv_python" -c 'import standardwebhooks' 2>/dev/null; then
    "$root/scripts/deps.sh" --with-test-tools >/dev/null || die "scripts/deps.sh --with-test-tools failed"
fi
if ((${#need[@]})); then
    [ "$(id -u)" -eq 0 ] || die "missing Debian packages: ${need[*]} (sudo apt-get install ${need[*]})"
    log "installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

log "building passkey-server (release) and the load (Go standard library only)"
swift build -c release --product passkey-server --package-path "$root" >/dev/null
exe=$(swift build -c release --package-path "$root" --show-bin-path)/passkey-server
fleet=$(mktemp -d /tmp/passkey-fleet.XXXXXX)
chmod 755 "$fleet"
(cd "$root/scripts/fleet" && GOCACHE=$fleet/go-cache GOPROXY=off GOFLAGS='' go build -o "$fleet/fleetload" .)
load=$fleet/fleetload

# --- Processes, and their end ------------------------------------------------------------
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
declare -A pids=()
stop_all() {
    local status=$?
    set +e
    touch "$fleet/stop"
    for name in load app1 app2 haproxy smtp; do
        [ -n "${pids[$name]:-}" ] && kill -TERM "${pids[$name]}" 2>/dev/null
    done
    for name in node1 node2; do
        [ -n "${pids[$name]:-}" ] && kill -TERM -- "-${pids[$name]}" 2>/dev/null
    done
    sleep 1
    for name in node1 node2; do
        [ -f "$fleet/$name/data/postmaster.pid" ] \
            && as_pg "$pg_bin/pg_ctl" -D "$fleet/$name/data" -m immediate -w stop >/dev/null 2>&1
    done
    for name in etcd1 etcd2 etcd3; do
        [ -n "${pids[$name]:-}" ] && kill -TERM "${pids[$name]}" 2>/dev/null
    done
    for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; done
    wait 2>/dev/null
    if [ "${FLEET_KEEP:-0}" = 1 ] || [ "$status" -ne 0 ]; then
        [ "$status" -ne 0 ] && for f in "$fleet"/app*.log "$fleet"/node*.log; do
            [ -f "$f" ] && { echo "--- last lines of $f" >&2; tail -n 15 "$f" >&2; }
        done
        if [ "${FLEET_KEEP:-0}" = 1 ]; then log "kept $fleet"; else rm -rf "$fleet"; fi
    else
        rm -rf "$fleet"
    fi
    exit "$status"
}
trap stop_all EXIT
# A command that fails under `set -e` says which one it was before the script ends.
trap 'echo "fleet-test: line $LINENO failed: $BASH_COMMAND" >&2' ERR
trap 'exit 130' INT TERM

log "checking haproxy.cfg's slow-client and per-source limits (scripts/fleet/haproxy-limits-test.py, about 20 s)"
if python3 "$root/scripts/fleet/haproxy-limits-test.py" >"$fleet/haproxy-limits.txt" 2>&1; then
    limits_line="fleet: haproxy    $(grep -c '\[PASS\]$' "$fleet/haproxy-limits.txt") checks of the limits passed  goal: slow heads closed in 10 s, one source held to its connection and request limits, others served [PASS]"
else
    cat "$fleet/haproxy-limits.txt" >&2
    die "haproxy.cfg's limits do not hold (scripts/fleet/haproxy-limits-test.py)"
fi

# Free ports, all at once.
read -r -a ports <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(15)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
etcd_client=("${ports[0]}" "${ports[1]}" "${ports[2]}")
etcd_peer=("${ports[3]}" "${ports[4]}" "${ports[5]}")
rest=("${ports[6]}" "${ports[7]}")
pgport=("${ports[8]}" "${ports[9]}")
db_port=${ports[10]} http_port=${ports[11]} smtp_port=${ports[12]}
app_port=("${ports[13]}" "${ports[14]}")

fill() { # fill TEMPLATE OUT KEY=VALUE...
    local text; text=$(cat "$1"); local out=$2; shift 2
    for pair in "$@"; do text=${text//@${pair%%=*}@/${pair#*=}}; done
    grep -q '@[A-Z0-9_]*@' <<<"$text" && die "unfilled placeholder in $out"
    printf '%s\n' "$text" >"$out"
}

wait_until() { # wait_until SECONDS DESCRIPTION COMMAND...
    local limit=$1 what=$2; shift 2
    local end=$(($(date +%s) + limit))
    until "$@" >/dev/null 2>&1; do
        (($(date +%s) < end)) || die "$what: not within $limit s"
        sleep 0.2
    done
}

# --- etcd ----------------------------------------------------------------------------------
cluster="etcd1=http://127.0.0.1:${etcd_peer[0]},etcd2=http://127.0.0.1:${etcd_peer[1]},etcd3=http://127.0.0.1:${etcd_peer[2]}"
for i in 0 1 2; do
    name=etcd$((i + 1))
    fill "$root/deploy/ha/etcd.yml" "$fleet/$name.yml" NAME=$name DATA="$fleet/$name" \
        CLIENT_PORT="${etcd_client[$i]}" PEER_PORT="${etcd_peer[$i]}" INITIAL_CLUSTER="$cluster"
    etcd --config-file "$fleet/$name.yml" >"$fleet/$name.log" 2>&1 &
    pids[$name]=$!
done
etcd_hosts="127.0.0.1:${etcd_client[0]},127.0.0.1:${etcd_client[1]},127.0.0.1:${etcd_client[2]}"
wait_until 30 "etcd cluster healthy" env ETCDCTL_API=3 etcdctl --endpoints="$etcd_hosts" endpoint health
log "etcd: 3 members"

# --- Patroni and PostgreSQL ---------------------------------------------------------------
# The REST API's credentials: drawn for this run, in the nodes' files (mode 600, Patroni's user)
# and in a curl config file for this script's own authenticated calls, never on a command line.
rest_user=patroni-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
rest_password=$(head -c 32 /dev/urandom | base64 | tr -d '/+=\n')
(umask 077 && printf 'user = "%s:%s"\n' "$rest_user" "$rest_password" >"$fleet/rest-auth.curl")
[ "$(id -u)" -eq 0 ] && { p=$fleet; while [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done; }
start_node() { # in a session of its own, so that its process group can be stopped
    local name=$1
    if [ "$(id -u)" -eq 0 ]; then
        setsid runuser -u postgres -- patroni "$fleet/$name.yml" >>"$fleet/$name.log" 2>&1 &
    else
        setsid patroni "$fleet/$name.yml" >>"$fleet/$name.log" 2>&1 &
    fi
    pids[$name]=$!
}
for i in 0 1; do
    name=node$((i + 1))
    mkdir -p "$fleet/$name"
    (umask 077 && fill "$root/deploy/ha/patroni.yml" "$fleet/$name.yml" NAME=$name REST_PORT="${rest[$i]}" \
        ETCD_HOSTS="$etcd_hosts" PG_PORT="${pgport[$i]}" DATA="$fleet/$name/data" PG_BIN="$pg_bin" \
        PGPASS="$fleet/$name/pgpass" SOCKET_DIR="$fleet/$name" REST_USER="$rest_user" REST_PASSWORD="$rest_password")
    [ "$(id -u)" -eq 0 ] && chown -R postgres: "$fleet/$name" "$fleet/$name.yml"
done
start_node node1
wait_until 60 "node1 primary" curl -sf "http://127.0.0.1:${rest[0]}/primary"
start_node node2
# A synchronous standby: streaming, and named in synchronous_standby_names.
sync_standby() { curl -sf "http://127.0.0.1:${rest[$1]}/sync"; }
wait_until 90 "node2 synchronous standby" sync_standby 1
log "patroni: node1 primary, node2 synchronous standby"

# Patroni's REST API (finding 2 of the fourth review): without credentials, or with wrong ones,
# the endpoints that change the cluster answer 401 and change nothing (the PATCH is the attack
# itself, pg_hba opened to every address); the health endpoints answer without them (200 on the
# primary, 503 on the standby); with this run's credentials a PATCH is accepted.
rest_status() { # rest_status NODE-INDEX METHOD PATH [BODY [CURL-OPTION...]] -> the HTTP status
    local url=http://127.0.0.1:${rest[$1]}$3 args=(-s -o /dev/null -w '%{http_code}' --max-time 10 -X "$2")
    [ -n "${4:-}" ] && args+=(-H 'Content-Type: application/json' --data "$4")
    curl "${args[@]}" "${@:5}" "$url" || true
}
(umask 077 && printf 'user = "%s:wrong-%s"\n' "$rest_user" "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" >"$fleet/rest-wrong.curl")
attack='{"postgresql":{"pg_hba":["host all all 0.0.0.0/0 trust"]}}'
rest_problems=()
expect_status() { # expect_status WANT WHAT NODE METHOD PATH [BODY [CURL-OPTION...]]
    local want=$1 what=$2 got; shift 2
    got=$(rest_status "$@")
    [ "$got" = "$want" ] || rest_problems+=("$what $2 $3 on node$(($1 + 1)): $got (goal $want)")
}
for i in 0 1; do
    expect_status 401 "without credentials" "$i" PATCH /config "$attack"
    expect_status 401 "without credentials" "$i" POST /restart '{}'
    expect_status 401 "without credentials" "$i" POST /reload ''
    expect_status 401 "without credentials" "$i" POST /switchover '{"leader":"node1","candidate":"node2"}'
    expect_status 401 "with a wrong password" "$i" PATCH /config "$attack" -K "$fleet/rest-wrong.curl"
    expect_status 401 "with a wrong password" "$i" POST /restart '{}' -K "$fleet/rest-wrong.curl"
done
expect_status 200 "without credentials" 0 GET /primary
expect_status 503 "without credentials" 1 GET /primary
expect_status 200 "without credentials" 1 GET /replica
expect_status 200 "with this run's credentials" 0 PATCH /config '{"loop_wait":2}' -K "$fleet/rest-auth.curl"
if curl -sf "http://127.0.0.1:${rest[0]}/config" | grep -q '0\.0\.0\.0/0'; then
    rest_problems+=("pg_hba in the cluster's configuration names 0.0.0.0/0")
fi
for problem in "${rest_problems[@]}"; do echo "fleet-test: Patroni REST API: $problem" >&2; done
((${#rest_problems[@]} == 0)) || die "Patroni's REST API is not protected (finding 2): ${#rest_problems[@]} problem(s) above"
rest_line="fleet: patroni    PATCH /config, POST /restart, /reload, /switchover refused (401) without or with wrong credentials on both nodes; GET /primary 200/503, /replica 200 without; PATCH with this run's 200  goal: the REST API changes nothing for a caller without the credentials [PASS]"
log "patroni: the REST API refuses its unsafe endpoints without credentials"

# --- HAProxy, mail, the instances ----------------------------------------------------------
# The load runs on 127.0.0.1 and sends far more than one real client (hundreds of requests a
# second): in this filled-in copy only, that address is exempt from haproxy.cfg's per-source
# limits (a real host's file is empty); haproxy-limits-test.py, above, checks them with none exempt.
printf '127.0.0.1\n' >"$fleet/haproxy-limits-exempt.txt"
fill "$root/deploy/ha/haproxy.cfg" "$fleet/haproxy.cfg" SOCKET="$fleet/haproxy.sock" DB_PORT="$db_port" \
    NODE1=node1 NODE2=node2 PG1_PORT="${pgport[0]}" PG2_PORT="${pgport[1]}" REST1_PORT="${rest[0]}" \
    REST2_PORT="${rest[1]}" HTTP_PORT="$http_port" APP1_PORT="${app_port[0]}" APP2_PORT="${app_port[1]}" \
    ERRORFILE="$root/deploy/ha/503-service-unavailable.http" LIMITS_EXEMPT="$fleet/haproxy-limits-exempt.txt"
haproxy -f "$fleet/haproxy.cfg" -db >"$fleet/haproxy.log" 2>&1 &
pids[haproxy]=$!
haproxy_state() { # haproxy_state PROXY SERVER -> UP, DOWN, ...
    python3 - "$fleet/haproxy.sock" "$1" "$2" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"show stat\n")
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk: break
    data += chunk
for line in data.decode().splitlines():
    f = line.split(",")
    if len(f) > 17 and f[0] == sys.argv[2] and f[1] == sys.argv[3]:
        print(f[17].split()[0])
EOF
}
is_up() { [ "$(haproxy_state "$1" "$2")" = UP ]; }
is_down() { ! is_up "$1" "$2"; }
db_url="host=127.0.0.1 port=$db_port user=postgres dbname=passkey connect_timeout=3"
# HAProxy starts with both servers up until its first check: the standby must be marked down
# first, or a statement may reach it ("cannot execute CREATE DATABASE in a read-only transaction").
marked_down() { [ "$(haproxy_state "$1" "$2")" = DOWN ]; }
wait_until 30 "HAProxy marking node2 (the standby) down" marked_down postgres node2
wait_until 30 "HAProxy routing to the primary" psql -X -q -d "host=127.0.0.1 port=$db_port user=postgres dbname=postgres" -c "SELECT 1"
psql -X -q -d "host=127.0.0.1 port=$db_port user=postgres dbname=postgres" -c "CREATE DATABASE passkey" >/dev/null

mkdir -p "$fleet/maildir/tmp" "$fleet/maildir/new" "$fleet/maildir/cur"
/usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$smtp_port" -c aiosmtpd.handlers.Mailbox "$fleet/maildir" \
    >"$fleet/smtp.log" 2>&1 &
pids[smtp]=$!

DATABASE_URL=$db_url PASSKEY_MIGRATIONS_DIR="$root/Migrations" "$exe" migrate >"$fleet/migrate.log" 2>&1 \
    || { cat "$fleet/migrate.log" >&2; die "migrate failed"; }

# (v4) Tokens on: one data key and one introspection client for this run, the same on both
# instances (and for the `keys` commands of scripts/fleet/token-keys-test.py).
data_key=$(head -c 32 /dev/urandom | base64)
introspection_client="fleet:$(head -c 36 /dev/urandom | base64 | tr -d '/+=')"
# (v4) A webhook endpoint for account.created, registered before the instances start, and its
# receiver (scripts/webhook-receiver.py, which verifies each request with the secret).
mkdir -p "$fleet/webhooks/secrets"
"$venv_python" "$root/scripts/webhook-receiver.py" "$fleet/webhooks" >"$fleet/webhooks.log" 2>&1 &
pids[webhooks]=$!
wait_until 20 "the webhook receiver" test -s "$fleet/webhooks/port"
webhook_added=$(DATABASE_URL=$db_url DATA_ENCRYPTION_KEY=$data_key PASSKEY_MIGRATIONS_DIR="$root/Migrations" \
    "$exe" webhooks add "http://127.0.0.1:$(cat "$fleet/webhooks/port")/fleet/ok" --events account.created 2>&1) \
    || die "webhooks add failed: $webhook_added"
sed -n 's/^secret //p' <<<"$webhook_added" >"$fleet/webhooks/secrets/fleet"
start_app() {
    local i=$1 name=app$(($1 + 1))
    env DATABASE_URL="$db_url" HOST=127.0.0.1 PORT="${app_port[$i]}" PASSKEY_RP_ID=localhost \
        DATA_ENCRYPTION_KEY="$data_key" INTROSPECTION_CLIENTS="$introspection_client" \
        PASSKEY_ORIGINS=http://localhost:8080 TRUSTED_PROXIES=127.0.0.1 RATE_LIMIT_STARTS_PER_MINUTE=0 \
        RATE_LIMIT_SIGNUPS_PER_ADDRESS=0 RATE_LIMIT_PASSWORD_PER_ADDRESS=1000000 DATABASE_POOL_SIZE=8 \
        MAIL_URL="smtp://127.0.0.1:$smtp_port" WEB_CLIENT=off LOG_LEVEL=info SHUTDOWN_DRAIN_SECONDS=3 \
        PASSKEY_MIGRATIONS_DIR="$root/Migrations" "$exe" serve >>"$fleet/$name.log" 2>&1 &
    pids[$name]=$!
}
start_app 0
start_app 1
wait_until 30 "HAProxy routing to app1" is_up passkey app1
wait_until 30 "HAProxy routing to app2" is_up passkey app2
log "haproxy: database on $db_port, HTTP on $http_port; 2 instances up"

# --- Load, faults, checks -------------------------------------------------------------------
base=http://127.0.0.1:$http_port
"$load" run -url "$base" -workers "${FLEET_WORKERS:-6}" -out "$fleet" -stop "$fleet/stop" >"$fleet/load.log" 2>&1 &
pids[load]=$!
phases=$fleet/phases.txt
: >"$phases"
sleep 5

# Every write acknowledged so far: accounts and passkeys in the database (SQL through HAProxy),
# and the tokens issued since $1 answering GET /v1/account with their own account.
check_writes() {
    local since=$1 counts missing
    counts=$("$load" export -out "$fleet")
    for _ in 1 2 3; do
        missing=$(cd "$fleet" && psql -X -q -At -v ON_ERROR_STOP=1 -d "$db_url" <<'SQL' 2>>"$fleet/check.log"
CREATE TEMP TABLE acked_accounts (id uuid);
CREATE TEMP TABLE acked_credentials (h text);
\copy acked_accounts FROM 'acked-accounts.txt'
\copy acked_credentials FROM 'acked-credentials.txt'
SELECT (SELECT count(*) FROM acked_accounts a WHERE NOT EXISTS (SELECT 1 FROM accounts x WHERE x.id = a.id))
    || ' ' || (SELECT count(*) FROM acked_credentials c
               WHERE NOT EXISTS (SELECT 1 FROM passkey_credentials p WHERE p.credential_id = decode(c.h, 'hex')));
SQL
        ) && break
        sleep 2
    done
    [ -n "$missing" ] || die "the check of acknowledged writes could not reach the database"
    local tokens
    tokens=$("$load" tokens -url "$base" -out "$fleet" -since "$since") || { echo "$tokens" >&2; die "acknowledged sessions lost"; }
    log "check: acknowledged $counts; missing accounts/passkeys: $missing; ${tokens%%$'\n'*}"
    [ "$missing" = "0 0" ] || die "acknowledged writes lost: $missing (accounts, passkeys)"
}

phase() { echo "$1 $2 $3 $(now) $4" >>"$phases"; } # name goal fault-time limit (end = now)

leader() { for i in 0 1; do curl -sf "http://127.0.0.1:${rest[$i]}/primary" >/dev/null 2>&1 && { echo $i; return; }; done; echo none; }
both_running() {
    local n
    n=$(curl -sf "http://127.0.0.1:${rest[0]}/cluster" | python3 -c '
import json, sys
members = json.load(sys.stdin)["members"]
print(sum(1 for m in members if m["state"] in ("running", "streaming")))')
    [ "$n" = 2 ] && sync_standby "$1"
}

# 1. Rolling restart.
t=$(now)
for i in 0 1; do
    name=app$((i + 1))
    kill -TERM "${pids[$name]}"
    wait "${pids[$name]}" || die "$name exited with $? on SIGTERM"
    start_app "$i"
    wait_until 30 "HAProxy routing to $name again" is_up passkey "$name"
done
sleep 3
phase rolling zero-failures "$t" 0
check_writes "$t"

# 2. One instance killed.
t=$(now)
kill -KILL "${pids[app1]}"
wait "${pids[app1]}" 2>/dev/null || true
wait_until 10 "HAProxy noticing app1 is gone" is_down passkey app1
sleep 5
phase kill kill "$t" 3
start_app 0
wait_until 30 "HAProxy routing to app1 again" is_up passkey app1
check_writes "$t"

# 3. Planned switchover (node1 → node2).
old=$(leader)
[ "$old" != none ] || die "no primary before the switchover"
new=$((1 - old))
t=$(now)
patronictl -c "$fleet/node$((old + 1)).yml" switchover --leader "node$((old + 1))" --candidate "node$((new + 1))" \
    --force >"$fleet/switchover.log" 2>&1 || { cat "$fleet/switchover.log" >&2; die "switchover refused"; }
wait_until 30 "node$((new + 1)) primary" curl -sf "http://127.0.0.1:${rest[$new]}/primary"
sleep 12
phase switchover recover "$t" 10
wait_until 90 "node$((old + 1)) synchronous standby again" both_running "$old"
check_writes "$t"

# 4. Failover: the primary's postmaster killed.
old=$(leader)
[ "$old" != none ] || die "no primary before the failover"
new=$((1 - old))
postmaster=$(head -n 1 "$fleet/node$((old + 1))/data/postmaster.pid")
t=$(now)
kill -KILL "$postmaster"
wait_until 60 "node$((new + 1)) promoted" curl -sf "http://127.0.0.1:${rest[$new]}/primary"
sleep 15
phase failover recover "$t" 30
check_writes "$t"
# The sweeper must keep working on the new primary: expired challenges planted now (marked by a
# created_at no request writes) are to be gone by the end, deleted by an instance's own sweeper.
planted=50
psql -X -q -v ON_ERROR_STOP=1 -d "$db_url" -c "INSERT INTO passkey_authentication_challenges (id, challenge, created_at, expires_at)
    SELECT gen_random_uuid(), decode(repeat('00', 32), 'hex'), '2000-01-01 00:00:00+00', now() - interval '1 minute'
    FROM generate_series(1, $planted)" >/dev/null

# 5. The old primary rejoins as a standby (Patroni rewinds and restarts it), under load.
wait_until 120 "node$((old + 1)) back as synchronous standby" both_running "$old"
t=$(now)
sleep 10
phase rejoin zero-failures "$t" 0
check_writes "$t"

# --- The end: every token, the mail, the figures --------------------------------------------
touch "$fleet/stop"
wait "${pids[load]}" || die "the load generator failed: $(tail -n 5 "$fleet/load.log")"
unset 'pids[load]'
check_writes 0
pending() {
    [ "$(psql -X -q -At -d "$db_url" -c "SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL")" = 0 ]
}
# A mail claimed by the killed instance waits for its lease (120 s) before another sender takes it.
wait_until 300 "every mail sent" pending
mail=$(cd "$fleet" && psql -X -q -At -v ON_ERROR_STOP=1 -d "$db_url" <<'SQL'
SELECT (SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL) || ' ' ||
       (SELECT count(*) FROM mail_outbox WHERE abandoned_at IS NOT NULL);
SQL
)
read -r pending_left abandoned <<<"$mail"
# (v4) Every account.created of the log delivered to the endpoint (a delivery claimed by the
# killed instance waits for its lease, 80 s, before another sender takes it).
webhooks_pending() {
    [ "$(psql -X -q -At -d "$db_url" -c "SELECT count(*) FROM webhook_deliveries WHERE abandoned_at IS NULL")" = 0 ]
}
wait_until 300 "every webhook delivered" webhooks_pending
psql -X -q -At -d "$db_url" -c "SELECT id FROM webhook_events WHERE kind = 'account.created'" >"$fleet/created-events.txt"
webhook_abandoned=$(psql -X -q -At -d "$db_url" -c "SELECT count(*) FROM webhook_deliveries WHERE abandoned_at IS NOT NULL")
webhook_counts=$(python3 - "$fleet/webhooks/log.jsonl" "$fleet/created-events.txt" <<'EOF'
import json, sys
received = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
events = {line.strip() for line in open(sys.argv[2]) if line.strip()}
ids = [r["id"] for r in received]
unverified = sum(1 for r in received if r["verified"] is not True)
print(len(events), len(received), len(set(ids)), unverified, len(events - set(ids)))
EOF
)
read -r webhook_events webhook_received webhook_distinct webhook_unverified webhook_missing <<<"$webhook_counts"
# Each instance sweeps once a minute: the rows planted after the failover are gone within two.
planted_left() {
    psql -X -q -At -d "$db_url" \
        -c "SELECT count(*) FROM passkey_authentication_challenges WHERE created_at = '2000-01-01 00:00:00+00'"
}
sweep_end=$(($(date +%s) + 130))
until [ "$(planted_left)" = 0 ] || (($(date +%s) >= sweep_end)); do sleep 1; done
sweep_left=$(planted_left)
sweep_failed=$(cat "$fleet"/app*.log | grep -c 'event=sweep outcome=failed' || true)
# Sent rows are swept soon after: an acknowledged recovery mail is checked in the Maildir (its To:).
unqueued=$(python3 - "$fleet/maildir/new" "$fleet/acked-mails.txt" <<'EOF'
import os, re, sys
folder, acked = sys.argv[1], sys.argv[2]
delivered = set()
for name in os.listdir(folder):
    with open(os.path.join(folder, name), errors="replace") as f:
        match = re.search(r"^To:\s*(\S+)", f.read(), re.M)
    if match: delivered.add(match.group(1).lower())
print(sum(1 for line in open(acked) if line.strip() and line.strip().lower() not in delivered))
EOF
)
files=$(find "$fleet/maildir/new" -type f | wc -l)
distinct=$(find "$fleet/maildir/new" -type f -exec grep -h -m1 -i '^Message-ID:' {} + | sort -u | wc -l)
# A mail delivered twice is allowed only when its first copy arrived in the 2 s before the
# SIGKILL of its instance (accepted by the relay, not yet recorded as sent: docs/mail.md).
kill_time=$(awk '$1 == "kill" { print $3 }' "$phases")
unexplained=$(python3 - "$fleet/maildir/new" "$kill_time" <<'EOF'
import os, re, sys
folder, kill = sys.argv[1], float(sys.argv[2])
first, copies = {}, {}
for name in os.listdir(folder):
    path = os.path.join(folder, name)
    with open(path, errors="replace") as f:
        match = re.search(r"^Message-ID:\s*(\S+)", f.read(), re.M | re.I)
    key = match.group(1) if match else name
    copies[key] = copies.get(key, 0) + 1
    first[key] = min(first.get(key, float("inf")), os.path.getmtime(path))
print(sum(1 for k, n in copies.items() if n > 1 and not (kill - 2 <= first[k] <= kill + 0.5)))
EOF
)
read_only=$(cat "$fleet"/app*.log | grep -c '25006' || true)
# (v4) Rotation and revocation of the signing keys across both instances.
keys_line=$(DATABASE_URL=$db_url DATA_ENCRYPTION_KEY=$data_key PASSKEY_MIGRATIONS_DIR="$root/Migrations" \
    python3 "$root/scripts/fleet/token-keys-test.py" --base "$base" --exe "$exe" --client "$introspection_client" \
    --app "http://127.0.0.1:${app_port[0]}" --app "http://127.0.0.1:${app_port[1]}" 2>&1) || true
status=0
echo "$limits_line"
echo "$rest_line"
"$load" report -out "$fleet" -phases "$phases" || status=1
mail_line="fleet: mail       delivered=$files distinct=$distinct twice-at-the-kill=$((files - distinct - unexplained)) twice-otherwise=$unexplained unsent=$pending_left abandoned=$abandoned acknowledged-not-delivered=$unqueued  goal: every mail delivered, twice only if in flight at the SIGKILL"
if [ "$pending_left" = 0 ] && [ "$unexplained" = 0 ] && [ "$abandoned" = 0 ] && [ "$unqueued" = 0 ]; then
    echo "$mail_line [PASS]"
else
    echo "$mail_line [FAIL]"
    status=1
fi
webhook_line="fleet: webhooks   account.created=$webhook_events received=$webhook_received distinct=$webhook_distinct unverified=$webhook_unverified missing=$webhook_missing abandoned=$webhook_abandoned  goal: every event delivered and signed (at least once), none abandoned"
if [ "$webhook_events" -gt 0 ] && [ "$webhook_missing" = 0 ] && [ "$webhook_unverified" = 0 ] && [ "$webhook_abandoned" = 0 ]; then
    echo "$webhook_line [PASS]"
else
    echo "$webhook_line [FAIL]"
    status=1
fi
sweep_line="fleet: sweeper    planted-after-failover=$planted left=$sweep_left failed-passes=$sweep_failed  goal: the sweeper works on the new primary (the planted rows deleted by the end)"
if [ "$sweep_left" = 0 ]; then echo "$sweep_line [PASS]"; else echo "$sweep_line [FAIL]"; status=1; fi
echo "fleet: read-only (25006) answers seen by the instances: $read_only (each one discarded its connection)"
echo "$keys_line"
case "$keys_line" in *"[PASS]") ;; *) status=1 ;; esac
echo "fleet: $(wc -l <"$fleet/requests.jsonl") requests in all; writes checked: $("$load" export -out "$fleet")"
exit "$status"
