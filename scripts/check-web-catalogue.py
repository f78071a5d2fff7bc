#!/usr/bin/env python3
"""(v4, issue 40) The web client's message catalogues, checked without a browser.

    python3 scripts/check-web-catalogue.py [--root DIR]

WebClient/assets/catalogue-en.js and catalogue-ja.js hold every sentence and word that the web
client (index.html) and the operator page (operator.html) show; language.js's t(key) picks one.
This check fails (exit 1, one line per problem) when:

  1. a key is in one catalogue and not the other, twice in one, or its {placeholders} differ
     between the two; a Japanese value is the English one unchanged (unless listed in SAME_IN_BOTH);
  2. a problem+json code of the contract (Sources/PasskeyWire/ErrorCode.swift) has no `code.<code>`;
  3. a key is used and missing: t("key") in a module, data-i18n="key" or data-i18n-attr="name:key"
     in a page; or listed and never used (no string literal and no data-i18n names it, and no
     template literal builds it, like `code.${code}`);
  4. the HTML and the catalogue disagree: an element's words (its slots, data-slot="name", read as
     {name}) differ from the English entry (or, for an element with lang="ja", the Japanese one);
  5. words are left outside the catalogues:
     - in a page: a text node with a letter whose element has no data-i18n (elements marked
       translate="no" are left out: product names, the 日本語 / English buttons, file names), or an
       aria-label, title, placeholder or non-empty alt not named by data-i18n-attr;
     - in a module (any .js but the catalogues), a string or template literal that reads as text
       for people: it holds a Japanese character; or, with ${…} taken out, it has two or more
       tokens separated by spaces, one of them a word (two letters or more); or it is one
       capitalised word ("Remove"). Not counted: literals given to new Error(…), new
       DOMException(…) or console.…(…) (words for developers, never shown), class names
       (className =, class:), CSS selectors (querySelector…, closest), literals compared with
       === or !== (values of the API), and the few in ALLOWED (each with its reason).
     Lower-case single words ("pending", "click") are states and event names, not checked.

Run by scripts/browser-test.sh (step catalogue_check) and its own tests in
scripts/test_check_web_catalogue.py. Doc: docs/web-client.md, "Languages".
"""

import argparse
import html.parser
import json
import os
import re
import sys

LANGUAGES = ("en", "ja")
# Values that are the same in English and Japanese on purpose.
SAME_IN_BOTH = {
    "page.webTitle",  # the product's name
    "validation.problem",  # "{field}: {problem}"
    "webhooks.url",  # "URL"
}
# Literals that look like words but are not shown to people, or are names of things: (file, text).
ALLOWED = {
    ("activity.js", "command line"): "the client address the server records for its own commands",
    ("api.js", "Bearer ${…}"): "the Authorization scheme",
    ("language.js", "ja, en;q=0.5"): "an Accept-Language value",
    ("user-agent.js", "Edge"): "a browser's name",
    ("user-agent.js", "Opera"): "a browser's name",
    ("user-agent.js", "Samsung Internet"): "a browser's name",
    ("user-agent.js", "Firefox"): "a browser's name",
    ("user-agent.js", "Chrome"): "a browser's name",
    ("user-agent.js", "Headless Chrome"): "a browser's name",
    ("user-agent.js", "Safari"): "a browser's name",
    ("user-agent.js", "Android"): "a system's name",
    ("user-agent.js", "Windows"): "a system's name",
    ("user-agent.js", "Linux"): "a system's name",
}
# Attributes that carry words for people.
WORDY_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "aria-description", "aria-roledescription")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
JAPANESE = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]")
WORD = re.compile(r"^[(\"“']*[A-Za-z][A-Za-z'’-]*[A-Za-z][.,:;!?)\"”']*$")
CAPITALISED = re.compile(r"^[A-Z][a-z]+[.!?:]?$")
PLACEHOLDER = re.compile(r"\{([A-Za-z]+)\}")
HOLE = "\x00"  # a ${…} of a template literal, taken out

