"""The password account of the authenticated Schemathesis run (scripts/schemathesis.sh).

`sign_up_and_in()` creates the account and prints a token. As Schemathesis hooks
(SCHEMATHESIS_HOOKS=schemathesis_account), an auth provider hands that token to every request and
signs in again (signing up again when a generated DELETE /v1/account removed the account) when
the server answers 401: generated requests may end the session or delete the account, and the
rest of the run should still test the signed-in paths. Sensitive operations need a recent
sign-in (REAUTHENTICATION_WINDOW_SECONDS, default 600 s), which a fresh token always is. (v3) A
generated PUT /v1/account/password replaces the password with one this module does not know:
then the sign-in fails, and a new account (the same address with a numbered prefix) takes over.
"""

import json
import os
import urllib.error
import urllib.request

import schemathesis

API = os.environ["SCHEMATHESIS_TEST_API"]
EMAIL = os.environ["SCHEMATHESIS_TEST_EMAIL"]
PASSWORD = os.environ["SCHEMATHESIS_TEST_PASSWORD"]


def _post(path, body):
    request = urllib.request.Request(
        API + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, None


_account = {"email": EMAIL, "replaced": 0}  # the address in use, and how many accounts were given up


def sign_in():
    status, body = _post("/v1/sessions", {"email": _account["email"], "password": PASSWORD})
    return body["accessToken"] if status == 200 else None


def sign_up_and_in():
    for _ in range(3):
        status, _ = _post(
            "/v1/accounts", {"email": _account["email"], "displayName": "Schemathesis", "password": PASSWORD})
        if status not in (201, 409):
            raise RuntimeError(f"sign-up answered {status}")
        token = sign_in()
        if token is not None:
            return token
        # 409 and the password refused: a generated PUT /v1/account/password replaced it.
        _account["replaced"] += 1
        _account["email"] = f"{_account['replaced']}-{EMAIL}"
    raise RuntimeError("sign-in after sign-up failed")


@schemathesis.auth(refresh_interval=600, retry_on=[401])
class PasswordAccountToken:
    """The token of the test account; a new one when the server stopped taking the last one."""

    first = os.environ.get("SCHEMATHESIS_TEST_TOKEN")

    def get(self, case, context):
        if PasswordAccountToken.first:
            token, PasswordAccountToken.first = PasswordAccountToken.first, None
            return token
        return sign_in() or sign_up_and_in()

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
