#!/usr/bin/env python3
"""Tests of scripts/check-deploy-settings.py on the repository's own deployment files and on
copies with one setting removed: the check passes on the files as they are, and fails, naming
the problem, on each copy (`python3 scripts/test_check_deploy_settings.py`)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK = os.path.join(HERE, "check-deploy-settings.py")
FILES = {"patroni": "deploy/ha/patroni.yml", "haproxy": "deploy/ha/haproxy.cfg", "compose": "docker-compose.yml"}


class CheckDeploySettingsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="check-deploy-settings-")
        cls.text = {}
        for key, path in FILES.items():
            with open(os.path.join(ROOT, path)) as f:
                cls.text[key] = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def run_check(self, **changed):
        args = [sys.executable, CHECK]
        for key in FILES:
            path = os.path.join(self.folder, key)
            with open(path, "w") as f:
                f.write(changed.get(key, self.text[key]))
            args += [f"--{key}", path]
        return subprocess.run(args, capture_output=True, text=True)

    def without(self, key, pattern, count=1):
        """The file without the lines matching `pattern` (a regular expression), which must match
        `count` lines."""
        lines = self.text[key].splitlines(keepends=True)
        kept = [line for line in lines if not re.search(pattern, line)]
        self.assertEqual(len(lines) - len(kept), count, f"{FILES[key]}: {count} line(s) match {pattern!r}")
        return "".join(kept)

    def replaced(self, key, old, new):
        self.assertEqual(self.text[key].count(old), 1, f"{FILES[key]} has {old!r} once")
        return self.text[key].replace(old, new)

    def assertFailsWith(self, result, *fragments):
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        problems = result.stderr.strip().splitlines()
        for fragment in fragments:
            self.assertTrue(any(fragment in line for line in problems), f"{fragment!r} not in {problems}")
        return problems

    # --- The repository's files -------------------------------------------------------------

    def testTheRepositoryFilesPass(self):
        result = subprocess.run([sys.executable, CHECK, ROOT], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("Patroni's REST API authenticated", result.stdout)

    def testTheFilesOfTheReviewedCommitFail(self):
        # The three files as the fourth review found them (no authentication, no head timeout or
        # per-source limits, no TRUSTED_PROXIES): one line per missing setting.
        original = {"patroni": PATRONI_AS_REVIEWED, "haproxy": HAPROXY_AS_REVIEWED, "compose": COMPOSE_AS_REVIEWED}
        problems = self.assertFailsWith(
            self.run_check(**original), "the REST API has no authentication", "no timeout http-request",
            "no stick-table", "no per-source tracking", "no per-source connection limit",
            "no per-source request rate limit", "sets no TRUSTED_PROXIES")
        self.assertEqual(len(problems), 7, problems)

    # --- patroni.yml ----------------------------------------------------------------------------

    def testPatroniWithoutAuthenticationFails(self):
        text = self.replaced("patroni", "  authentication:\n    username: @REST_USER@\n    password: @REST_PASSWORD@\n", "")
        problems = self.assertFailsWith(self.run_check(patroni=text), "the REST API has no authentication")
        self.assertEqual(len(problems), 1, problems)

    def testPatroniWithAnEmptyPasswordFails(self):
        text = self.replaced("patroni", "password: @REST_PASSWORD@", 'password: ""')
        self.assertFailsWith(self.run_check(patroni=text), "the REST API has no authentication")

    def testPatroniOnTheNetworkWithoutTLSFails(self):
        text = self.replaced("patroni", "  listen: 127.0.0.1:@REST_PORT@", "  listen: 0.0.0.0:@REST_PORT@")
        self.assertFailsWith(self.run_check(patroni=text), "listens on 0.0.0.0:placeholder-REST_PORT without TLS")
        with_tls = text.replace("  authentication:\n", "  certfile: /etc/patroni/rest.pem\n  authentication:\n", 1)
        self.assertEqual(self.run_check(patroni=with_tls).returncode, 0)

    # --- haproxy.cfg ----------------------------------------------------------------------------

    def testHAProxyWithoutTheHeadTimeoutFails(self):
        text = self.without("haproxy", r"^\s*timeout http-request ")
        problems = self.assertFailsWith(self.run_check(haproxy=text), "listen passkey: no timeout http-request")
        self.assertEqual(len(problems), 1, problems)

    def testHAProxyWithALongHeadTimeoutFails(self):
        text = re.sub(r"timeout http-request \S+", "timeout http-request 2m", self.text["haproxy"])
        self.assertFailsWith(self.run_check(haproxy=text), "timeout http-request 2m is above 30 s")

    def testHAProxyWithTheHeadTimeoutInDefaultsPasses(self):
        text = self.without("haproxy", r"^\s*timeout http-request ")
        text = text.replace("    timeout check 1s\n", "    timeout check 1s\n    timeout http-request 5s\n", 1)
        self.assertEqual(self.run_check(haproxy=text).returncode, 0)

    def testHAProxyWithoutTheStickTableFails(self):
        text = self.without("haproxy", r"^\s*stick-table ")
        problems = self.assertFailsWith(self.run_check(haproxy=text), "listen passkey: no stick-table")
        self.assertEqual(len(problems), 1, problems)

    def testHAProxyWithoutPerSourceTrackingFails(self):
        text = self.without("haproxy", r"^\s*tcp-request connection track-sc0 ")
        self.assertFailsWith(self.run_check(haproxy=text), "no per-source tracking when a connection is accepted")

    def testHAProxyTrackingOnlyOnceTheHeadHasArrivedFails(self):
        text = re.sub(r"tcp-request connection track-sc0 (\S+)", r"http-request track-sc0 \1", self.text["haproxy"])
        self.assertFailsWith(self.run_check(haproxy=text), "slow heads are not counted")

    def testHAProxyWithoutTheConnectionLimitFails(self):
        text = self.without("haproxy", r"^\s*tcp-request connection reject ")
        problems = self.assertFailsWith(self.run_check(haproxy=text), "listen passkey: no per-source connection limit")
        self.assertEqual(len(problems), 1, problems)

    def testHAProxyWithoutTheRequestRateLimitFails(self):
        text = self.without("haproxy", r"^\s*http-request deny .*sc_http_req_rate")
        problems = self.assertFailsWith(self.run_check(haproxy=text), "no per-source request rate limit")
        self.assertEqual(len(problems), 1, problems)

    def testHAProxyCommentsDoNotCount(self):
        # A setting commented out is not a setting.
        text = re.sub(r"(?m)^(\s*)(timeout http-request )", r"\1# \2", self.text["haproxy"])
        self.assertFailsWith(self.run_check(haproxy=text), "no timeout http-request")

    # --- docker-compose.yml ---------------------------------------------------------------------

    def testComposeWithoutTrustedProxiesFails(self):
        text = self.without("compose", r"^\s+TRUSTED_PROXIES: ")
        problems = self.assertFailsWith(self.run_check(compose=text), "service server sets no TRUSTED_PROXIES")
        self.assertEqual(len(problems), 1, problems)

    def testComposeWithADefaultInsteadOfARequirementFails(self):
        for value in ('"${PASSKEY_TRUSTED_PROXIES:-}"', '"${PASSKEY_TRUSTED_PROXIES}"', "127.0.0.1"):
            text = re.sub(r"(?m)^(\s+TRUSTED_PROXIES: ).*$", lambda m: m.group(1) + value, self.text["compose"])
            with self.subTest(value=value):
                self.assertFailsWith(self.run_check(compose=text), "not a requirement")

    def testComposeRequiringANonEmptyValuePasses(self):
        text = self.text["compose"].replace("${PASSKEY_TRUSTED_PROXIES?", "${PASSKEY_TRUSTED_PROXIES:?", 1)
        self.assertNotEqual(text, self.text["compose"])
        self.assertEqual(self.run_check(compose=text).returncode, 0)


# The settings as the fourth review found them (abridged to what the check reads).
PATRONI_AS_REVIEWED = """scope: passkey
name: @NAME@
restapi:
  listen: 127.0.0.1:@REST_PORT@
  connect_address: 127.0.0.1:@REST_PORT@
etcd3:
  hosts: @ETCD_HOSTS@
"""
HAPROXY_AS_REVIEWED = """global
    maxconn 4000
defaults
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout check 1s
listen postgres
    bind 127.0.0.1:@DB_PORT@
    mode tcp
listen passkey
    bind 127.0.0.1:@HTTP_PORT@
    mode http
    option forwardfor
    errorfile 503 @ERRORFILE@
    server app1 127.0.0.1:@APP1_PORT@ check
"""
COMPOSE_AS_REVIEWED = """services:
  server:
    image: ${PASSKEY_IMAGE:-passkey-server:local}
    environment:
      HOST: 0.0.0.0
      PORT: "8080"
      PASSKEY_RP_ID: localhost
"""

if __name__ == "__main__":
    unittest.main()