problems = []


def problem(text):
    problems.append(text)


# ---- the catalogues ----

def read_catalogue(path):
    """{key: value} of a catalogue module, in order; problems for duplicates and bad lines."""
    entries = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    inside = False
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if text == "export default {":
            inside = True
            continue
        if not inside or not text or text.startswith("//"):
            continue
        if text == "};":
            inside = False
            continue
        match = re.fullmatch(r'("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*"),', text)
        if not match:
            problem(f"{os.path.basename(path)}:{number}: not one \"key\": \"value\", line: {text[:80]}")
            continue
        key, value = json.loads(match.group(1)), json.loads(match.group(2))
        if key in entries:
            problem(f"{os.path.basename(path)}:{number}: {key} is there twice")
        entries[key] = value
    if not entries:
        problem(f"{os.path.basename(path)}: no entries (export default {{ … }};)")
    return entries


def check_catalogues(catalogues):
    en, ja = catalogues["en"], catalogues["ja"]
    for key in en.keys() - ja.keys():
        problem(f"{key}: in catalogue-en.js, missing from catalogue-ja.js")
    for key in ja.keys() - en.keys():
        problem(f"{key}: in catalogue-ja.js, missing from catalogue-en.js")
    for key in en.keys() & ja.keys():
        a, b = set(PLACEHOLDER.findall(en[key])), set(PLACEHOLDER.findall(ja[key]))
        if a != b:
            problem(f"{key}: placeholders differ: en {sorted(a)}, ja {sorted(b)}")
        if en[key] == ja[key] and re.search(r"[A-Za-z]{2}", en[key]) and key not in SAME_IN_BOTH:
            problem(f"{key}: the Japanese is the English unchanged ({en[key][:60]!r})")


def check_error_codes(root, en):
    path = os.path.join(root, "Sources/PasskeyWire/ErrorCode.swift")
    if not os.path.exists(path):
        problem(f"{path} not found: the contract's error codes cannot be checked")
        return
    with open(path, encoding="utf-8") as f:
        codes = re.findall(r'case \w+ = "([a-z0-9-]+)"', f.read())
    if not codes:
        problem(f"{path}: no error codes found")
    for code in codes:
        if f"code.{code}" not in en:
            problem(f"code.{code}: the contract's error code has no sentence in the catalogues")


# ---- the modules: a small JavaScript tokenizer (strings, templates, regexes, comments) ----

REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")
REGEX_KEYWORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield",
                  "await"}


def unescape(body):
    """A JS string's body as text (the escapes these files use)."""
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = body[i + 1] if i + 1 < len(body) else ""
        if n == "u" and body[i + 2:i + 3] == "{":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3:end], 16)))
            i = end + 1
        elif n == "u":
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
        elif n == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        else:
            out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(n, n))
            i += 2
    return "".join(out)


