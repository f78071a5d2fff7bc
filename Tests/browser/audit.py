"""(v4, issue 40) What the web client's and the operator page's browser tests share for languages
and accessibility: a Chromium whose languages are known, the 日本語 / English switch used as a
person would, axe-core in both colour schemes, the sideways-scroll check, and keys-only driving.

axe-core comes from PyPI's axe-selenium-python-nhsuk (its axe.min.js, axe-core 4.9), installed
into .tools/venv by scripts/browser-test.sh and scripts/deps.sh --with-test-tools. It is injected
with WebDriver's execute_script, which the page's strict CSP does not govern, and runs with only
the WCAG 2.0/2.1 A and AA rules; a violation of impact serious or critical fails the view.
"""

import json
import os
import time

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = ("serious", "critical")
THEMES = ("light", "dark")
LANGUAGES = ("en", "ja")
LANGUAGE_KEY = "passkey-server.language"  # language.js: the only thing the pages keep in localStorage


def browser_languages(options, accept="en-US,en"):
    """Chromium's own languages: navigator.languages and Accept-Language (English by default)."""
    options.add_argument(f"--lang={accept.split(',')[0]}")
    options.add_experimental_option("prefs", {"intl.accept_languages": accept})


def axe_script():
    from axe_selenium_python.axe import _DEFAULT_SCRIPT
    with open(_DEFAULT_SCRIPT, encoding="utf-8") as f:
        return f.read()


class Auditor:
    """Runs axe on the page of `driver` and keeps a count per view, language and theme."""

    def __init__(self, driver, screenshot_dir, prefix=""):
        self.driver = driver
        self.screenshot_dir = screenshot_dir
        self.prefix = prefix
        self.script = axe_script()
        self.results = {}  # (view, language, theme) → number of serious or critical violations

    def theme(self, name):
        features = [{"name": "prefers-color-scheme", "value": name}]
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": features})
        dark = self.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
        if dark != (name == "dark"):
            raise AssertionError(f"the page is not in the {name} scheme")

    def violations(self):
        """The WCAG A/AA violations of impact serious or critical, as short lines."""
        if not self.driver.execute_script("return typeof window.axe === 'object'"):
            self.driver.execute_script(self.script)
        found = self.driver.execute_async_script(
            """const done = arguments[arguments.length - 1];
            axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
              .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact,
                nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n')[1])}))))
              .catch((e) => done([{id: 'axe-error', impact: 'critical', nodes: [String(e)]}]));""", WCAG_TAGS)
        return [v for v in found if v["impact"] in FAILING_IMPACTS]

    def audit(self, view, language, show=None):
        """Both themes: axe, then (light) a screenshot `{prefix}{view}-{language}.png` of the window
        scrolled to the top, or to the element `show` (a CSS selector). Returns the problems as
        text ([] when there are none)."""
        problems = []
        for theme in THEMES:
            self.theme(theme)
            time.sleep(0.05)  # the restyle
            found = self.violations()
            self.results[(view, language, theme)] = len(found)
            problems += [f"{view}/{language}/{theme}: {v['id']} ({v['impact']}) at {'; '.join(v['nodes'][:3])}"
                         for v in found]
        self.theme("light")
        self.driver.execute_script("""const e = arguments[0] && document.querySelector(arguments[0]);
            if (!e) window.scrollTo(0, 0);
            else { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -16); }""", show)
        os.makedirs(self.screenshot_dir, exist_ok=True)
        self.driver.save_screenshot(os.path.join(self.screenshot_dir, f"{self.prefix}{view}-{language}.png"))
        return problems

    def summary(self):
        views = sorted({v for v, _, _ in self.results})
        return {view: {f"{language}/{theme}": self.results.get((view, language, theme))
                       for language in LANGUAGES for theme in THEMES} for view in views}

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.summary(), f, indent=1, ensure_ascii=False)


def language_of(driver):
    return driver.execute_script("return document.documentElement.lang")


def switch_language(driver, language, wait):
    """Clicks the page's own switch (日本語 / English) and waits until the page says it."""
    from selenium.webdriver.common.by import By
    if language_of(driver) == language:
        return
    driver.find_element(By.CSS_SELECTOR, f"[data-language='{language}']").click()
    wait(f"the page in {language}", lambda: language_of(driver) == language and driver.execute_script(
        "return document.querySelector(arguments[0]).getAttribute('aria-pressed')",
        f"[data-language='{language}']") == "true")


def audit_view(page, settled, view, enter=None, leave=None, show=None):
    """The view in English and in Japanese (the page's own switch), axe-core in light and dark
    (`page.auditor`); `enter` opens it (a dialog) after each switch, `leave` closes it;
    `settled()` waits for the page to be idle after each switch; the screenshots show the element
    `show` (else the top). Ends in English. Returns the problems as text ([] when there are none)."""
    problems = []
    for language in LANGUAGES:
        switch_language(page.driver, language, page.wait)
        settled()
        if enter:
            enter()
        problems += page.auditor.audit(view, language, show)
        if leave:
            leave()
    switch_language(page.driver, "en", page.wait)
    settled()
    return problems


def sideways_overflow(driver):
    """How far the page scrolls sideways (0 when it fits the window)."""
    return driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth")


def stored_keys(driver):
    return driver.execute_script("return Object.keys(localStorage)")


class Keys:
    """Drives the page with the keyboard only: Tab, Enter and Space, and typing into the field that
    has the focus. No element is clicked; where focus is checks only read document.activeElement."""

    def __init__(self, driver, wait):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys as K
        self.driver, self.wait, self.K, self.chain = driver, wait, K, ActionChains

    def press(self, *keys):
        self.chain(self.driver).send_keys(*keys).perform()

    def tab(self):
        self.press(self.K.TAB)

    def enter(self):
        self.press(self.K.ENTER)

    def space(self):
        self.press(self.K.SPACE)

    def type(self, text):
        self.press(text)

    def select_all_and_type(self, text):
        """Replaces what the focused field holds (Ctrl+A, then the text)."""
        self.chain(self.driver).key_down(self.K.CONTROL).send_keys("a").key_up(self.K.CONTROL).perform()
        self.press(self.K.BACKSPACE)
        self.press(text)

    def focused(self, css):
        return self.driver.execute_script(
            "const e = document.activeElement; return !!e && e.matches(arguments[0])", css)

    def describe_focus(self):
        return self.driver.execute_script("""const e = document.activeElement;
            if (!e) return 'nothing';
            return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || '').trim().slice(0, 30)""")

    def tab_to(self, css, limit=80):
        """Presses Tab until the element matching `css` has the focus; fails after `limit` presses."""
        for _ in range(limit):
            if self.focused(css):
                return
            self.tab()
        raise AssertionError(f"{limit} presses of Tab did not reach {css}; focus on {self.describe_focus()}")
