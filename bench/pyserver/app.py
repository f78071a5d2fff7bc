"""Reference sign-in server for the benchmark: py_webauthn + psycopg 3 + Starlette.

Implements the two passkey sign-in endpoints of shared/spec.md with the same JSON shapes,
against the same schema, with the same SQL statements as the Swift server
(Sources/PasskeyPersistence/PostgresChallengeRepository.swift and PostgresSessionRepository.swift):

  POST /v1/passkeys/authentications         INSERT challenge                         (1 round trip)
  POST /v1/passkeys/authentications/finish  consume challenge + read credential CTE  (round trip 1)
                                            verify with py_webauthn
                                            update counter + insert session CTE      (round trip 2)

Run it as `uvicorn app:app --workers 2 ...` (bench/run.sh does). Environment:
DATABASE_URL (libpq conninfo), DATABASE_POOL_SIZE (connections per worker), PASSKEY_RP_ID,
PASSKEY_ORIGINS (comma-separated), CHALLENGE_LIFETIME_SECONDS, SESSION_LIFETIME_SECONDS.

Only the sign-in ceremony is implemented; it is a yardstick, not a product.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import secrets
import uuid
from contextlib import asynccontextmanager
from datetime import datetime, timedelta, timezone

from psycopg_pool import AsyncConnectionPool
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from webauthn import generate_authentication_options, verify_authentication_response
from webauthn.helpers import options_to_json_dict
from webauthn.helpers.exceptions import InvalidAuthenticationResponse
from webauthn.helpers.structs import UserVerificationRequirement

RP_ID = os.environ.get("PASSKEY_RP_ID", "localhost")
ORIGINS = [o.strip() for o in os.environ.get("PASSKEY_ORIGINS", "http://localhost:8080").split(",") if o.strip()]
CHALLENGE_LIFETIME = int(os.environ.get("CHALLENGE_LIFETIME_SECONDS", "300"))
SESSION_LIFETIME = int(os.environ.get("SESSION_LIFETIME_SECONDS", "2592000"))
POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "4"))

# The same statements as the Swift server (placeholders in psycopg's style).
INSERT_CHALLENGE = """
WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
INSERT INTO passkey_authentication_challenges (id, challenge, expires_at, consumed_at)
SELECT %s, %s, %s, %s FROM relaxed
"""

CREDENTIAL_COLUMNS = """
pc.credential_id, pc.account_id, pc.public_key, pc.algorithm, pc.sign_count, pc.aaguid,
array_to_string(pc.transports, ','), pc.backup_eligible, pc.backup_state, pc.attestation_format,
pc.attestation_type, pc.resident_key, pc.user_verified, pc.name, pc.created_at, pc.last_used_at
"""

CONSUME_AND_READ = f"""
WITH c AS (
    UPDATE passkey_authentication_challenges SET consumed_at = now()
    WHERE id = %s AND consumed_at IS NULL AND expires_at > now()
    RETURNING challenge, expires_at, consumed_at
)
SELECT c.challenge, c.expires_at, c.consumed_at, a.id, a.display_name, a.created_at,
       {CREDENTIAL_COLUMNS}
FROM (SELECT 1) AS one
LEFT JOIN c ON true
LEFT JOIN passkey_credentials pc ON pc.credential_id = %s
LEFT JOIN accounts a ON a.id = pc.account_id
"""

RECORD_ASSERTION = """
WITH u AS (
    UPDATE passkey_credentials
    SET sign_count = GREATEST(sign_count, %s), backup_state = %s,
        last_used_at = %s
    WHERE credential_id = %s AND sign_count = %s
    RETURNING account_id
)
INSERT INTO authentication_sessions (id, account_id, token_digest, method, created_at, expires_at)
SELECT %s, u.account_id, %s, %s, %s,
       %s
