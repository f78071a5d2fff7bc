#!/usr/bin/env python3
"""Real-browser end-to-end test of passkey-server.

Headless Chromium (Selenium + chromedriver) with a CDP virtual authenticator opens the static
page Tests/browser/index.html and runs WebAuthn ceremonies against the server through
JavaScript executed in the page. Started by scripts/browser-test.sh, which provides:

  PAGE_URL          http://localhost:P1 (serves Tests/browser/)
  API_URL           http://localhost:P2 (the passkey server)
  CHROMIUM_BIN      the Chromium binary
  CHROMEDRIVER_BIN  the matching chromedriver
  WORK_DIR          a scratch folder (browser profile, driver log)
  SERVER_LOG        the server's log file (quoted on failures)
  SUMMARY_FILE      where "passed failed" is written for the script
  BROWSER_TEST_JS_FALLBACK=1  optional: use the page's own base64url conversions instead of
                    parseCreationOptionsFromJSON / parseRequestOptionsFromJSON / toJSON

Each test prints `PASS name` or `FAIL name: reason`. A browser that cannot start is a failure,
never a skip. Exit status: 0 when every test passed, 1 otherwise.
"""

import json
import os
import secrets
import sys
import time
import traceback
import urllib.request

PAGE_URL = os.environ["PAGE_URL"]
API_URL = os.environ["API_URL"]
CHROMIUM_BIN = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER_BIN = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
WORK_DIR = os.environ.get("WORK_DIR", "/tmp")
SERVER_LOG = os.environ.get("SERVER_LOG")
SUMMARY_FILE = os.environ.get("SUMMARY_FILE")
SCRIPT_TIMEOUT_S = 45

results = []  # (name, ok)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def short(value, limit=600):
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def server_log_lines(request_ids):
    if not SERVER_LOG or not request_ids:
        return []
    try:
        with open(SERVER_LOG, encoding="utf-8", errors="replace") as f:
            return [line.rstrip("\n") for line in f if any(rid in line for rid in request_ids)]
    except OSError:
        return []


