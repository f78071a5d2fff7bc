#!/usr/bin/python3
"""Extra shapes for h2o: heads over H2O_MAX_REQLEN (417,792 B), over 100 headers, 413, keep-alive
after a filtered error. usage: shapes_h2o_extra.py PORT"""
import socket, sys, time
PORT = int(sys.argv[1])
def ask(name, raw, wait=1.5):
    s = socket.create_connection(("127.0.0.1", PORT)); s.settimeout(wait)
    try: s.sendall(raw)
    except Exception as e: print("  send:", e)
    out = b""; end = "open"
    try:
        while True:
            b = s.recv(65536)
            if not b: end = "EOF"; break
            out += b
    except socket.timeout: end = "timeout (open)"
    except ConnectionResetError: end = "RST"
    s.close(); print(f"== {name}: {len(out)} bytes, then {end}\n   ", repr(out[:300]))
H = b"Host: a\r\n"
ask("head 420 KB (over H2O_MAX_REQLEN)", b"GET / HTTP/1.1\r\n" + H + b"X-Big: " + b"a" * 420000 + b"\r\n\r\n")
ask("101 headers", b"GET / HTTP/1.1\r\n" + H + b"".join(b"X-%d: v\r\n" % i for i in range(101)) + b"\r\n")
ask("Content-Length 70000 > max", b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 70000\r\n\r\n")
ask("malformed CL", b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 12x\r\n\r\n")
ask("TE gzip", b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: gzip\r\n\r\n")
ask("no colon", b"GET / HTTP/1.1\r\n" + H + b"NoColonHere\r\n\r\n")
ask("HTTP/1.1 without Host", b"GET / HTTP/1.1\r\n\r\n")
ask("two Content-Length", b"POST /post HTTP/1.1\r\n" + H + b"Content-Length: 3\r\nContent-Length: 5\r\n\r\nabcde")
ask("CL + chunked", b"POST /post HTTP/1.1\r\n" + H + b"Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
ask("bare LF", b"GET / HTTP/1.1\n" + H.replace(b"\r\n", b"\n") + b"\n")
ask("space before colon", b"GET / HTTP/1.1\r\n" + H + b"Content-Length : 3\r\n\r\n")
