#!/usr/bin/env python3
"""Writes a libFuzzer seed corpus from the WebAuthn vectors: every attestationObject,
authenticatorData, credentialPublicKey and clientDataJSON, one raw file each.

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

count = 0
for path in sorted(glob.glob(os.path.join(vectors, "*.json"))):
    vector = json.load(open(path))
    response = vector.get("response", {})
    fields = [response.get("attestationObject"), response.get("authenticatorData"),
              response.get("clientDataJSON"), vector.get("credentialPublicKey")]
    for field in fields:
        if not field:
            continue
        data = b64url(field)
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        count += 1
print(f"{count} seeds written to {out}")
