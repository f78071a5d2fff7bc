#!/usr/bin/env python3
"""Tests of scripts/check-image-context.py on the repository's own files and on broken copies of
them: the check passes on the Dockerfile as it is, and fails on each kind of break it exists to
catch (run by scripts/test.sh; `python3 scripts/test_check_image_context.py`)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK = os.path.join(HERE, "check-image-context.py")


def dump_package():
    scratch = tempfile.mkdtemp(prefix="dump-")
    out = subprocess.run(
        ["swift", "package", "--scratch-path", scratch, "dump-package"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    subprocess.run(["rm", "-rf", scratch])
    return out.stdout


class CheckImageContextTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="check-image-context-")
        cls.dump = os.path.join(cls.folder, "dump.json")
        with open(cls.dump, "w") as f:
            f.write(dump_package())
        with open(os.path.join(ROOT, "Dockerfile")) as f:
            cls.dockerfile = f.read()
        with open(os.path.join(ROOT, ".dockerignore")) as f:
            cls.dockerignore = f.read()

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["rm", "-rf", cls.folder])

    def run_check(self, dockerfile=None, dockerignore=None):
        paths = {}
        for name, text, default in (
            ("Dockerfile", dockerfile, self.dockerfile),
            ("dockerignore", dockerignore, self.dockerignore),
        ):
            paths[name] = os.path.join(self.folder, name)
            with open(paths[name], "w") as f:
                f.write(default if text is None else text)
        return subprocess.run(
            [sys.executable, CHECK, "--dump", self.dump, "--dockerfile", paths["Dockerfile"],
             "--dockerignore", paths["dockerignore"], ROOT],
            capture_output=True, text=True)

    def without_line(self, prefix):
        lines = self.dockerfile.splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith(prefix)]
        self.assertEqual(len(kept), len(lines) - 1, f"the Dockerfile has one line starting {prefix!r}")
        return "".join(kept)

    def testTheRepositoryDockerfilePasses(self):
        result = self.run_check()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("paths the image needs are in its build context", result.stdout)

    def testTheManifestNamesAllItsTargetFolders(self):
        # The example app's targets are what broke the image (issue 41): the dump must name them.
        names = {t["name"]: t.get("path") for t in json.load(open(self.dump))["targets"]}
        self.assertIn("PasskeyMigrationApp", names)
        self.assertTrue(names["PasskeyMigrationApp"].startswith("Examples/"))

    def testADockerfileWithoutTheExamplesFails(self):
        # The Dockerfile of 1d5b83e: Package.swift, Sources and Tests only.
        result = self.run_check(dockerfile=self.without_line("COPY Examples"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("Examples/PasskeyMigrationApp/Sources/PasskeyMigrationApp: the manifest names it", result.stderr)

    def testADockerfileWithoutTheTestsFails(self):
        result = self.run_check(dockerfile=self.without_line("COPY Tests"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("Tests/PasskeyServerTests: the manifest names it", result.stderr)

    def testARuntimeStageWithoutTheMigrationsFails(self):
        result = self.run_check(dockerfile=self.without_line("COPY Migrations"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("Migrations: the server reads it at run time", result.stderr)

    def testADockerignoreThatDropsAFolderFails(self):
        result = self.run_check(dockerignore=self.dockerignore + "\nExamples\n")
        self.assertEqual(result.returncode, 1)
        self.assertIn(".dockerignore leaves it out of the build context", result.stderr)

    def testADockerignoreExceptionBringsItBack(self):
        result = self.run_check(dockerignore=self.dockerignore + "\nExamples\n!Examples\n")
        self.assertEqual(result.returncode, 0, result.stderr)

    def testACopyOfAMissingPathFails(self):
        result = self.run_check(dockerfile=self.dockerfile.replace("COPY Examples ./Examples", "COPY Exampels ./Examples"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("Exampels: stage build copies it, but the build context has no such path", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
