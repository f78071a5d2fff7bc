#!/usr/bin/python3
"""Is h2o's http1.req_timeout a total deadline or an idle timeout? Send one byte every 400 ms.
usage: trickle_h2o.py PORT"""
import socket, sys, time
PORT = int(sys.argv[1])
def trickle(name, prefix, drip):
    s = socket.create_connection(("127.0.0.1", PORT)); s.settimeout(0.01)
    s.sendall(prefix); t0 = time.time(); out = b""; end = None
    for ch in drip:
        try:
            s.send(bytes([ch]))
        except (BrokenPipeError, ConnectionResetError) as e:
            end = f"send failed {type(e).__name__}"; break
        try:
            b = s.recv(4096)
            if not b: end = "EOF"; break
            out += b
        except socket.timeout: pass
        except ConnectionResetError: end = "RST"; break
        time.sleep(0.4)
    print(f"== {name}: {end} after {time.time()-t0:.1f} s, answer {out[:120]!r}")
    s.close()
trickle("head trickled", b"GET / HTTP/1.1\r\n", b"X-Slow: " + b"a" * 20)
trickle("body trickled", b"POST /post HTTP/1.1\r\nHost: a\r\nContent-Length: 30\r\n\r\n", b"b" * 20)
trickle("obs-fold", b"", b"")
s = socket.create_connection(("127.0.0.1", PORT)); s.settimeout(1.5)
s.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n  folded\r\n\r\n")
try: print("== obs-fold:", repr(s.recv(4096)[:130]))
except Exception as e: print("== obs-fold:", e)