FROM u
"""

JSON_HEADERS = {"cache-control": "no-store"}

pool: AsyncConnectionPool | None = None


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def from_b64(value: object) -> bytes | None:
    """Unpadded or padded base64url, or standard base64 (as the spec accepts)."""
    if not isinstance(value, str) or not value:
        return None
    s = value.strip().replace("-", "+").replace("_", "/")
    s += "=" * (-len(s) % 4)
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return None


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def json_response(status: int, body: dict) -> Response:
    return Response(json.dumps(body, separators=(",", ":")), status, JSON_HEADERS, "application/json")


_TITLES = {400: "Bad Request", 401: "Unauthorized", 500: "Internal Server Error", 503: "Service Unavailable"}


def problem(status: int, code: str, detail: str) -> Response:
    body = {"type": "about:blank", "title": _TITLES.get(status, "Error"), "status": status, "detail": detail, "code": code}
    return Response(json.dumps(body), status, JSON_HEADERS, "application/problem+json")


async def start(request: Request) -> Response:
    challenge = secrets.token_bytes(32)
    challenge_id = uuid.uuid4()
    expires_at = datetime.now(timezone.utc) + timedelta(seconds=CHALLENGE_LIFETIME)
    async with pool.connection() as conn:
        await conn.execute(INSERT_CHALLENGE, (challenge_id, challenge, expires_at, None))
    options = generate_authentication_options(
        rp_id=RP_ID,
        challenge=challenge,
        timeout=CHALLENGE_LIFETIME * 1000,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    public_key = options_to_json_dict(options)
    public_key.setdefault("allowCredentials", [])
    public_key["hints"] = []
    return json_response(
        200,
        {
            "challengeID": str(challenge_id),
            "relyingPartyID": RP_ID,
            "challenge": b64url(challenge),
            "expiresAt": rfc3339(expires_at),
            "publicKey": public_key,
        },
    )


async def finish(request: Request) -> Response:
    try:
        body = json.loads(await request.body())
    except ValueError:
        return problem(400, "invalid-request", "The body is not JSON.")
    if not isinstance(body, dict):
        return problem(400, "invalid-request", "The body must be a JSON object.")
    try:
        challenge_id = uuid.UUID(str(body.get("challengeID")))
    except ValueError:
        return problem(400, "invalid-request", "challengeID must be a UUID.")
    fields = {}
    for name in ("credentialID", "clientDataJSON", "authenticatorData", "signature"):
        value = from_b64(body.get(name))
        if value is None:
            return problem(400, "invalid-request", f"{name} is missing or not base64url.")
        fields[name] = value
    user_handle = from_b64(body.get("userHandle")) if body.get("userHandle") is not None else None
    credential_id = fields["credentialID"]
    if not 1 <= len(credential_id) <= 1023:
        return problem(400, "invalid-request", "credentialID must be 1 to 1023 bytes.")

    async with pool.connection() as conn:
        cur = await conn.execute(CONSUME_AND_READ, (challenge_id, credential_id))
        row = await cur.fetchone()
    if row is None or row[0] is None:
        return problem(400, "challenge-unavailable", "The challenge is unknown, expired or used.")
    if row[6] is None or row[3] is None:
        return problem(401, "unknown-credential", "No passkey has this credential ID.")
    expected_challenge = bytes(row[0])
    account_id, display_name = row[3], row[4]
    public_key, stored_count = bytes(row[8]), int(row[10])
    backup_eligible = bool(row[13])

    if user_handle is None or user_handle != account_id.bytes:
        return problem(401, "authentication-failed", "The passkey could not be verified.")
    try:
        verified = verify_authentication_response(
            credential={
                "id": b64url(credential_id),
                "rawId": b64url(credential_id),
                "type": "public-key",
                "response": {
                    "clientDataJSON": b64url(fields["clientDataJSON"]),
                    "authenticatorData": b64url(fields["authenticatorData"]),
                    "signature": b64url(fields["signature"]),
                    "userHandle": b64url(user_handle),
                },
            },
            expected_challenge=expected_challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGINS,
            credential_public_key=public_key,
            credential_current_sign_count=stored_count,
            require_user_verification=True,
        )
    except InvalidAuthenticationResponse:
        return problem(401, "authentication-failed", "The passkey could not be verified.")
    flags = fields["authenticatorData"][32]
    new_be = bool(flags & 0x08)
    if new_be != backup_eligible:
        return problem(401, "authentication-failed", "The passkey could not be verified.")
    if verified.new_sign_count == 0 and stored_count == 0 and not backup_eligible:
        return problem(401, "authentication-failed", "The passkey could not be verified.")

    token = secrets.token_bytes(32)
    now = datetime.now(timezone.utc)
    expires_at = now + timedelta(seconds=SESSION_LIFETIME)
    async with pool.connection() as conn:
        cur = await conn.execute(
            RECORD_ASSERTION,
            (
                verified.new_sign_count,
                verified.credential_backed_up,
                now,
                credential_id,
                stored_count,
                uuid.uuid4(),
                hashlib.sha256(token).digest(),
                "passkey",
                now,
                expires_at,
            ),
        )
        recorded = cur.rowcount == 1
    if not recorded:
        return problem(401, "authentication-failed", "The passkey could not be verified.")
    return json_response(
        200,
        {
            "accessToken": b64url(token),
            "tokenType": "Bearer",
            "expiresAt": rfc3339(expires_at),
            "accountID": str(account_id),
            "displayName": display_name,
        },
    )


async def healthz(request: Request) -> Response:
    return json_response(200, {"status": "ok"})


@asynccontextmanager
async def lifespan(app):
    global pool
    pool = AsyncConnectionPool(
        os.environ["DATABASE_URL"],
        min_size=POOL_SIZE,
        max_size=POOL_SIZE,
        open=False,
        kwargs={"autocommit": True},
    )
    await pool.open(wait=True, timeout=30)
    try:
        yield
    finally:
        await pool.close()


app = Starlette(
    routes=[
        Route("/v1/passkeys/authentications", start, methods=["POST"]),
        Route("/v1/passkeys/authentications/finish", finish, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ],
    lifespan=lifespan,
)
