#!/usr/bin/python3
"""Send issue 24's bad shapes over raw sockets; print what the server answers (trimmed).
usage: shapes.py PORT [LOGFILE] [POOL]"""
import socket, sys, time

PORT = int(sys.argv[1]); LOG = sys.argv[2] if len(sys.argv) > 2 else None
POOL = int(sys.argv[3]) if len(sys.argv) > 3 else 32768


def conn():
    s = socket.create_connection(("127.0.0.1", PORT)); s.settimeout(3); return s


def read_all(s, limit=3.0):
    out = b""; end = time.time() + limit
    try:
        while time.time() < end:
            b = s.recv(65536)
            if not b: return out, "EOF"
            out += b
    except socket.timeout: return out, "timeout (open)"
    except ConnectionResetError: return out, "RST"
    return out, "open"


def show(name, raw=None, steps=None, wait=2.0):
    mark = None
    if LOG: mark = len(open(LOG, errors="replace").read())
    s = conn()
    try:
        if steps: steps(s)
        else: s.sendall(raw)
    except (BrokenPipeError, ConnectionResetError) as e:
        print("  send:", e)
    out, end = read_all(s, wait)
    s.close()
    print(f"== {name}: {len(out)} bytes, then {end}")
    head = out.split(b"\r\n\r\n", 1)
    print("   ", repr(out[:260]))
    if out.count(b"HTTP/1.1 ") > 1: print("    !! status line appears", out.count(b"HTTP/1.1 "), "times")
    if LOG:
        time.sleep(0.05)
        cb = [l.split("] ", 1)[1] for l in open(LOG, errors="replace").read()[mark:].splitlines() if "] " in l and "epoll_wait" not in l]
        print("    callbacks:", "; ".join(cb)[:400])


H = b"Host: a\r\n"
show("malformed Content-Length", b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 12x\r\n\r\n")
show("header line without colon", b"GET / HTTP/1.1\r\n" + H + b"NoColonHere\r\n\r\n")
show("head just over pool", b"GET / HTTP/1.1\r\n" + H + b"X-Big: " + b"a" * (POOL - 200) + b"\r\n\r\n")
show("head far over pool", b"GET / HTTP/1.1\r\n" + H + b"X-Big: " + b"a" * (POOL + 8000) + b"\r\n\r\n")
show("request line over pool", b"GET /" + b"a" * (POOL + 100) + b" HTTP/1.1\r\n" + H + b"\r\n")
for v in (b"HTTP/1.2", b"HTTP/2.0", b"HTTP/3.0", b"HTTP/0.9", b"FOO/1.1"):
    show("version " + v.decode(), b"GET / " + v + b"\r\n" + H + b"\r\n")
show("PRI (h2 prior knowledge)", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
show("Transfer-Encoding: gzip", b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: gzip\r\n\r\nabc", wait=1.5)

def trickle(path):
    def steps(s):
        s.sendall(b"POST " + path + b" HTTP/1.1\r\n" + H + b"Content-Length: 100\r\n\r\n0123456789")
    return steps
show("trickled body (10 of 100 bytes, then silence)", steps=trickle(b"/body"), wait=2.5)
show("queue a response mid-body", steps=trickle(b"/midqueue"), wait=1.0)

# over the connection limit: hold open connections, then one more
held = [conn() for _ in range(int(sys.argv[4]) if len(sys.argv) > 4 else 2)]
time.sleep(0.2)
show("one connection over the limit", b"GET / HTTP/1.1\r\n" + H + b"\r\n", wait=1.0)
for h in held: h.close()