def literals(source):
    """[(offset, text, is_template, dynamic_head)] of every string and template literal; a
    template's ${…} becomes HOLE (and its own literals are listed too)."""
    found = []

    def skip_string(i, quote):
        j = i + 1
        while source[j] != quote:
            j += 2 if source[j] == "\\" else 1
        found.append((i, unescape(source[i + 1:j]), False, None))
        return j + 1

    def skip_template(i):
        j, parts = i + 1, []
        text = []
        while source[j] != "`":
            if source[j] == "\\":
                text.append(source[j:j + 2])
                j += 2
            elif source.startswith("${", j):
                parts.append(unescape("".join(text)))
                text = []
                j = scan(j + 2, "}")
            else:
                text.append(source[j])
                j += 1
        parts.append(unescape("".join(text)))
        head = parts[0] if len(parts) > 1 else None
        found.append((i, HOLE.join(parts), True, head))
        return j + 1

    def skip_regex(i):
        j, in_class = i + 1, False
        while True:
            c = source[j]
            if c == "\\":
                j += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                break
            j += 1
        j += 1
        while j < len(source) and source[j].isalpha():
            j += 1
        return j

    def scan(i, until=None):
        depth = 0
        last = ""  # the last significant character or word
        while i < len(source):
            c = source[i]
            if until and c == until and depth == 0:
                return i + 1
            if source.startswith("//", i):
                i = source.find("\n", i)
                i = len(source) if i < 0 else i
                continue
            if source.startswith("/*", i):
                i = source.index("*/", i) + 2
                continue
            if c in "\"'":
                i = skip_string(i, c)
                last = "x"
                continue
            if c == "`":
                i = skip_template(i)
                last = "x"
                continue
            if c == "/":
                if last == "" or last in REGEX_BEFORE or last in REGEX_KEYWORDS:
                    i = skip_regex(i)
                    last = "x"
                else:
                    i += 1
                    last = "/"
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            if c.isalnum() or c in "_$":
                j = i
                while j < len(source) and (source[j].isalnum() or source[j] in "_$"):
                    j += 1
                last = source[i:j]
                i = j
                continue
            if not c.isspace():
                last = c
            i += 1
        return i

    scan(0)
    return found


EXEMPT_CONTEXT = re.compile(
    r"(new\s+(Error|DOMException)\(\s*|console\.\w+\(\s*|className\s*=\s*|\bclass:\s*|classList\.\w+\(\s*|"
    r"querySelector(All)?\(\s*|closest\(\s*|matches\(\s*|[!=]==\s*)$")


def reads_as_text(text):
    if JAPANESE.search(text):
        return True
    tokens = text.replace(HOLE, "#").split()
    words = [token for token in tokens if WORD.match(token)]
    if len(tokens) >= 2 and words:
        return True
    return len(tokens) == 1 and bool(CAPITALISED.match(tokens[0]))


def check_modules(folder, catalogues):
    """Sentences left in modules; keys used by t() and missing; every literal and dynamic prefix."""
    used, prefixes = set(), set()
    en = catalogues["en"]
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".js") or name.startswith("catalogue-"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            source = f.read()
        try:
            found = literals(source)
        except (IndexError, ValueError):
            problem(f"{name}: could not be read as JavaScript (an unclosed string, template or comment)")
            continue
        for offset, text, is_template, head in found:
            used.add(text)
            if head and re.fullmatch(r"[a-z][A-Za-z]*\.", head):
                prefixes.add(head)
            shown = text.replace(HOLE, "${…}")
            context = source[max(0, offset - 60):offset]
            if not reads_as_text(text) or EXEMPT_CONTEXT.search(context) or (name, shown) in ALLOWED:
                continue
            line = source.count("\n", 0, offset) + 1
            problem(f"{name}:{line}: words outside the catalogues: {shown[:70]!r} (use t(key))")
        for match in re.finditer(r"\bt\(\s*([\"'])([^\"'`]+)\1", source):
            key = match.group(2)
            if key not in en:
                line = source.count("\n", 0, match.start()) + 1
                problem(f"{name}:{line}: t({key!r}): no such key in the catalogues")
    return used, prefixes


# ---- the pages ----

class Element:
    def __init__(self, tag, attrs, parent, line):
        self.tag, self.attrs, self.parent, self.line = tag, dict(attrs), parent, line
        self.children = []  # Elements and strings

    def inherited(self, name):
        element = self
        while element is not None:
            if name in element.attrs:
                return element.attrs[name]
            element = element.parent
        return None


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None, 0)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current, self.getpos()[0])
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, attrs, self.current, self.getpos()[0]))

    def handle_endtag(self, tag):
        element = self.current
        while element is not self.root and element.tag != tag:
            element = element.parent
        if element is not self.root:
            self.current = element.parent

    def handle_data(self, data):
        self.current.children.append(data)