class Browser:
    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM_BIN
        for arg in (
            "--headless=new",
            "--no-sandbox",  # required as root
            "--disable-dev-shm-usage",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-sync",
            "--disable-component-update",
            "--password-store=basic",
            f"--user-data-dir={os.path.join(WORK_DIR, 'chromium-profile')}",
        ):
            options.add_argument(arg)
        service = Service(executable_path=CHROMEDRIVER_BIN, log_output=os.path.join(WORK_DIR, "chromedriver.log"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_script_timeout(SCRIPT_TIMEOUT_S)
        self.driver.set_page_load_timeout(30)
        self.version = self.driver.capabilities.get("browserVersion", "?")
        self.authenticator = None

    # ---- CDP virtual authenticator ----
    def add_authenticator(self):
        self.driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        answer = self.driver.execute_cdp_cmd(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )
        self.authenticator = answer["authenticatorId"]
        return self.authenticator

    def remove_authenticator(self):
        if self.authenticator:
            self.driver.execute_cdp_cmd("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": self.authenticator})
            self.authenticator = None

    def set_user_verified(self, verified):
        self.driver.execute_cdp_cmd(
            "WebAuthn.setUserVerified", {"authenticatorId": self.authenticator, "isUserVerified": verified}
        )

    def credentials(self):
        answer = self.driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return answer.get("credentials", [])

    # ---- page ----
    def open_page(self):
        fallback = "&fallback=1" if os.environ.get("BROWSER_TEST_JS_FALLBACK") == "1" else ""
        self.driver.get(f"{PAGE_URL}/index.html?api={API_URL}{fallback}")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.driver.execute_script("return typeof window.pk === 'object'"):
                return self.driver.execute_script("return window.pk.native")
            time.sleep(0.1)
        raise Failure("the test page did not load window.pk within 30 s")

    def call(self, fn, *args):
        """Runs `await window.pk[fn](...args)` in the page; returns its value or raises Failure."""
        script = """
            const done = arguments[arguments.length - 1];
            const fn = arguments[0], args = arguments[1];
            Promise.resolve().then(() => window.pk[fn](...args)).then(
                value => done({ ok: true, value }),
                e => done({ ok: false, error: (e && e.name) ? e.name + ': ' + e.message : String(e) }));
        """
        answer = self.driver.execute_async_script(script, fn, list(args))
        if not answer or not answer.get("ok"):
            raise Failure(f"page function {fn} threw: {answer and answer.get('error')}")
        return answer["value"]

    def trace_length(self):
        try:
            return self.driver.execute_script("return window.pk.traceCount()")
        except Exception:  # noqa: BLE001 - diagnostics only
            return 0

    def trace(self, since, last=6):
        """The page's requests since the counter was `since` (at most the last `last`)."""
        try:
            entries = self.driver.execute_script(
                "return window.pk.trace.filter(e => e.seq > arguments[0])", since)
            return entries[-last:]
        except Exception:  # noqa: BLE001 - diagnostics only
            return []

    def quit(self):
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001
            pass


def expect_status(response, status, what):
    check(
        response and response.get("status") == status,
        f"{what}: expected {status}, got {response and response.get('status')} {short(response and response.get('body'))}",
    )


def run_test(browser, name, fn):
    first = browser.trace_length()
    try:
        note = fn()
        results.append((name, True))
        print(f"PASS {name}" + (f" ({note})" if note else ""), flush=True)
    except Exception as e:  # noqa: BLE001 - every failure is reported, none aborts the run
        results.append((name, False))
        reason = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {e}"
        print(f"FAIL {name}: {reason}", flush=True)
        if not isinstance(e, Failure):
            traceback.print_exc(file=sys.stdout)
        if isinstance(e, Failure) and str(e).startswith("needs "):
            return  # a dependency failed: its own report says why
        trace = browser.trace(first)
        for entry in trace:
            print(
                f"    request {entry.get('requestID')}: {entry.get('method')} {entry.get('path')} "
                f"body={short(entry.get('requestBody'), 400)}",
                flush=True,
            )
            print(
                f"    response: {entry.get('status')} {entry.get('contentType')} "
                f"{short(entry.get('responseBody'), 400)}{' error=' + entry['error'] if entry.get('error') else ''}",
                flush=True,
            )
        for line in server_log_lines([t.get("requestID") for t in trace if t.get("requestID")]):
            print(f"    server: {line}", flush=True)


def main():
    state = {}
    browser = None

    # ---- the browser must start: a failure here is loud, never a skip ----
    try:
        browser = Browser()
        browser.add_authenticator()
        native = browser.open_page()
        check(browser.call("secureContext"), "the page is not a secure context (use http://localhost)")
        helpers = ", ".join(f"{k}={'native' if v else 'JS fallback'}" for k, v in native.items())
        print(f"PASS browser_start (Chromium {browser.version}; {helpers})", flush=True)
        results.append(("browser_start", True))
    except Exception as e:  # noqa: BLE001
        message = str(e).split("\nStacktrace:")[0].strip()
        print(f"FAIL browser_start: {type(e).__name__}: {message}", flush=True)
        results.append(("browser_start", False))
        try:
            with open(os.path.join(WORK_DIR, "chromedriver.log"), encoding="utf-8", errors="replace") as f:
                for line in f.readlines()[-15:]:
                    print(f"    chromedriver: {line.rstrip()}", flush=True)
        except OSError:
            pass
        if browser:
            browser.quit()
        return finish()

    run_id = secrets.token_hex(4)

    def cors_preflight():
        # What the browser does before the Bearer/JSON calls, checked directly, plus a foreign origin.
        def preflight(origin):
            req = urllib.request.Request(
                f"{API_URL}/v1/passkeys/registrations",
                method="OPTIONS",
                headers={
                    "Origin": origin,
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "authorization, content-type",
                },
            )
            with urllib.request.urlopen(req, timeout=10) as res:
                return res.status, {k.lower(): v for k, v in res.headers.items()}

        status, headers = preflight(PAGE_URL)
        check(status == 204, f"preflight from {PAGE_URL}: status {status}")
        check(headers.get("access-control-allow-origin") == PAGE_URL, f"allow-origin {headers}")
        check("POST" in headers.get("access-control-allow-methods", ""), f"allow-methods {headers}")
        allowed = headers.get("access-control-allow-headers", "").lower()
        check("authorization" in allowed and "content-type" in allowed, f"allow-headers {headers}")
        status, headers = preflight("http://evil.example")
        check("access-control-allow-origin" not in headers, f"foreign origin got CORS headers: {headers}")

    def a_password_then_modal_passkey():
        email = f"browser-a-{run_id}@example.com"
        password = f"correct horse battery {run_id}"
        out = browser.call("passwordSignUpAndSignIn", email, "Browser A", password, "a")
        expect_status(out["signUp"], 201, "POST /v1/accounts")
        expect_status(out["signIn"], 200, "POST /v1/sessions")
        token = out["signIn"]["body"]["accessToken"]
        state["a_account"] = out["signUp"]["body"]["accountID"]
        state["a_token"] = token

        reg = browser.call("addPasskey", token, "modal", "a")
        expect_status(reg["start"], 200, "POST /v1/passkeys/registrations")
        pk = reg["start"]["body"]["publicKey"]
        check(pk["rp"]["id"] == "localhost", f"publicKey.rp.id {pk['rp']}")
        check(pk["authenticatorSelection"]["residentKey"] == "required", "residentKey not required")
        check("ceremonyError" not in reg, f"navigator.credentials.create failed: {reg.get('ceremonyError')}")
        cd = reg["clientData"]
        check(cd.get("type") == "webauthn.create" and cd.get("origin") == PAGE_URL, f"clientData {cd}")
        expect_status(reg["finish"], 204, "POST /v1/passkeys/registrations/finish")
        state["a_credential_id"] = reg["credential"]["id"]
        state["a_registration_finish"] = reg["finishBody"]

        acct = browser.call("account", token, "a")
        expect_status(acct, 200, "GET /v1/account")
        passkeys = acct["body"]["passkeys"]
        check(len(passkeys) == 1, f"expected 1 passkey, got {short(passkeys)}")
        check(passkeys[0]["credentialID"] == reg["credential"]["id"], "listed credentialID differs from the created one")
        check(acct["body"]["hasPassword"] is True, "hasPassword should still be true")
        check(len(browser.credentials()) == 1, "the virtual authenticator should hold 1 credential")
        return f"passkey '{passkeys[0]['name']}', credProps={reg['credential'].get('clientExtensionResults')}"

    def replayed_registration_finish_refused():
        check("a_registration_finish" in state, "needs a_password_then_modal_passkey")
        res = browser.call(
            "replay", "/v1/passkeys/registrations/finish", state["a_registration_finish"], state["a_token"], "ra"
        )
        expect_status(res, 400, "replayed registration finish")
        check(res["body"].get("code") == "challenge-unavailable", f"code {short(res['body'])}")

    def second_passkey_same_authenticator_excluded():
        # excludeCredentials lists the account's passkey: the authenticator that holds it must refuse.
        check("a_credential_id" in state, "needs a_password_then_modal_passkey")
        reg = browser.call("addPasskey", state["a_token"], "modal", "ax")
        expect_status(reg["start"], 200, "POST /v1/passkeys/registrations")
        ids = [c["id"] for c in reg["start"]["body"]["publicKey"].get("excludeCredentials", [])]
        check(ids == [state["a_credential_id"]], f"excludeCredentials {ids}")
        check("ceremonyError" in reg, f"create() should have failed, finish answered {reg.get('finish')}")
        check(reg["ceremonyError"].startswith("InvalidStateError"), f"unexpected error {reg['ceremonyError']}")
        return reg["ceremonyError"].split(":")[0]

    def b_passkey_sign_in():
        check("a_credential_id" in state, "needs a_password_then_modal_passkey")
        out = browser.call("passkeySignIn", "b")
        expect_status(out["start"], 200, "POST /v1/passkeys/authentications")
        check(out["start"]["body"]["publicKey"].get("allowCredentials", []) == [], "allowCredentials should be []")
        check("ceremonyError" not in out, f"navigator.credentials.get failed: {out.get('ceremonyError')}")
        cd = out["clientData"]
        check(cd.get("type") == "webauthn.get" and cd.get("origin") == PAGE_URL, f"clientData {cd}")
        expect_status(out["finish"], 200, "POST /v1/passkeys/authentications/finish")
        session = out["finish"]["body"]
        check(session.get("accessToken") and session.get("tokenType") == "Bearer", f"session {short(session)}")
        check(session.get("accountID") == state["a_account"], "signed in to another account")
        state["b_finish"] = out["finishBody"]
        acct = browser.call("account", session["accessToken"], "b")
        expect_status(acct, 200, "GET /v1/account with the passkey session")
        check(acct["body"]["passkeys"][0]["lastUsedAt"], "lastUsedAt not set after a sign-in")

    def replayed_sign_in_finish_refused():
        check("b_finish" in state, "needs b_passkey_sign_in")
        res = browser.call("replay", "/v1/passkeys/authentications/finish", state["b_finish"], None, "rb")
        expect_status(res, 400, "replayed sign-in finish")
        check(res["body"].get("code") == "challenge-unavailable", f"code {short(res['body'])}")

    def uv_false_refused():
        # Needs a registered discoverable credential, else get() would fail for another reason.
        check("a_credential_id" in state, "needs a_password_then_modal_passkey")
        check(len(browser.credentials()) >= 1, "the virtual authenticator holds no credential")
        browser.set_user_verified(False)
        try:
            out = browser.call("passkeySignIn", "d")
        finally:
            browser.set_user_verified(True)
        expect_status(out["start"], 200, "POST /v1/passkeys/authentications")
        if "ceremonyError" in out:
            return f"refused in the browser: {out['ceremonyError'].split(':')[0]}"
        check(
            out["finish"]["status"] == 401 and out["finish"]["body"].get("code") == "authentication-failed",
            f"an assertion without UV was accepted or answered oddly: {out['finish']['status']} {short(out['finish']['body'])}",
        )
        return "refused by the server: 401 authentication-failed"

    def c_passkey_only_account_then_sign_in():
        # A second device: a fresh authenticator, so the sign-in has exactly one discoverable credential.
        browser.remove_authenticator()
        browser.add_authenticator()
        email = f"browser-c-{run_id}@example.com"
        out = browser.call("createPasskeyAccount", email, "Browser C", "c")
        expect_status(out["start"], 200, "POST /v1/passkey-accounts/registrations")
        user = out["start"]["body"]["publicKey"]["user"]
        check(user["name"] == email and user["displayName"] == "Browser C", f"publicKey.user {user}")
        check("ceremonyError" not in out, f"navigator.credentials.create failed: {out.get('ceremonyError')}")
        expect_status(out["finish"], 201, "POST /v1/passkey-accounts/registrations/finish")
        session = out["finish"]["body"]
        account_id = session["accountID"]
        state["c_registration_finish"] = out["finishBody"]

        acct = browser.call("account", session["accessToken"], "c")
        expect_status(acct, 200, "GET /v1/account")
        check(acct["body"]["hasPassword"] is False, "a passkey-only account must have no password")
        check(acct["body"]["email"] == email and len(acct["body"]["passkeys"]) == 1, f"account {short(acct['body'])}")

        signin = browser.call("passkeySignIn", "c")
        check("ceremonyError" not in signin, f"navigator.credentials.get failed: {signin.get('ceremonyError')}")
        expect_status(signin["finish"], 200, "POST /v1/passkeys/authentications/finish")
        check(signin["finish"]["body"]["accountID"] == account_id, "signed in to another account")
        acct = browser.call("account", signin["finish"]["body"]["accessToken"], "c")
        expect_status(acct, 200, "GET /v1/account with the passkey session")

    def replayed_account_registration_finish_refused():
        check("c_registration_finish" in state, "needs c_passkey_only_account_then_sign_in")
        res = browser.call(
            "replay", "/v1/passkey-accounts/registrations/finish", state["c_registration_finish"], None, "rc"
        )
        expect_status(res, 400, "replayed account registration finish")
        check(res["body"].get("code") == "registration-unavailable", f"code {short(res['body'])}")

    tests = [
        ("cors_preflight", cors_preflight),
        ("a_password_then_modal_passkey", a_password_then_modal_passkey),
        ("a_replayed_registration_finish_refused", replayed_registration_finish_refused),
        ("a_second_passkey_same_authenticator_excluded", second_passkey_same_authenticator_excluded),
        ("b_passkey_sign_in", b_passkey_sign_in),
        ("d_replayed_sign_in_finish_refused", replayed_sign_in_finish_refused),
        ("d_user_not_verified_refused", uv_false_refused),
        ("c_passkey_only_account_then_sign_in", c_passkey_only_account_then_sign_in),
        ("c_replayed_account_registration_finish_refused", replayed_account_registration_finish_refused),
    ]
    try:
        for name, fn in tests:
            run_test(browser, name, fn)
    finally:
        browser.quit()
    return finish()


def finish():
    passed = sum(1 for _, ok in results if ok)
    failed = len(results) - passed
    if SUMMARY_FILE:
        with open(SUMMARY_FILE, "w", encoding="utf-8") as f:
            f.write(f"{passed} {failed}\n")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
