#!/usr/bin/env python3
"""Checks the slow-client and per-source limits of deploy/ha/haproxy.cfg with a real HAProxy.

`make fleet-test` runs it before the fleet starts (docs/operations.md); it also runs alone:

    python3 scripts/fleet/haproxy-limits-test.py [--config FILE]

It fills in the template (`--config`, default deploy/ha/haproxy.cfg) for 127.0.0.1 with an empty
file of exempt addresses, checks it with `haproxy -c`, starts HAProxy in front of two trivial
backends (Python's HTTP server, answering 200 to everything) and, from several loopback source
addresses (127.0.0.2 to 127.0.0.6; the kernel accepts any 127/8 address), checks that:

  head      a connection that sends nothing, a request head that stops halfway, and one sent a
            byte a second are closed within 10 s of their first byte (plus 3 s of slack);
  one-source one address opening more connections than the whole proxy accepts (global maxconn
            + 100), each with half a head, holds no more than the per-source limit;
  others    meanwhile a client from another address is served (200 within 3 s);
  rate      one address sending requests as fast as it can gets a 429 problem+json with
            Retry-After once past the per-source request rate, while another address is still
            served.

One line per check, exit 1 when one fails, and exit 1 at once when haproxy is not installed.
The limits it expects (connections, requests) are read from the template's
`sc_conn_cur(0) gt N` and `sc_http_req_rate(0) gt N` lines; a template without them fails.
"""

import argparse
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAD_LIMIT_SECONDS = 10  # the most a head may take (finding 8 of the fourth review: 5-10 s)
SLACK_SECONDS = 3

results = []


