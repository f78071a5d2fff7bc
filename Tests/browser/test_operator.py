#!/usr/bin/env python3
"""(v3) The operator page (/operator/) in headless Chromium, against a server of its own whose
database starts empty (so "no sign-ins yet" can be seen) and whose OPERATOR_TOKEN is known.

Started by scripts/browser-test.sh, which provides:

  OPERATOR_URL      http://localhost:P (the second server; OPERATOR_TOKEN set)
  OPERATOR_TOKEN    its token
  OPERATOR_DB       libpq conninfo of its database (psql seeds account_events and accounts)
  CHROMIUM_BIN, CHROMEDRIVER_BIN, WORK_DIR, SCREENSHOT_DIR, SUMMARY_FILE  as for the other parts

Steps, in order (a failed step fails the later ones): the page asks for the token; a wrong token
is refused in words and asked again; the right one on the empty database shows "no sign-ins yet"
instead of axes (screenshot operator-empty.png); then a known mix is seeded (SQL into accounts,
passkey_credentials and account_events over the last 20 days, plus one real password sign-up and
sign-in over HTTP) and every number on the page is compared with the API's JSON for the same
window, and the API's JSON with the seed (screenshot operator-data.png); the 7-day window differs
and matches too; (v4) webhook endpoints are added (the secret shown once), given a new secret and
removed, each checked against the API (screenshot operator-webhooks.png); the token is in no
storage or cookie, and a reload forgets it.

(v4, issue 38) The support desk's Accounts card: a password user whose display name is markup, with
a passkey (a passkey_credentials row by psql) and recovery codes; a support and a viewer operator
made by `passkey-server operators add` (PASSKEY_SERVER_BIN, as scripts/browser-test.sh resolves
it). As support: find by the address in other letter case (and "no account" for an unknown one),
every figure equal to the API's JSON, markup shown as text (screenshot operator-accounts-found.png);
lock with a reason that is markup, after a cancelled and a confirmed dialog (the old token 401, a
password sign-in 403 account-locked; operator-accounts-locked.png); unlock (sign-in works); end all
sessions (the token 401); remove the passkey; issue a recovery code, shown once with a Copy button
(operator-accounts-code.png), that signs in and is gone once the account is looked up again; the
events "by support (NAME)"; the user's own web client at / shows them and the reason as text
(operator-accounts-user-activity.png). As a viewer: the account without any action
(operator-accounts-viewer.png), and the server refuses a viewer's forced lock (403 forbidden).

(v4, issue 40) Chromium's languages are English (en-US); at each view the page is switched to
日本語 and back with its own switch (the token, the figures and the account stay), and axe-core
(audit.py) must find no WCAG A/AA violation of impact serious or critical, light and dark, in either
language; each such view is saved as operator-<view>-en.png and -ja.png. The only thing in
localStorage is the language; the token is in no storage.
"""

import base64
import json
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request

import audit

