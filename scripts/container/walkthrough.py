"""The README walk-through and a passkey sign-in against a running server, over plain HTTP.

    python walkthrough.py BASE_URL ORIGIN

BASE_URL is where to send requests (the container's published port, e.g. http://127.0.0.1:18080);
ORIGIN is the web origin the server trusts (PASSKEY_ORIGINS, e.g. http://localhost:18080); the
relying party ID is the one the server's options name. The software authenticator makes a P-256
key (ES256), answers the registration with attestation "none" (flags UP|UV|AT) and the sign-in
with an assertion over authenticatorData || SHA-256(clientDataJSON), as a platform
authenticator would. Needs `cryptography` and `cbor2` (scripts/container-test.sh installs them
into .tools/venv). Exits non-zero on the first unexpected answer.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import struct
import sys
import urllib.error
import urllib.request

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Client:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    def call(self, method: str, path: str, body: object = None, token: str | None = None,
             expect: int = 200) -> object:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        text = raw.decode(errors="replace")
        mark = "ok " if status == expect else "FAIL"
        print(f"  {mark} {method:6} {path:42} -> {status}" + ("" if status == expect else f" (expected {expect}): {text[:300]}"))
        if status != expect:
            sys.exit(1)
        return json.loads(text) if text.strip() and text.lstrip()[0] in "{[" else text


class SoftwareAuthenticator:
    """One ES256 passkey, as a platform authenticator holds it."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(32)
        self.sign_count = 0
        self.user_handle: bytes | None = None

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    @staticmethod
    def client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False},
                          separators=(",", ":")).encode()

    def register(self, options: dict, origin: str) -> dict:
        public_key = options["publicKey"]
        algorithms = [p.get("alg") for p in public_key.get("pubKeyCredParams", [])]
        if -7 not in algorithms:
            sys.exit(f"  FAIL the server does not offer ES256: {algorithms}")
        rp_id = public_key.get("rp", {}).get("id") or options["relyingPartyID"]
        self.user_handle = unb64url(public_key["user"]["id"])
        client_data = self.client_data("webauthn.create", public_key["challenge"], origin)
        flags = 0x01 | 0x04 | 0x40  # UP | UV | AT
        auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.sign_count)
                     + bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + self.cose_key())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                             "transports": ["internal"]},
                "authenticatorAttachment": "platform", "clientExtensionResults": {}}

    def assert_(self, options: dict, origin: str) -> dict:
        public_key = options["publicKey"]
        rp_id = public_key.get("rpId") or options["relyingPartyID"]
        self.sign_count += 1
        client_data = self.client_data("webauthn.get", public_key["challenge"], origin)
        auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([0x01 | 0x04]) + struct.pack(">I", self.sign_count)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": b64url(self.user_handle or b"")},
                "authenticatorAttachment": "platform", "clientExtensionResults": {}}


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    api, origin = Client(sys.argv[1]), sys.argv[2]
    email = f"taro+{os.getpid()}-{secrets.token_hex(4)}@example.com"
    password = "correct horse battery"

    print("health:")
    api.call("GET", "/healthz")
    api.call("GET", "/readyz")

    print("README walk-through:")
    api.call("POST", "/v1/accounts", {"email": email, "displayName": "Taro", "password": password}, expect=201)
    session = api.call("POST", "/v1/sessions", {"email": email, "password": password})
    token = session["accessToken"]
    assert session["method"] == "password", session
    api.call("POST", "/v1/passkeys/registrations", {"mode": "conditional"}, token=token)
    account = api.call("GET", "/v1/account", token=token)
    assert account["hasPassword"] is True and account["passkeys"] == [], account

    print("passkey with the software authenticator:")
    authenticator = SoftwareAuthenticator()
    options = api.call("POST", "/v1/passkeys/registrations", {"mode": "modal"}, token=token)
    credential = authenticator.register(options, origin)
    api.call("POST", "/v1/passkeys/registrations/finish",
             {"challengeID": options["challengeID"], "credential": credential}, token=token, expect=204)
    account = api.call("GET", "/v1/account", token=token)
    assert len(account["passkeys"]) == 1, account

    options = api.call("POST", "/v1/passkeys/authentications", {})
    assertion = authenticator.assert_(options, origin)
    session = api.call("POST", "/v1/passkeys/authentications/finish",
                       {"challengeID": options["challengeID"], "credential": assertion})
    if session.get("method") != "passkey" or session.get("accountID") != account["accountID"]:
        sys.exit(f"  FAIL the sign-in did not give a passkey session of the account: {session}")
    api.call("GET", "/v1/account", token=session["accessToken"])
    print(f"passkey sign-in: ok (session method {session['method']!r}, account {session['accountID']})")


if __name__ == "__main__":
    main()