def normal(text):
    return " ".join(text.split())


def words_of(element, page):
    """The element's words as a catalogue entry: text, and {name} for each data-slot child."""
    parts = []
    for child in element.children:
        if isinstance(child, str):
            parts.append(child)
        elif "data-slot" in child.attrs:
            parts.append("{" + child.attrs["data-slot"] + "}")
        else:
            problem(f"{page}:{child.line}: <{child.tag}> inside data-i18n=\"{element.attrs['data-i18n']}\" "
                    "is not a data-slot")
    return normal("".join(parts))


def check_page(path, catalogues):
    page = os.path.basename(path)
    parser = Page()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    keys = set()

    def visit(element):
        key = element.attrs.get("data-i18n")
        if key:
            keys.add(key)
            language = element.attrs.get("lang") or "en"
            if key not in catalogues["en"]:
                problem(f"{page}:{element.line}: data-i18n=\"{key}\": no such key in the catalogues")
            elif language in catalogues and words_of(element, page) != normal(catalogues[language][key]):
                problem(f"{page}:{element.line}: data-i18n=\"{key}\" says {words_of(element, page)[:60]!r}, "
                        f"catalogue-{language}.js {normal(catalogues[language][key])[:60]!r}")
        named = {}
        for pair in (element.attrs.get("data-i18n-attr") or "").split(";"):
            if ":" in pair:
                name, attr_key = (part.strip() for part in pair.split(":", 1))
                named[name] = attr_key
                keys.add(attr_key)
                if attr_key not in catalogues["en"]:
                    problem(f"{page}:{element.line}: data-i18n-attr {name}:{attr_key}: no such key")
                elif normal(element.attrs.get(name) or "") != normal(catalogues["en"][attr_key]):
                    problem(f"{page}:{element.line}: {name}=\"{element.attrs.get(name)}\" is not "
                            f"catalogue-en.js's {attr_key}")
        untranslated = element.inherited("translate") == "no"
        for name in WORDY_ATTRIBUTES:
            value = element.attrs.get(name)
            if value and re.search(r"[A-Za-z\u3040-\u9fff]", value) and name not in named and not untranslated:
                problem(f"{page}:{element.line}: {name}=\"{value[:50]}\" on <{element.tag}> has no data-i18n-attr")
        for child in element.children:
            if isinstance(child, Element):
                if child.tag not in ("script", "style"):
                    visit(child)
            elif re.search(r"[A-Za-z\u3040-\u9fff]", child) and not key and not untranslated:
                problem(f"{page}:{element.line}: words in <{element.tag}> without data-i18n: {normal(child)[:60]!r}")

    visit(parser.root)
    return keys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the repository (default: this script's)")
    args = parser.parse_args()
    folder = os.path.join(args.root, "WebClient")
    assets = os.path.join(folder, "assets")
    catalogues = {language: read_catalogue(os.path.join(assets, f"catalogue-{language}.js")) for language in LANGUAGES}
    check_catalogues(catalogues)
    check_error_codes(args.root, catalogues["en"])
    used, prefixes = check_modules(assets, catalogues)
    pages = [name for name in sorted(os.listdir(folder)) if name.endswith(".html")]
    for name in pages:
        used |= check_page(os.path.join(folder, name), catalogues)
    for key in catalogues["en"]:
        if key not in used and not any(key.startswith(prefix) for prefix in prefixes):
            problem(f"{key}: in the catalogues, used nowhere")
    for text in problems:
        print(f"check-web-catalogue: {text}")
    summary = (f"{len(catalogues['en'])} keys in en and ja, {len(pages)} pages, "
               f"{len([n for n in os.listdir(assets) if n.endswith('.js')])} modules")
    if problems:
        print(f"check-web-catalogue: FAILED, {len(problems)} problem(s) ({summary})")
        return 1
    print(f"check-web-catalogue: ok ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
