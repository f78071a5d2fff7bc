#!/usr/bin/env python3
"""Writes a libFuzzer seed corpus from the WebAuthn vectors: every attestationObject,
authenticatorData, credentialPublicKey and clientDataJSON, and the attestation statement's
TPM certInfo/pubArea and SafetyNet JWS byte strings, one raw file each.

usage: python3 Fuzz/make-corpus.py [VECTORS_DIR] [OUT_DIR]
defaults: ../shared/webauthn-vectors/vectors (relative to the package root), Fuzz/corpus
"""
import base64, glob, hashlib, json, os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
vectors = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "webauthn-vectors", "vectors")
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "Fuzz", "corpus")
os.makedirs(out, exist_ok=True)

def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

def statement_bytes(attestation, key):
    """The byte string that follows the CBOR text key `key` (definite lengths up to 2^16)."""
    marker = bytes([0x60 + len(key)]) + key.encode()
    at = attestation.find(marker)
    if at < 0:
        return None
    i = at + len(marker)
    head = attestation[i]
    if 0x40 <= head <= 0x57:
        return attestation[i + 1:i + 1 + head - 0x40]
    if head == 0x58:
        return attestation[i + 2:i + 2 + attestation[i + 1]]
    if head == 0x59:
        n = int.from_bytes(attestation[i + 1:i + 3], "big")
        return attestation[i + 3:i + 3 + n]
    return None

count = 0
for path in sorted(glob.glob(os.path.join(vectors, "*.json"))):
    vector = json.load(open(path))
    response = vector.get("response", {})
    fields = [response.get("attestationObject"), response.get("authenticatorData"),
              response.get("clientDataJSON"), vector.get("credentialPublicKey")]
    blobs = [b64url(field) for field in fields if field]
    if response.get("attestationObject"):
        attestation = b64url(response["attestationObject"])
        blobs += [b for b in (statement_bytes(attestation, k) for k in ("certInfo", "pubArea", "response")) if b]
    for data in blobs:
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        count += 1
print(f"{count} seeds written to {out}")