URL = os.environ["OPERATOR_URL"].rstrip("/")
TOKEN = os.environ["OPERATOR_TOKEN"]
DB = os.environ["OPERATOR_DB"]
CHROMIUM_BIN = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER_BIN = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
WORK_DIR = os.environ.get("WORK_DIR", "/tmp")
SCREENSHOT_DIR = os.environ.get("SCREENSHOT_DIR", os.path.join(WORK_DIR, "screenshots"))
SUMMARY_FILE = os.environ.get("SUMMARY_FILE")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The server executable for `passkey-server operators add`: scripts/browser-test.sh takes it from
# PASSKEY_SERVER_BIN (relative to the repository) or .build/debug/passkey-server.
SERVER_BIN = os.path.join(ROOT, os.environ.get("PASSKEY_SERVER_BIN") or ".build/debug/passkey-server")
PROBE_ACCOUNT = "role-probe"  # the Accounts card's role probe (404 or 403)
MARKUP = "<img src=x onerror=alert({})>"  # must only ever show as text
WAIT_S = 20
results = []


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def http(method, path, body=None, token=None):
    """(status, parsed JSON or None)."""
    headers = {"Accept": "application/json", "User-Agent": "operator-test/1.0"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(URL + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text) if text else None
        except ValueError:
            return e.code, None


def adoption(days):
    status, body = http("GET", f"/v1/operator/adoption?days={days}", token=TOKEN)
    check(status == 200, f"GET /v1/operator/adoption?days={days} → {status} {body}")
    return body


# ---- the seed: a known mix, and what the figures must then be ----
def seed_rows():
    """Accounts (① 6, ② 3, ③ 2; 3 with a verified address) and events over the last 20 days."""
    def account(i):
        return f"00000000-0000-4000-8000-{i:012d}"

    stages = ["password"] * 6 + ["both"] * 3 + ["passkey"] * 2
    events = []  # (account index, days ago, kind, method, had_passkey, session index or None)
    session = iter(range(1, 10_000))
    for i, stage in enumerate(stages, 1):
        events.append((i, 19, "account.created", "passkey" if stage == "passkey" else "password", None, None))
        if stage == "passkey":
            events.append((i, 19, "passkey.added", "sign-up", None, next(session)))
    # Per day: password sign-ins of accounts without a passkey (some followed by an automatic or
    # a modal upgrade in the same session), passkey sign-ins, the odd recovery and email code.
    for ago in (0, 1, 2, 3, 5, 8, 12, 15):
        for n in range(1 + ago % 3):
            s = next(session)
            events.append((1 + n, ago, "sign-in", "password", False, s))
            if ago in (1, 8) and n == 0:
                events.append((1 + n, ago, "passkey.added", "conditional" if ago == 1 else "modal", None, s))
        for n in range(ago % 4):
            events.append((7 + n % 3, ago, "sign-in", "passkey", None, next(session)))
        events.append((7, ago, "sign-in", "password", True, next(session)))
    events += [(10, 2, "sign-in", "recovery", None, 900), (4, 3, "sign-in", "email", None, 901),
               (5, 4, "sign-in.failed", "password", None, None), (8, 6, "password.removed", None, None, None),
               (9, 9, "account.reclaimed", None, None, None)]
    return stages, account, events


def seed_sql():
    stages, account, events = seed_rows()
    lines = ["BEGIN;", "SET TIME ZONE 'UTC';"]
    for i, stage in enumerate(stages, 1):
        a = account(i)
        lines.append(f"INSERT INTO accounts (id, display_name, created_at) VALUES ('{a}', 'Seed {i}', now() - interval '20 days');")
        verified = "now()" if i % 3 == 0 else "NULL"
        lines.append(
            f"INSERT INTO account_emails (id, account_id, email, normalized_email, verified_at) VALUES "
            f"(gen_random_uuid(), '{a}', 'seed-{i}@example.com', 'seed-{i}@example.com', {verified});")
        if stage in ("password", "both"):
            lines.append(f"INSERT INTO password_credentials (account_id, password_hash) VALUES ('{a}', 'seed-not-a-hash');")
        if stage in ("both", "passkey"):
            lines.append(
                "INSERT INTO passkey_credentials (credential_id, account_id, public_key, algorithm, aaguid, backup_eligible, "
                "backup_state, attestation_format, attestation_type, user_verified, name) VALUES "
                f"('\\x{i:04x}'::bytea, '{a}', '\\x01'::bytea, -7, '00000000-0000-0000-0000-000000000000', true, true, "
                f"'none', 'none', true, 'Seed passkey');")
    for n, (i, ago, kind, method, had, s) in enumerate(events):
        # Yesterday and before: one hour into that UTC day; today: a minute ago (never in the future).
        when = "greatest(date_trunc('day', now()), now() - interval '1 minute')" if ago == 0 else f"date_trunc('day', now()) - interval '{ago} days' + interval '1 hour'"
        method_sql = f"'{method}'" if method else "NULL"
        had_sql = "NULL" if had is None else ("true" if had else "false")
        session_sql = f"'00000000-0000-4000-9000-{s:012d}'" if s else "NULL"
        credential = "'\\x0007'::bytea" if kind in ("passkey.added",) or (kind == "sign-in" and method == "passkey") else "NULL"
        lines.append(
            "INSERT INTO account_events (id, account_id, kind, occurred_at, client_address, user_agent, method, "
            f"credential_id, session_id, had_passkey) VALUES (gen_random_uuid(), '{account(i)}', '{kind}', {when}, "
            f"'192.0.2.{1 + n % 200}', 'seed', {method_sql}, {credential}, {session_sql}, {had_sql});")
    lines.append("COMMIT;")
    return "\n".join(lines)


def expected(days, extra):
    """The figures the seed (plus `extra` events of real flows today) must give for `days`."""
    stages, _, events = seed_rows()
    events = events + extra
    window = {ago for ago in range(days)}
    totals = {"password": 0, "passkey": 0, "recovery": 0, "email": 0, "modal": 0, "conditional": 0, "sign-up": 0}
    upgrade_sessions, followed = set(), set()
    for _, ago, kind, method, had, s in events:
        if ago not in window:
            continue
        if kind == "sign-in":
            totals[method] += 1
            if method == "password" and had is False:
                upgrade_sessions.add(s)
        if kind == "passkey.added":
            totals[method] += 1
    for _, ago, kind, method, _, s in events:
        if kind == "passkey.added" and s in upgrade_sessions:
            followed.add(s)
    return {
        "accounts": {"passwordOnly": stages.count("password"), "passwordAndPasskey": stages.count("both"),
                     "passkeyOnly": stages.count("passkey")},
        "signIns": {k: totals[k] for k in ("password", "passkey", "recovery", "email")},
        "added": {"modal": totals["modal"], "conditional": totals["conditional"], "signUp": totals["sign-up"]},
        "upgrade": {"passwordSignIns": len(upgrade_sessions), "followedByPasskey": len(followed)},
    }


def api_figures(body):
    """The page's data-figure keys, from the API's JSON."""
    days = body["days"]
    figures = {f"accounts.{k}": v for k, v in body["accounts"].items()}
    total = 0
    for method in ("password", "passkey", "recovery", "email"):
        figures[f"signIns.{method}"] = sum(d["signIns"][method] for d in days)
        total += figures[f"signIns.{method}"]
    figures["signIns.total"] = total
    for mode in ("modal", "conditional", "signUp"):
        figures[f"added.{mode}"] = sum(d["passkeysAdded"][mode] for d in days)
    figures["added.total"] = sum(figures[f"added.{m}"] for m in ("modal", "conditional", "signUp"))
    figures["share.window"] = figures["signIns.passkey"] / total if total else 0
    for key, value in body["upgrade"].items():
        figures[f"upgrade.{key}"] = value
    return figures


class Page:
    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM_BIN
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                    "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                    "--disable-sync", "--disable-component-update", "--password-store=basic", "--window-size=1200,900",
                    f"--user-data-dir={os.path.join(WORK_DIR, 'chromium-profile-operator')}"):
            options.add_argument(arg)
        audit.browser_languages(options)  # English (en-US): the words and number formats asserted below
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=CHROMEDRIVER_BIN,
                          log_output=os.path.join(WORK_DIR, "chromedriver-operator.log"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(30)
        self.allowed_errors = []
        self.auditor = audit.Auditor(self.driver, SCREENSHOT_DIR, prefix="operator-")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def state(self):
        return self.js("return Object.assign({}, document.documentElement.dataset)")

    def text(self, css):
        return self.js("const e = document.querySelector(arguments[0]); return e && !e.closest('[hidden]') ? e.textContent : ''", css)

    def wait(self, what, predicate):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                value = predicate()
                if value:
                    return value
            except Exception:  # noqa: BLE001 - mid-render
                pass
            time.sleep(0.05)
        raise Failure(f"timed out waiting for {what}; state {self.state()}, message {self.text('#message')!r}")

    def type(self, css, value):
        from selenium.webdriver.common.by import By
        field = self.driver.find_element(By.CSS_SELECTOR, css)
        field.clear()
        field.send_keys(value)

    def click(self, css):
        from selenium.webdriver.common.by import By
        self.wait(f"{css} visible", lambda: self.driver.find_element(By.CSS_SELECTOR, css).is_displayed())
        self.driver.find_element(By.CSS_SELECTOR, css).click()

    def confirm(self, ok=True):
        """Answers the page's confirm <dialog>."""
        self.wait("the confirm dialog", lambda: self.js("return document.getElementById('confirm-dialog').open"))
        self.click("#confirm-ok" if ok else "#confirm-cancel")
        self.wait("the dialog closed", lambda: not self.js("return document.getElementById('confirm-dialog').open"))

    def visible(self, css):
        return self.js("const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0", css)

    def figures(self):
        return self.js("""const out = {};
            for (const e of document.querySelectorAll('#figures [data-figure]')) out[e.dataset.figure] =
              {value: Number(e.dataset.value), text: e.textContent};
            return out;""")

    def full_screenshot(self, name):
        """The whole page, not just the window."""
        os.makedirs(SCREENSHOT_DIR, exist_ok=True)
        metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
        with open(os.path.join(SCREENSHOT_DIR, f"{name}.png"), "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def console_errors(self):
        errors = []
        for entry in self.driver.get_log("browser"):
            message = entry.get("message", "")
            if entry.get("level") == "SEVERE" and not any(
                    f"{URL}{path}" in message and f"status of {status}" in message for path, status in self.allowed_errors):
                errors.append(message)
        self.allowed_errors = []
        return errors


def main():
    try:
        page = Page()
    except Exception as e:  # noqa: BLE001
        print(f"FAIL operator_start: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)
        results.append(False)
        return finish()
    failed = []
    extra = []  # events of the real flows, as seed_rows() tuples

    def step(name, fn):
        label = f"operator_{len(results) + 1:02d}_{name}"
        if failed:
            print(f"FAIL {label}: needs {failed[0]}", flush=True)
            results.append(False)
            return
        try:
            note = fn()
            errors = page.console_errors()
            check(not errors, "browser console errors: " + " | ".join(errors[:5]))
            results.append(True)
            print(f"PASS {label}" + (f" ({note})" if note else ""), flush=True)
        except Exception as e:  # noqa: BLE001
            results.append(False)
            failed.append(label)
            reason = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            print(f"FAIL {label}: {reason}", flush=True)
            try:
                page.full_screenshot(label + "-failed")
            except Exception:  # noqa: BLE001
                pass

    # ---- (v4, issue 40) both languages, axe-core in both colour schemes ----
    def settled():
        page.wait("the page idle", lambda: page.state().get("busy", "0") == "0"
                  and page.state().get("operator") in ("asking", "ready", "wrong-token", "failed"))

    def audit_view(view, enter=None, leave=None, show=None):
        """audit.audit_view on this page; any serious or critical violation fails the step."""
        problems = audit.audit_view(page, settled, view, enter, leave, show)
        check(not problems, "axe-core: " + " | ".join(problems[:6]))
        return f"axe {view}: none serious or critical in en, ja × light, dark"

    def open_page():
        page.driver.get(URL + "/operator/")
        page.wait("the token form", lambda: page.state().get("operator") == "asking")
        check(page.js("return document.activeElement.id") == "operator-token", "the token field is not focused")
        check(page.js("return document.getElementById('figures').hidden"), "figures shown without a token")
        check(audit.language_of(page.driver) == "en", "not in English")
        note = audit_view("token")
        title = page.js("return document.title")
        check(title == "Passkey adoption · Passkey Server", f"title {title!r}")
        return note

    def wrong_token():
        page.allowed_errors.append(("/v1/operator/adoption", 401))
        page.type("#operator-token", "not-the-operator-token")
        page.click("#token-submit")
        page.wait("the refusal", lambda: page.state().get("operator") == "wrong-token")
        check("token is wrong" in page.text("#message"), f"message {page.text('#message')!r}")
        check(page.js("return document.activeElement.id") == "operator-token", "not asked again")
        check(page.js("return document.getElementById('message-alert').textContent").startswith("That token"),
              "the refusal is not in the alert region")
        page.full_screenshot("operator-wrong-token")
        note = audit_view("wrong-token")
        check("token is wrong" in page.text("#message"), "the refusal went with the switch")
        return note

    def empty_database():
        # (v4) The Accounts card asks once whether the token may act (404: yes, see operator-accounts.js).
        page.allowed_errors.append((f"/v1/operator/accounts/{PROBE_ACCOUNT}/unlock", 404))
        page.type("#operator-token", TOKEN)
        page.click("#token-submit")
        page.wait("the figures", lambda: page.state().get("operator") == "ready")
        page.wait("the accounts card's role probe", lambda: page.js(
            "return document.getElementById('accounts').dataset.canAct") == "true")
        check(page.state().get("empty") == "true", f"state {page.state()}")
        for chart in ("#chart-sign-ins", "#chart-share"):
            check("No sign-ins yet" in page.text(f"{chart} .empty"), f"{chart}: {page.text(chart)!r}")
            check(page.js("return document.querySelectorAll(arguments[0] + ' svg').length", chart) == 0,
                  f"{chart} draws axes with no data")
        check("No sign-ins yet" in page.text("#chart-upgrade .empty"), "the upgrade rate is not explained")
        shown = page.figures()
        api = api_figures(adoption(30))
        check(all(shown[k]["value"] == 0 for k in ("signIns.total", "added.total", "upgrade.rate")), f"{shown}")
        check(all(abs(shown[k]["value"] - v) < 1e-9 for k, v in api.items() if k in shown), f"page {shown} api {api}")
        page.full_screenshot("operator-empty")
        return audit_view("empty")

    def seed():
        run = secrets.token_hex(4)
        sql = seed_sql()
        done = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", DB], input=sql, text=True,
                              capture_output=True, timeout=60)
        check(done.returncode == 0, f"psql: {done.stderr.strip()[:300]}")
        # Real flows too: a password sign-up and a sign-in over HTTP.
        email, password = f"operator-{run}@example.com", f"operator horse battery {run}"
        status, body = http("POST", "/v1/accounts", {"email": email, "password": password, "displayName": "Real"})
        check(status == 201, f"sign-up → {status} {body}")
        status, body = http("POST", "/v1/sessions", {"email": email, "password": password})
        check(status == 200, f"sign-in → {status} {body}")
        status, activity = http("GET", "/v1/account/activity", token=body["accessToken"])
        recorded = status == 200 and len(activity.get("events", [])) >= 2
        if recorded:  # the server writes events for its flows: they count
            extra.extend([(0, 0, "account.created", "password", None, None),
                          (0, 0, "sign-in", "password", False, "real")])
        return f"{len(seed_rows()[2])} seeded events, real flows {'recorded' if recorded else 'not recorded by this server'}"

    def compare(days):
        page.js("const s = document.getElementById('days'); s.value = arguments[0]; "
                "s.dispatchEvent(new Event('change'))", str(days))
        page.wait(f"the {days}-day figures", lambda: page.state().get("operator") == "ready"
                  and f"last {days} days" in page.text("#generated-at"))
        body = adoption(days)
        api = api_figures(body)
        shown = page.figures()
        check(set(api) <= set(shown), f"figures missing on the page: {sorted(set(api) - set(shown))}")
        for key, value in api.items():
            check(abs(shown[key]["value"] - value) < 1e-9, f"{key}: page {shown[key]} api {value}")
            if isinstance(value, int) and not isinstance(value, bool):
                check(f"{value:,}" in shown[key]["text"], f"{key}: shown {shown[key]['text']!r}, api {value}")
        # ... and the API with the seed.
        want = expected(days, extra)
        check(body["accounts"]["passwordOnly"] == want["accounts"]["passwordOnly"] + 1
              and body["accounts"]["passwordAndPasskey"] == want["accounts"]["passwordAndPasskey"]
              and body["accounts"]["passkeyOnly"] == want["accounts"]["passkeyOnly"],
              f"stages {body['accounts']} vs seed {want['accounts']} and the real password account")
        for method, n in want["signIns"].items():
            check(api[f"signIns.{method}"] == n, f"signIns.{method}: api {api[f'signIns.{method}']} seed {n}")
        for mode, n in want["added"].items():
            check(api[f"added.{mode}"] == n, f"added.{mode}: api {api[f'added.{mode}']} seed {n}")
        for key, n in want["upgrade"].items():
            check(body["upgrade"][key] == n, f"upgrade.{key}: api {body['upgrade'][key]} seed {n}")
        check(len(body["days"]) == days, f"{len(body['days'])} days for days={days}")
        rows = page.js("return document.querySelectorAll('#chart-sign-ins tbody tr').length")
        check(rows == days, f"the sign-ins table has {rows} rows for {days} days")
        check(page.js("return document.querySelectorAll('#chart-sign-ins svg rect.bar').length") > 0, "no bars drawn")
        check(page.js("return document.querySelectorAll('#chart-share svg circle.dot').length") > 0, "no share drawn")
        check(page.js("return document.querySelector('#chart-sign-ins table caption').textContent") != "", "no caption")
        check(page.state().get("empty") == "false", f"state {page.state()}")
        return (f"signIns {api['signIns.total']}, added {api['added.total']}, "
                f"upgrade {body['upgrade']['followedByPasskey']}/{body['upgrade']['passwordSignIns']}")

    def with_data():
        note = compare(30)
        page.click("#show-tables")
        page.wait("the tables shown", lambda: page.state().get("tables") == "shown")
        page.full_screenshot("operator-data-tables")
        tables = audit_view("tables", show="#chart-sign-ins")
        check(page.state().get("tables") == "shown" and page.text("#show-tables") == "Show charts only",
              f"the tables went with the switch: {page.text('#show-tables')!r}")
        page.click("#show-tables")
        page.full_screenshot("operator-data")
        figures = audit_view("figures")
        return f"{note}; {tables}; {figures}; {localised_figures()}"

    def localised_figures():
        """In Japanese: the axis's days (12月4日), the table's (2026/12/04), the heading, the window."""
        audit.switch_language(page.driver, "ja", page.wait)
        settled()
        axis = page.js("return [...document.querySelectorAll('#chart-sign-ins svg text.tick')]"
                       ".map((e) => e.textContent)")
        day = page.js("return document.querySelector('#chart-sign-ins tbody th').textContent")
        heading = page.text("#sign-ins-heading")
        generated = page.text("#generated-at")
        audit.switch_language(page.driver, "en", page.wait)
        settled()
        check(any(re.fullmatch(r"\d{1,2}月\d{1,2}日", t) for t in axis), f"the axis in Japanese: {axis}")
        check(re.fullmatch(r"\d{4}/\d{2}/\d{2}", day), f"a day of the table in Japanese: {day!r}")
        check(heading == "サインイン方法別の1日あたりの回数" and "過去30日間" in generated, f"{heading!r} {generated!r}")
        return f"ja axis {axis[-3:]}, table day {day}"

    def webhooks():
        """(v4) The webhooks card: empty, a refused URL explained in English and in Japanese, an endpoint added
        (its secret shown once), a new secret, the endpoint removed; each against the API."""
        page.wait("the webhooks card", lambda: page.js(
            "return document.getElementById('webhooks').dataset.webhooks") == "ready")
        check("No endpoints yet" in page.text("#webhook-list"), f"list {page.text('#webhook-list')!r}")
        page.allowed_errors.append(("/v1/operator/webhooks", 400))
        page.type("#webhook-url", "http://crm.example.com/hooks")
        page.click("#webhook-add")
        page.wait("the refusal", lambda: "the URL must start with https://" in page.text("#message"))
        check(page.js("return document.activeElement.id") == "webhook-url", "the URL field is not focused")
        # (issue 40) In Japanese, the refusal is the catalogue's sentence, not the server's English.
        settled()
        audit.switch_language(page.driver, "ja", page.wait)
        # The refusal on screen is said again from the catalogue, not left in the server's English.
        page.wait("the refusal in Japanese", lambda: "URL は https://" in page.text("#message"))
        check("must" not in page.text("#message") and "2,048" in page.text("#message"),
              f"Japanese refusal {page.text('#message')!r}")
        # A new refusal while in Japanese (the events this time) comes from the catalogue too.
        page.type("#webhook-url", "http://127.0.0.1:9/hooks/refused")
        page.type("#webhook-events", "not-a-kind")
        page.click("#webhook-add")
        page.wait("the events refusal in Japanese", lambda: "イベントの種類をカンマ区切り" in page.text("#message"))
        settled()
        status, body = http("GET", "/v1/operator/webhooks", token=TOKEN)
        check(status == 200 and body["webhooks"] == [], f"refused events stored: {status} {body}")
        audit.switch_language(page.driver, "en", page.wait)
        status, body = http("GET", "/v1/operator/webhooks", token=TOKEN)
        check(status == 200 and body["webhooks"] == [], f"refused URL stored: {status} {body}")
        page.type("#webhook-url", "http://127.0.0.1:9/hooks/crm")
        page.type("#webhook-events", "stage.changed, account.deleted")
        page.type("#webhook-description", "CRM")
        page.click("#webhook-add")
        page.wait("the secret", lambda: page.text("#webhook-secret-value").startswith("whsec_"))
        first = page.text("#webhook-secret-value")
        check(len(first) == 50 and "only this once" in page.text("#webhook-secret-label"), f"secret {first!r}")
        page.wait("the row", lambda: "127.0.0.1:9/hooks/crm" in page.text("#webhook-list"))
        check("account.deleted, stage.changed" in page.text("#webhook-list tbody"), page.text("#webhook-list"))
        status, body = http("GET", "/v1/operator/webhooks", token=TOKEN)
        check(status == 200 and len(body["webhooks"]) == 1, f"{status} {body}")
        hook = body["webhooks"][0]
        check(hook["events"] == ["account.deleted", "stage.changed"] and hook["description"] == "CRM", f"{hook}")
        check("secret" not in hook, "the list shows a secret")
        page.full_screenshot("operator-webhooks")
        note = audit_view("webhooks", show="#webhooks")
        check(page.text("#webhook-secret-value") == first and "only this once" in page.text("#webhook-secret-label"),
              "the secret or its words went with the switch")
        page.click(f"tr[data-webhook-id='{hook['webhookID']}'] button[data-action='rotate']")
        page.wait("a new secret", lambda: page.text("#webhook-secret-value").startswith("whsec_")
                  and page.text("#webhook-secret-value") != first)
        check("old one still signs" in page.text("#message"), page.text("#message"))
        page.click(f"tr[data-webhook-id='{hook['webhookID']}'] button[data-action='remove']")
        page.wait("the removal", lambda: "No endpoints yet" in page.text("#webhook-list"))
        check(page.text("#webhook-secret-value") == "", "a secret is still shown")
        status, body = http("GET", "/v1/operator/webhooks", token=TOKEN)
        check(status == 200 and body["webhooks"] == [], f"{status} {body}")
        return note

    def token_in_memory_only():
        # (v4) localStorage may hold the language chosen with the switch, and nothing else.
        stored = page.js("return [Object.keys(localStorage), sessionStorage.length, document.cookie, "
                         "document.getElementById('operator-token').value, JSON.stringify(localStorage)]")
        check(set(stored[0]) <= {audit.LANGUAGE_KEY} and stored[1:4] == [0, "", ""],
              f"storage keys, session storage, cookie, field: {stored[:4]}")
        check(TOKEN not in stored[4], "the token is in localStorage")
        page.driver.refresh()
        page.wait("the token asked again after a reload", lambda: page.state().get("operator") == "asking")
        return f"localStorage keys {stored[0]}"

    # ---- (v4, issue 38) the support desk's Accounts card ----
    desk = {}  # what the setup made: user, tokens, operators, the passkey

    def operators_add(name, role):
        """`passkey-server operators add NAME --role ROLE` on this database; its token, printed once."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DATABASE_URL": DB,
               "PASSKEY_MIGRATIONS_DIR": os.path.join(ROOT, "Migrations")}
        done = subprocess.run([SERVER_BIN, "operators", "add", name, "--role", role], env=env, cwd=ROOT, text=True,
                              capture_output=True, timeout=60)
        check(done.returncode == 0, f"operators add {name}: exit {done.returncode}: {done.stderr.strip()[:300]}")
        match = re.search(r"^token (\S+)$", done.stdout, re.MULTILINE)
        check(match, f"operators add {name}: no token in {done.stdout!r}")
        return match.group(1)

    def sign_in(expect=200):
        status, body = http("POST", "/v1/sessions", {"email": desk["email"], "password": desk["password"]})
        check(status == expect, f"password sign-in → {status} {body}, expected {expect}")
        return body

    def account_api(token=None):
        status, body = http("GET", f"/v1/operator/accounts/{desk['accountID']}", token=token or desk["support"])
        check(status == 200, f"GET /v1/operator/accounts/{{id}} → {status} {body}")
        return body

    def user_status(token):
        return http("GET", "/v1/account", token=token)[0]

    def images():
        return page.js("return document.querySelectorAll('img').length")

    def shown_facts():
        return page.js("""const out = {};
            for (const e of document.querySelectorAll('#account [data-fact]')) out[e.dataset.fact] =
              {value: e.dataset.value, text: e.textContent};
            return out;""")

    def shown_events():
        return page.js("""return [...document.querySelectorAll('#account-events li')].map((e) => ({
            kind: e.dataset.kind, method: e.dataset.method || null, actor: e.dataset.actor || null,
            what: e.querySelector('.event-what').textContent, meta: e.querySelector('.event-meta').textContent,
            reason: (e.querySelector('.event-reason') || {}).textContent || null}))""")

    def card_state():
        return page.js("return document.getElementById('accounts').dataset.accounts")

    def status_says(words):
        return page.wait(f"the status {words!r}", lambda: card_state() == "found"
                         and words in page.text("#accounts-status") and page.text("#accounts-status"))

    def open_console(token, can_act):
        """The operator page with this token, up to the Accounts card knowing the role."""
        page.allowed_errors += [(f"/v1/operator/accounts/{PROBE_ACCOUNT}/unlock", 404 if can_act else 403),
                                ("/v1/operator/webhooks", 403)]
        page.driver.get(URL + "/operator/")
        page.wait("the token form", lambda: page.state().get("operator") == "asking")
        page.type("#operator-token", token)
        page.click("#token-submit")
        page.wait("the figures", lambda: page.state().get("operator") == "ready")
        page.wait("the role", lambda: page.js("return document.getElementById('accounts').dataset.canAct")
                  == str(can_act).lower())
        check(card_state() == "ready", f"accounts card {card_state()!r}")

    def find(email, state="found"):
        page.type("#account-email", email)
        page.click("#account-find")
        page.wait(f"the account card {state}", lambda: card_state() == state)

    def accounts_setup():
        run = secrets.token_hex(4)
        desk.update(email=f"Desk-{run}@Example.com", password=f"desk horse battery {run}",
                    support_name="Hanako Sato", viewer_name="Vera Viewer")
        status, body = http("POST", "/v1/accounts", {"email": desk["email"], "password": desk["password"],
                                                     "displayName": MARKUP.format(1)})
        check(status == 201, f"sign-up → {status} {body}")
        desk["accountID"] = body["accountID"]
        desk["token"] = sign_in()["accessToken"]
        status, body = http("POST", "/v1/account/recovery-codes", token=desk["token"])
        check(status in (200, 201) and len(body["codes"]) == 10, f"recovery codes → {status} {body}")
        # A passkey to remove: WebAuthn needs a browser ceremony, a row is enough here.
        raw = secrets.token_bytes(16)
        desk["credentialID"] = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        sql = ("INSERT INTO passkey_credentials (credential_id, account_id, public_key, algorithm, aaguid, "
               "backup_eligible, backup_state, attestation_format, attestation_type, user_verified, name) VALUES "
               f"('\\x{raw.hex()}'::bytea, '{desk['accountID']}', '\\x01'::bytea, -7, "
               f"'00000000-0000-0000-0000-000000000000', true, true, 'none', 'none', true, '{MARKUP.format(3)}');")
        done = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", DB, "-c", sql], text=True,
                              capture_output=True, timeout=60)
        check(done.returncode == 0, f"psql: {done.stderr.strip()[:300]}")
        desk["support"] = operators_add(desk["support_name"], "support")
        desk["viewer"] = operators_add(desk["viewer_name"], "viewer")
        account = account_api()
        check([p["credentialID"] for p in account["passkeys"]] == [desk["credentialID"]], f"passkeys {account}")
        return f"{desk['email']}, {account['stage']}, operators {desk['support_name']} and {desk['viewer_name']}"

    def accounts_find():
        open_console(desk["support"], True)
        before = images()
        find(f"nobody-{secrets.token_hex(3)}@example.com", "none")
        check("No account with this address" in page.text("#account-none"), page.text("#account-none"))
        check(page.js("return document.getElementById('account').hidden"), "an account is shown for no match")
        audit_view("account-none", show="#accounts")
        find(desk["email"].upper())  # the address is normalised: letter case does not matter
        api = account_api()
        page.wait("the events", lambda: len(shown_events()) > 0)
        facts = shown_facts()
        want = {"email": api["email"], "emailVerified": str(api["emailVerified"]).lower(),
                "displayName": api["displayName"], "accountID": api["accountID"], "createdAt": api["createdAt"],
                "stage": api["stage"], "hasPassword": str(api["hasPassword"]).lower(),
                "activeSessions": str(api["activeSessions"]),
                "recoveryCodesRemaining": str(api["recoveryCodesRemaining"]), "lockedAt": ""}
        for key, value in want.items():
            check(key in facts and facts[key]["value"] == value, f"{key}: page {facts.get(key)} api {value!r}")
        check(facts["displayName"]["text"] == MARKUP.format(1), f"display name shown as {facts['displayName']}")
        for key in ("activeSessions", "recoveryCodesRemaining"):
            check(facts[key]["text"] == str(api[key]), f"{key}: shown {facts[key]['text']!r}, api {api[key]}")
        check(facts["hasPassword"]["text"] == "yes" and facts["lockedAt"]["text"] == "no", f"{facts}")
        check(facts["stage"]["text"] == "② Password and passkey" and api["stage"] == "password-and-passkey",
              f"stage {facts['stage']} api {api['stage']}")
        check(facts["emailVerified"]["text"] == "not verified", f"{facts['emailVerified']}")
        check(api["recoveryCodesRemaining"] == 10 and api["activeSessions"] == 1, f"api {api}")
        check(re.search(r"[A-Z][a-z]{2} \d{1,2}, \d{4}", facts["createdAt"]["text"]), f"created {facts['createdAt']}")
        row = f"#account-passkeys li[data-credential-id='{desk['credentialID']}']"
        check(page.text(f"{row} .passkey-name") == MARKUP.format(3), f"passkey {page.text(row)!r}")
        check("Last used never" in page.text(f"{row} .passkey-dates"), page.text(f"{row} .passkey-dates"))
        check(images() == before and page.js("return document.querySelectorAll('#accounts img').length") == 0,
              "markup from the API became an element")
        status, activity = http("GET", f"/v1/operator/accounts/{desk['accountID']}/activity?limit=20",
                                token=desk["support"])
        check(status == 200, f"activity → {status}")
        events = shown_events()
        check([e["kind"] for e in events] == [e["kind"] for e in activity["events"]], f"events {events}")
        check(all("null" not in e["meta"] for e in events), f"'null' shown: {events}")
        for css in ("#account-lock", "#account-end-sessions", "#account-issue-code", f"{row} button"):
            check(page.visible(css), f"{css} hidden from a support operator")
        check(not page.visible("#account-unlock"), "Unlock offered for an account that is not locked")
        page.full_screenshot("operator-accounts-found")
        note = audit_view("account", show="#accounts")
        check(images() == before, "markup from the API became an element after a switch of language")
        # (issue 40) At phone width the account, its passkeys and events fit, in either language.
        page.driver.set_window_size(390, 844)
        page.wait("a phone-width layout", lambda: page.js("return window.innerWidth") <= 400)
        for language in audit.LANGUAGES:
            audit.switch_language(page.driver, language, page.wait)
            settled()
            overflow = audit.sideways_overflow(page.driver)
            check(overflow <= 0, f"in {language} the account scrolls sideways by {overflow}px at 390 px")
        audit.switch_language(page.driver, "en", page.wait)
        page.driver.set_window_size(1200, 900)
        page.wait("the desktop layout again", lambda: page.js("return window.innerWidth") > 1000)
        settled()
        return f"{len(events)} events, {len(api['passkeys'])} passkey; {note}; no sideways scroll at 390 px"

    def accounts_lock():
        reason = MARKUP.format(2)
        before = images()
        page.type("#account-lock-reason", " ")
        page.click("#account-lock")
        page.wait("the missing reason", lambda: "Give a reason" in page.text("#accounts-alert"))
        check(page.js("return document.activeElement.id") == "account-lock-reason", "the reason is not focused")
        page.type("#account-lock-reason", reason)
        page.click("#account-lock")
        page.confirm(ok=False)  # cancelled: nothing is sent
        check(account_api()["lockedAt"] is None, "locked although the dialog was cancelled")
        dialog = audit_view("dialog", enter=lambda: (page.click("#account-lock"), page.wait(
            "the confirm dialog", lambda: page.js("return document.getElementById('confirm-dialog').open"))),
            leave=lambda: page.confirm(ok=False))
        check(account_api()["lockedAt"] is None, "locked by a dialog the audit cancelled")
        page.click("#account-lock")
        check(reason in page.text("#confirm-text"), f"the dialog without the reason: {page.text('#confirm-text')!r}")
        page.confirm()
        status_says("is locked")
        page.wait("the locked account", lambda: page.js("return document.getElementById('account').dataset.locked")
                  == "true")
        api = account_api()
        check(api["lockedAt"] and api["lockReason"] == reason and api["activeSessions"] == 0, f"api {api}")
        facts = shown_facts()
        check(facts["lockReason"]["text"] == reason and facts["lockedAt"]["value"] == api["lockedAt"], f"{facts}")
        check(facts["lockedAt"]["text"].startswith("yes, since"), f"{facts['lockedAt']}")
        check(facts["activeSessions"]["text"] == "0", f"{facts['activeSessions']}")
        check(page.visible("#account-unlock") and not page.visible("#account-lock"), "lock/unlock buttons")
        check(images() == before, "the reason became an element")
        check(user_status(desk["token"]) == 401, "the user's session survived the lock")
        body = sign_in(403)
        check(body.get("code") == "account-locked", f"locked sign-in → {body}")
        page.full_screenshot("operator-accounts-locked")
        note = audit_view("locked", show="#account")
        check(shown_facts()["lockReason"]["text"] == reason, "the reason changed with the switch")
        return f"{dialog}; {note}"

    def accounts_unlock():
        page.click("#account-unlock")
        status_says("is unlocked")
        check(page.js("return document.getElementById('account').dataset.locked") == "false", "still shown locked")
        api = account_api()
        check(api["lockedAt"] is None and api["lockReason"] is None, f"api {api}")
        check("lockReason" not in shown_facts(), "a reason is shown for an unlocked account")
        desk["token"] = sign_in()["accessToken"]
        check(user_status(desk["token"]) == 200, "the new session does not work")

    def accounts_end_sessions():
        page.click("#account-end-sessions")
        page.confirm()
        status_says("Every session of")
        check(user_status(desk["token"]) == 401, "the user's session survived \"End all sessions\"")
        check(account_api()["activeSessions"] == 0 and shown_facts()["activeSessions"]["text"] == "0", "sessions")

    def accounts_remove_passkey():
        page.click(f"#account-passkeys li[data-credential-id='{desk['credentialID']}'] button")
        check(MARKUP.format(3) in page.text("#confirm-text"), f"dialog {page.text('#confirm-text')!r}")
        page.confirm()
        status_says("was removed")
        api = account_api()
        check(api["passkeys"] == [] and api["stage"] == "password-only", f"api {api}")
        check(page.js("return document.querySelectorAll('#account-passkeys li').length") == 0, "passkey still listed")
        check(page.visible("#account-passkeys-empty"), "the empty passkey list is not said")
        check(shown_facts()["stage"]["value"] == "password-only", f"{shown_facts()['stage']}")

    def accounts_recovery_code():
        page.click("#account-issue-code")
        page.confirm()
        status_says("recovery code was issued")
        code = page.wait("the code", lambda: page.visible("#account-code") and page.text("#account-code-value"))
        check(re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){3}", code), f"code {code!r}")
        check("only this once" in page.text("#account-code-label"), page.text("#account-code-label"))
        check(page.text("#account-code-expiry").startswith("Valid until"), page.text("#account-code-expiry"))
        check(page.visible("#account-code-copy"), "no Copy button")
        page.click("#account-code-copy")
        copied = page.wait("the copy outcome", lambda: ("copied" in page.text("#accounts-status")
                           or "copy it by hand" in page.text("#accounts-status")) and page.text("#accounts-status"))
        page.full_screenshot("operator-accounts-code")
        note = audit_view("code", show="#account")
        check(page.text("#account-code-value") == code and "only this once" in page.text("#account-code-label"),
              "the code or its words went with the switch")
        status, body = http("POST", "/v1/recovery/sessions", {"email": desk["email"], "code": code})
        check(status == 200 and body.get("accessToken"), f"sign-in with the operator's code → {status} {body}")
        find(desk["email"])  # looked up again: the code is gone
        check(not page.visible("#account-code") and code not in page.js("return document.body.textContent"),
              "the code is still on the page")
        return f"{copied}; {note}"

    def accounts_events():
        api = account_api()
        check(api["activeSessions"] == 1, f"the recovery session is not counted: {api}")
        events = shown_events()
        by = f"by support ({desk['support_name']})"
        mine = {e["kind"]: e for e in events if e["actor"] == desk["support_name"]}
        for kind in ("account.locked", "account.unlocked", "sessions.ended", "passkey.deleted", "recovery-code.issued"):
            check(kind in mine and mine[kind]["what"].endswith(by), f"{kind}: {mine.get(kind)}")
        check(mine["sessions.ended"]["method"] == "support", f"{mine['sessions.ended']}")
        check(mine["account.locked"]["reason"] == f"Reason: “{MARKUP.format(2)}”", f"{mine['account.locked']}")
        check(all("null" not in e["meta"] and "·" not in e["meta"] for e in mine.values()), f"meta {mine}")
        check(page.js("return document.querySelectorAll('#accounts img').length") == 0, "an event became markup")
        return f"{len(mine)} by support, e.g. {mine['account.locked']['what']!r}"

    def accounts_user_activity():
        """The owner's own web client at /: the desk's actions, and the reason, as text."""
        page.driver.get(URL + "/")
        page.wait("the sign-in form", lambda: page.state().get("view") == "signed-out")
        page.type("#sign-in-email", desk["email"])
        page.type("#sign-in-password", desk["password"])
        page.click("#password-sign-in")
        page.wait("the account", lambda: page.state().get("view") == "account"
                  and page.state().get("activity") == "ready" and page.js(
                      "return document.querySelectorAll('#activity-list li').length") > 0)
        rows = page.js("""return [...document.querySelectorAll('#activity-list li')].map((e) => ({
            kind: e.dataset.kind, what: e.querySelector('.event-what').textContent,
            meta: e.querySelector('.event-meta').textContent,
            reason: (e.querySelector('.event-reason') || {}).textContent || null}))""")
        by = f"by support ({desk['support_name']})"
        kinds = {r["kind"]: r for r in rows if r["what"].endswith(by)}
        check({"account.locked", "account.unlocked", "sessions.ended", "passkey.deleted",
               "recovery-code.issued"} <= set(kinds), f"rows {rows}")
        check(kinds["account.locked"]["what"] == f"Account locked {by}", f"{kinds['account.locked']}")
        check(kinds["account.locked"]["reason"] == f"Reason: “{MARKUP.format(2)}”", f"{kinds['account.locked']}")
        check(kinds["sessions.ended"]["what"] == f"Every session was ended {by}", f"{kinds['sessions.ended']}")
        check(all("null" not in r["meta"] for r in rows), f"'null' shown: {rows}")
        check(page.js("return document.querySelectorAll('main img').length") == 0, "markup became an element")
        page.driver.execute_script("document.querySelector('section[aria-labelledby=\"activity-heading\"]')"
                                   ".scrollIntoView()")
        page.full_screenshot("operator-accounts-user-activity")
        page.click("#sign-out")
        page.wait("signed out", lambda: page.state().get("view") == "signed-out")
        return f"{len(kinds)} kinds by support shown to the owner"

    def accounts_viewer():
        open_console(desk["viewer"], False)
        find(desk["email"].lower())
        check(shown_facts()["email"]["value"] == desk["email"], f"{shown_facts()}")
        page.wait("the events", lambda: len(shown_events()) > 0)
        buttons = page.js("return [...document.querySelectorAll('#account button')]"
                          ".filter((b) => b.getClientRects().length > 0).map((b) => b.textContent)")
        check(buttons == [], f"a viewer sees actions: {buttons}")
        check(page.visible("#account-viewer-note"), "the viewer is not told why there are no actions")
        page.full_screenshot("operator-accounts-viewer")
        note = audit_view("viewer", show="#accounts")
        status, body = http("POST", f"/v1/operator/accounts/{desk['accountID']}/lock", {"reason": "forced"},
                            token=desk["viewer"])
        check(status == 403 and body.get("code") == "forbidden", f"a viewer's lock → {status} {body}")
        check(account_api()["lockedAt"] is None, "a viewer locked the account")
        page.click("#forget-token")  # nothing of the account stays in the page
        page.wait("the token asked again", lambda: page.state().get("operator") == "asking")
        check(page.js("return document.getElementById('accounts').hidden") and desk["email"] not in page.js(
            "return document.body.textContent"), "the account stays in the page after \"Forget token\"")
        return note

    for name, fn in [("open", open_page), ("wrong_token", wrong_token), ("empty_database", empty_database),
                     ("seed", seed), ("figures_match_api_30_days", with_data),
                     ("figures_match_api_7_days", lambda: compare(7)), ("webhooks", webhooks),
                     ("token_in_memory_only", token_in_memory_only), ("accounts_setup", accounts_setup),
                     ("accounts_find", accounts_find), ("accounts_lock", accounts_lock),
                     ("accounts_unlock", accounts_unlock), ("accounts_end_sessions", accounts_end_sessions),
                     ("accounts_remove_passkey", accounts_remove_passkey),
                     ("accounts_recovery_code", accounts_recovery_code), ("accounts_events", accounts_events),
                     ("accounts_user_activity", accounts_user_activity), ("accounts_viewer", accounts_viewer)]:
        step(name, fn)
    try:
        page.driver.quit()
    except Exception:  # noqa: BLE001
        pass
    return finish()


def finish():
    passed = sum(1 for ok in results if ok)
    if SUMMARY_FILE:
        with open(SUMMARY_FILE, "w", encoding="utf-8") as f:
            f.write(f"{passed} {len(results) - passed}\n")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
