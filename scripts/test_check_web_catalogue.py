#!/usr/bin/env python3
"""Tests of scripts/check-web-catalogue.py on the repository's own web client and on broken copies
of it: the check passes on the files as they are, and fails on each kind of break it exists to
catch (run by scripts/browser-test.sh; `python3 scripts/test_check_web_catalogue.py`)."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK = os.path.join(HERE, "check-web-catalogue.py")


class CheckWebCatalogueTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check-web-catalogue-")
        shutil.copytree(os.path.join(ROOT, "WebClient"), os.path.join(self.root, "WebClient"))
        os.makedirs(os.path.join(self.root, "Sources/PasskeyWire"))
        shutil.copy(os.path.join(ROOT, "Sources/PasskeyWire/ErrorCode.swift"),
                    os.path.join(self.root, "Sources/PasskeyWire/ErrorCode.swift"))

    def tearDown(self):
        shutil.rmtree(self.root)

    def run_check(self):
        return subprocess.run([sys.executable, CHECK, "--root", self.root], capture_output=True, text=True)

    def edit(self, path, old, new):
        """Replaces `old` (which must be there once) in WebClient/`path`."""
        full = os.path.join(self.root, "WebClient", path)
        with open(full, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count(old), 1, f"{path} holds {old!r} once")
        with open(full, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))

    def assertFails(self, *fragments):
        done = self.run_check()
        self.assertEqual(done.returncode, 1, done.stdout)
        for fragment in fragments:
            self.assertIn(fragment, done.stdout)

    def test_passes_as_it_is(self):
        done = self.run_check()
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("check-web-catalogue: ok", done.stdout)

    def test_a_key_missing_from_japanese(self):
        self.edit("assets/catalogue-ja.js", '  "passkeys.rename": "名前を変更",\n', "")
        self.assertFails("passkeys.rename: in catalogue-en.js, missing from catalogue-ja.js")

    def test_a_key_missing_from_english(self):
        self.edit("assets/catalogue-en.js", '  "passkeys.rename": "Rename",\n', "")
        self.assertFails("passkeys.rename: in catalogue-ja.js, missing from catalogue-en.js")

    def test_placeholders_that_differ(self):
        self.edit("assets/catalogue-ja.js", '"「{name}」を削除しました。"', '"「{nam}」を削除しました。"')
        self.assertFails("passkeys.deleted: placeholders differ")

    def test_an_untranslated_japanese_value(self):
        self.edit("assets/catalogue-ja.js", '"passkeys.rename": "名前を変更"', '"passkeys.rename": "Rename"')
        self.assertFails("passkeys.rename: the Japanese is the English unchanged")

    def test_an_error_code_without_a_sentence(self):
        for language, text in (("en", "Your operator role does not allow this."),
                               ("ja", "あなたのオペレーター権限では、この操作はできません。")):
            self.edit(f"assets/catalogue-{language}.js", f'  "code.forbidden": "{text}",\n', "")
        self.assertFails("code.forbidden: the contract's error code has no sentence")

    def test_a_sentence_left_in_a_module(self):
        self.edit("assets/sessions.js", 't("sessions.noOthers")', '"No other sessions here."')
        self.assertFails("sessions.js:", "words outside the catalogues: 'No other sessions here.'")

    def test_one_capitalised_word_left_in_a_module(self):
        self.edit("assets/sessions.js", 'end.textContent = t("sessions.end");', 'end.textContent = "End";')
        self.assertFails("words outside the catalogues: 'End'")

    def test_a_template_with_words_left_in_a_module(self):
        self.edit("assets/user-agent.js", 't("agent.browserOn", { browser, system: system[1] })',
                  '`${browser} on ${system[1]}`')
        self.assertFails("words outside the catalogues: '${…} on ${…}'")

    def test_japanese_left_in_a_module(self):
        self.edit("assets/sessions.js", 'end.textContent = t("sessions.end");', 'end.textContent = "終了";')
        self.assertFails("words outside the catalogues: '終了'")

    def test_words_for_developers_are_not_counted(self):
        self.edit("assets/sessions.js", 'end.textContent = t("sessions.end");',
                  'end.textContent = t("sessions.end");\n  console.error("This is for the console only.");')
        done = self.run_check()
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_a_key_used_and_missing(self):
        self.edit("assets/sessions.js", 't("sessions.end")', 't("sessions.stop")')
        self.assertFails("t('sessions.stop'): no such key", "sessions.end: in the catalogues, used nowhere")

    def test_an_unbound_text_in_a_page(self):
        self.edit("index.html", '<h2 id="sessions-heading" tabindex="-1" data-i18n="sessions.heading">Sessions</h2>',
                  '<h2 id="sessions-heading" tabindex="-1">Sessions</h2>')
        self.assertFails("index.html:", "words in <h2> without data-i18n: 'Sessions'",
                         "sessions.heading: in the catalogues, used nowhere")

    def test_an_unbound_attribute_in_a_page(self):
        self.edit("operator.html", '<select id="days" name="days">', '<select id="days" name="days" title="Days">')
        self.assertFails("title=\"Days\" on <select> has no data-i18n-attr")

    def test_a_page_that_disagrees_with_the_english(self):
        self.edit("index.html", 'data-i18n="sessions.heading">Sessions</h2>', 'data-i18n="sessions.heading">Sesions</h2>')
        self.assertFails("data-i18n=\"sessions.heading\" says 'Sesions', catalogue-en.js 'Sessions'")

    def test_an_unknown_key_in_a_page(self):
        self.edit("index.html", 'data-i18n="sessions.heading"', 'data-i18n="sessions.title"')
        self.assertFails("data-i18n=\"sessions.title\": no such key")


if __name__ == "__main__":
    unittest.main(verbosity=1)
