#!/usr/bin/env python3
"""docs/ios.md's slide table against the example: every citation `path:N` (`symbol`) must name a
file of Examples/PasskeyMigrationApp/Sources/PasskeyMigrationApp whose line N holds `symbol`, so
that the table cannot drift when code moves (issue 39: "a reader can follow slides 19–76 file by
file"). A citation without a line (`path` alone) only has to name a file that exists.

    python3 scripts/check-slide-table.py [DOC]      # exit 0, or 1 with one line per problem

DOC defaults to docs/ios.md (scripts/test_check_slide_table.py passes altered copies).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DOC = os.path.join(ROOT, "docs", "ios.md")
BASE = os.path.join(ROOT, "Examples", "PasskeyMigrationApp", "Sources", "PasskeyMigrationApp")
HEADING = "## The talk, slide by slide"
CITATION = re.compile(r"`([\w/+.]+\.swift)(?::(\d+))?`(?: \(`([^`]+)`\))?")


def main():
    doc = sys.argv[1] if len(sys.argv) > 1 else DOC
    lines = open(doc, encoding="utf-8").read().split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith(HEADING))
    except StopIteration:
        print(f"check-slide-table: no '{HEADING}' in docs/ios.md")
        return 1
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("| ") and not line.startswith("| slides"):
            rows.append(line)
    problems, checked = [], 0
    for row in rows:
        cells = row.split("|")
        slides, where = cells[1].strip(), cells[3] if len(cells) > 3 else ""
        for match in CITATION.finditer(where):
            path, number, symbol = match.group(1), match.group(2), match.group(3)
            file = os.path.join(BASE, path)
            if not os.path.isfile(file):
                problems.append(f"slides {slides}: {path} does not exist")
                continue
            checked += 1
            if number is None:
                continue
            if symbol is None:
                problems.append(f"slides {slides}: {path}:{number} names no (`symbol`) to check it by")
                continue
            source = open(file, encoding="utf-8").read().split("\n")
            n = int(number)
            if not 1 <= n <= len(source) or symbol not in source[n - 1]:
                found = [i + 1 for i, text in enumerate(source) if symbol in text]
                problems.append(f"slides {slides}: {path}:{n} does not hold `{symbol}` (it is on line(s) {found})")
    if len(rows) < 15 or checked < 20:
        problems.append(f"only {len(rows)} rows and {checked} citations found: is the table still there?")
    for problem in problems:
        print(f"check-slide-table: {problem}")
    print(f"check-slide-table: {'FAILED' if problems else 'ok'} ({len(rows)} rows, {checked} citations)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