def check(name, ok, detail):
    results.append(ok)
    print(f"haproxy-limits: {name:<10} {detail} [{'PASS' if ok else 'FAIL'}]", flush=True)


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # HAProxy's health checks end with a reset


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_HEAD = _answer

    def log_message(self, *args):
        pass


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def connect_from(source, port, timeout=3.0):
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def get(source, port, timeout=3.0):
    """One GET / from `source`; (status, headers text, body) or raises."""
    s = connect_from(source, port, timeout)
    try:
        s.sendall(b"GET / HTTP/1.1\r\nHost: limits.test\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, head.decode(errors="replace"), body.decode(errors="replace")


def wait_closed(sock, deadline, trickle=None):
    """Reads until the peer closes; sends one byte of `trickle` a second meanwhile.
    Returns (seconds it took, or None if still open at `deadline`; bytes received)."""
    start = time.monotonic()
    received = b""
    sock.settimeout(0.2)
    next_byte = start + 1
    while time.monotonic() < deadline:
        if trickle and time.monotonic() >= next_byte:
            try:
                sock.send(trickle[:1])
            except OSError:
                return time.monotonic() - start, received
            trickle = trickle[1:] or b"X"
            next_byte += 1
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return time.monotonic() - start, received
        if not chunk:
            return time.monotonic() - start, received
        received += chunk
    return None, received


def is_open(sock):
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=os.path.join(ROOT, "deploy/ha/haproxy.cfg"))
    parser.add_argument("--errorfile", default=os.path.join(ROOT, "deploy/ha/503-service-unavailable.http"))
    args = parser.parse_args()

    haproxy = shutil.which("haproxy")
    if not haproxy:
        print("haproxy-limits: haproxy is not installed (apt-get install haproxy): cannot check the limits",
              file=sys.stderr)
        return 1
    template = open(args.config).read()
    conn_limit = re.search(r"sc_conn_cur\(0\)\s+(?:gt|ge)\s+(\d+)", template)
    rate_limit = re.search(r"sc_http_req_rate\(0\)\s+(?:gt|ge)\s+(\d+)", template)
    global_section = re.search(r"^global\b(.*?)^(?:defaults|frontend|listen|backend)\b", template, re.M | re.S)
    maxconn = re.search(r"^\s*maxconn\s+(\d+)", global_section.group(1) if global_section else "", re.M)
    conn_limit = int(conn_limit.group(1)) if conn_limit else None
    rate_limit = int(rate_limit.group(1)) if rate_limit else None
    maxconn = int(maxconn.group(1)) if maxconn else 4000

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = maxconn + 1000
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))

    work = tempfile.mkdtemp(prefix="haproxy-limits.")
    http_port, db_port, pg1, pg2, rest1, rest2 = free_ports(6)
    backends = []
    for _ in range(2):
        server = QuietServer(("127.0.0.1", 0), Backend)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        backends.append(server)
    exempt = os.path.join(work, "limits-exempt.txt")
    open(exempt, "w").close()  # no address is exempt, as on a real host
    values = {
        "SOCKET": os.path.join(work, "haproxy.sock"), "DB_PORT": db_port, "NODE1": "node1", "NODE2": "node2",
        "PG1_PORT": pg1, "PG2_PORT": pg2, "REST1_PORT": rest1, "REST2_PORT": rest2, "HTTP_PORT": http_port,
        "APP1_PORT": backends[0].server_address[1], "APP2_PORT": backends[1].server_address[1],
        "ERRORFILE": args.errorfile, "LIMITS_EXEMPT": exempt,
    }
    text = template
    for key, value in values.items():
        text = text.replace(f"@{key}@", str(value))
    config = os.path.join(work, "haproxy.cfg")
    with open(config, "w") as f:
        f.write(text)
    proc = None
    held = []
    try:
        left = re.findall(r"@[A-Z0-9_]+@", re.sub(r"#.*", "", text))
        if left:
            print(f"haproxy-limits: unfilled placeholders {sorted(set(left))} in {args.config}", file=sys.stderr)
            return 1
        syntax = subprocess.run([haproxy, "-c", "-f", config], capture_output=True, text=True)
        check("syntax", syntax.returncode == 0, f"haproxy -c -f (filled-in {os.path.basename(args.config)}): "
              + (syntax.stdout + syntax.stderr).strip().splitlines()[-1])
        if syntax.returncode != 0:
            print(syntax.stderr, file=sys.stderr)
            return 1
        log = open(os.path.join(work, "haproxy.log"), "w")
        proc = subprocess.Popen([haproxy, "-f", config, "-db"], stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 15
        while True:
            try:
                if get("127.0.0.2", http_port)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > end or proc.poll() is not None:
                print(open(os.path.join(work, "haproxy.log")).read(), file=sys.stderr)
                print("haproxy-limits: HAProxy did not route to the backends within 15 s", file=sys.stderr)
                return 1
            time.sleep(0.2)

        # head: nothing, half a head, and a head a byte a second (what slowloris sends).
        silent = connect_from("127.0.0.3", http_port)
        partial = connect_from("127.0.0.3", http_port)
        partial.sendall(b"GET / HTTP/1.1\r\nHost: limits.test\r\n")
        trickling = connect_from("127.0.0.3", http_port)
        bound = HEAD_LIMIT_SECONDS + SLACK_SECONDS
        outcome = {}

        def watch(name, sock, trickle=None):
            outcome[name] = wait_closed(sock, time.monotonic() + bound, trickle)

        threads = [threading.Thread(target=watch, args=("silent", silent)),
                   threading.Thread(target=watch, args=("partial", partial)),
                   threading.Thread(target=watch, args=("trickle", trickling,
                                                        b"GET / HTTP/1.1\r\nHost: limits.test\r\nX-Slow: " + b"a" * 64))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for name, sock in (("silent", silent), ("partial", partial), ("trickle", trickling)):
            seconds, received = outcome[name]
            sock.close()
            status = received.split(b" ", 2)[1].decode() if received.startswith(b"HTTP/") else "none"
            what = {"silent": "nothing sent", "partial": "half a head", "trickle": "a head a byte a second"}[name]
            if seconds is None:
                check("head", False, f"{what}: still open after {bound} s (goal: closed within "
                      f"{HEAD_LIMIT_SECONDS} s + {SLACK_SECONDS} s)")
            else:
                answer = f"a {status} answer" if received else "no answer"
                check("head", status in ("408", "none"),
                      f"{what}: closed after {seconds:.1f} s with {answer} (goal: closed within "
                      f"{HEAD_LIMIT_SECONDS} s + {SLACK_SECONDS} s, no answer or a 408)")

        # one-source / others: more connections than the proxy accepts, all from one address.
        attempts = maxconn + 100
        refused = 0
        started = time.monotonic()
        for _ in range(attempts):
            try:
                s = connect_from("127.0.0.4", http_port, timeout=1.0)
                s.send(b"GET / HTTP/1.1\r\nHost: limits.test\r\n")
                held.append(s)
            except OSError:
                refused += 1
                if refused > 10:  # the kernel's backlog is full: that is enough to tell
                    break
        time.sleep(1)
        still = sum(1 for s in held if is_open(s))
        opened = time.monotonic() - started
        try:
            t0 = time.monotonic()
            status = get("127.0.0.2", http_port, timeout=3.0)[0]
            other = f"status {status} in {time.monotonic() - t0:.2f} s"
            other_ok = status == 200
        except OSError as e:
            other, other_ok = f"no answer within 3 s ({e.__class__.__name__})", False
        if conn_limit is None:
            check("one-source", False, f"{still} of {attempts} connections from 127.0.0.4 held open after "
                  f"{opened:.1f} s; the template sets no per-source connection limit (sc_conn_cur(0) gt N)")
        else:
            check("one-source", still <= conn_limit, f"{still} of {attempts} connections from 127.0.0.4 held open "
                  f"after {opened:.1f} s (goal: at most {conn_limit}, the per-source limit)")
        check("others", other_ok, f"meanwhile GET / from 127.0.0.2: {other} (goal: 200 within 3 s)")
        for s in held:
            s.close()
        held.clear()

        # rate: one address as fast as it can, on one keep-alive connection.
        rate_attempts = (rate_limit or 300) + 50
        s = connect_from("127.0.0.5", http_port, timeout=5.0)
        reader = s.makefile("rb")
        first_429 = None
        answer_429 = b""
        statuses = []
        try:
            for i in range(rate_attempts):
                s.sendall(b"GET / HTTP/1.1\r\nHost: limits.test\r\n\r\n")
                line = reader.readline()
                status = int(line.split(b" ", 2)[1]) if line.startswith(b"HTTP/") else 0
                headers = b""
                length = 0
                while True:
                    h = reader.readline()
                    if h in (b"\r\n", b""):
                        break
                    headers += h
                    if h.lower().startswith(b"content-length:"):
                        length = int(h.split(b":", 1)[1])
                body = reader.read(length) if length else b""
                statuses.append(status)
                if status == 429 and first_429 is None:
                    first_429, answer_429 = i + 1, line + headers + b"\r\n" + body
                if status != 200 or b"connection: close" in headers.lower():
                    break
        except OSError:
            pass
        finally:
            reader.close()
            s.close()
        try:
            other_status = get("127.0.0.6", http_port)[0]
        except OSError:
            other_status = 0
        if first_429 is None:
            check("rate", False, f"{len(statuses)} requests from 127.0.0.5 on one connection, no 429 "
                  f"(answers: {sorted(set(statuses))}); the template sets no per-source request rate")
        else:
            good = (b"application/problem+json" in answer_429 and b"retry-after:" in answer_429.lower()
                    and b'"code":"rate-limited"' in answer_429
                    and (rate_limit is None or first_429 <= rate_limit + 5))
            check("rate", good and rate_limit is not None and other_status == 200,
                  f"request {first_429} from 127.0.0.5 answered 429 "
                  f"{'problem+json rate-limited with Retry-After' if good else repr(answer_429[:200])}"
                  f"; meanwhile 127.0.0.6 got {other_status} (goal: 429 past {rate_limit} requests in 10 s, "
                  "others served)")
    finally:
        for s in held:
            s.close()
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for server in backends:
            server.shutdown()
            server.server_close()
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
