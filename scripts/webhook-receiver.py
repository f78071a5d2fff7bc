#!/usr/bin/env python3
"""A webhook receiver for the tests: an HTTP server on 127.0.0.1 that records every request and
judges its signature with the Standard Webhooks reference library (PyPI standardwebhooks).

    webhook-receiver.py STATE_DIR

Writes its port to STATE_DIR/port, appends one JSON line per request to STATE_DIR/log.jsonl, and
verifies a request to /NAME/... with the secret in STATE_DIR/secrets/NAME when that file exists
("verified": true or false; null without a secret). What it answers comes from the path:

    /NAME/ok            204
    /NAME/status-NNN    NNN
    /NAME/redirect      302 to /NAME/ok (which a webhook sender must not follow)
    /NAME/hang          nothing for 30 s (past any WEBHOOK_TIMEOUT_SECONDS), then 204
    /NAME/big           200 with a 1 MiB body
    /NAME/flaky-N       503 to the first N requests of each webhook-id, then 204

It exits when its parent does, so a crashed test run leaves nothing behind.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

STATE = sys.argv[1]
LOCK = threading.Lock()
ATTEMPTS = {}


def verify(name, body, headers):
    path = os.path.join(STATE, "secrets", name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        secret = f.read().strip()
    try:
        Webhook(secret).verify(body, headers)
        return True
    except WebhookVerificationError:
        return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        parts = self.path.strip("/").split("/")
        name, behaviour = (parts + ["", ""])[:2]
        headers = {k: self.headers.get(k, "") for k in ("webhook-id", "webhook-timestamp", "webhook-signature")}
        status = 204
        if behaviour.startswith("status-"):
            status = int(behaviour[len("status-"):])
        elif behaviour == "redirect":
            status = 302
        elif behaviour.startswith("flaky-"):
            with LOCK:
                key = (name, headers["webhook-id"])
                ATTEMPTS[key] = ATTEMPTS.get(key, 0) + 1
                status = 503 if ATTEMPTS[key] <= int(behaviour[len("flaky-"):]) else 204
        record = {
            "name": name, "behaviour": behaviour, "id": headers["webhook-id"],
            "timestamp": headers["webhook-timestamp"], "signature": headers["webhook-signature"],
            "contentType": self.headers.get("Content-Type", ""), "body": body.decode("utf-8", "replace"),
            "verified": verify(name, body, headers), "status": status, "receivedAt": time.time(),
        }
        if behaviour == "hang":
            record["status"] = 0
        with LOCK:
            with open(os.path.join(STATE, "log.jsonl"), "a") as f:
                f.write(json.dumps(record) + "\n")
        if behaviour == "hang":
            time.sleep(30)
        payload = b"x" * (1 << 20) if behaviour == "big" else b""
        self.send_response(status if behaviour != "big" else 200)
        if behaviour == "redirect":
            self.send_header("Location", f"/{name}/ok")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass


def watch_parent():
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def main():
    os.makedirs(os.path.join(STATE, "secrets"), exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=watch_parent, daemon=True).start()
    with open(os.path.join(STATE, "port.tmp"), "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(os.path.join(STATE, "port.tmp"), os.path.join(STATE, "port"))
    server.serve_forever()


if __name__ == "__main__":
    main()
