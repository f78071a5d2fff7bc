#!/usr/bin/env python3
"""scripts/check-slide-table.py must fail when a citation's line moves away from its symbol, when a
cited file is missing and when a line number has no symbol to check it by, and pass on docs/ios.md."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check-slide-table.py")
DOC = os.path.join(HERE, "..", "docs", "ios.md")


def run(text):
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, CHECK, f.name], capture_output=True, text=True).returncode
    finally:
        os.unlink(f.name)


def main():
    doc = open(DOC, encoding="utf-8").read()
    first = re.search(r"`(Interactors/PasskeyAuthenticationInteractor\.swift):(\d+)` \(`", doc)
    assert first, "docs/ios.md cites PasskeyAuthenticationInteractor.swift with a line"
    moved = doc.replace(first.group(0), f"`{first.group(1)}:{int(first.group(2)) + 1}` (`", 1)
    missing = doc.replace("Router/Router.swift", "Router/Nowhere.swift", 1)
    unchecked = re.sub(r"(\.swift:\d+`) \(`[^`]+`\)", r"\1", doc, count=1)
    cases = [("docs/ios.md as it is", doc, 0), ("a line moved", moved, 1), ("a missing file", missing, 1),
             ("a line without its symbol", unchecked, 1)]
    failed = 0
    for name, text, expected in cases:
        status = run(text)
        ok = status == expected
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} check-slide-table on {name}: exit {status}, expected {expected}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
