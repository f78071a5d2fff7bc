#!/usr/bin/env python3
"""Checks that the Dockerfile's build context holds every path the image needs.

The image build fails when a path the manifest names (a target's folder, its resources) is
missing from the build stage, and the server fails at run time when the files it serves are
missing from the runtime stage (docs/containers.md, "The build context check"). Both kinds of
break are invisible to `swift build` on a checkout, so this check reads:

- the manifest, through `swift package dump-package` (or a JSON file given with --dump): every
  target's folder (its `path`, else `Sources/NAME`, or `Tests/NAME` for a test target) and
  every resource under it, plus `Package.swift` itself;
- the Dockerfile's `COPY` lines (and `ADD`), stage by stage: the build stages' sources must cover
  the manifest's paths; the last stage's sources must include what the server reads at run time
  (`Migrations/`, `WebClient/`, `openapi.json`);
- `.dockerignore`: a path it excludes is not in the context, whatever a COPY line says.

Every path must also exist in the checkout. Exit 0 with one summary line, or 1 with one line per
missing path. Usage: check-image-context.py [--dockerfile F] [--dockerignore F] [--dump F] [ROOT]
"""

import argparse
import fnmatch
import json
import os
import shlex
import subprocess
import sys

# What the server reads at run time (Configuration: PASSKEY_MIGRATIONS_DIR, PASSKEY_WEB_CLIENT_DIR,
# PASSKEY_OPENAPI_FILE): the runtime stage must copy each from the context.
RUNTIME_PATHS = ["Migrations", "WebClient", "openapi.json"]


def parse_dockerfile(text):
    """Returns the stages as a list of (name, [copy sources]); `COPY --from=…` lines copy from
    another stage, not from the context, and are left out."""
    stages = []
    lines = []
    pending = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        lines.append(pending + stripped)
        pending = ""
    for line in lines:
        words = line.split(None, 1)
        instruction = words[0].upper()
        rest = words[1] if len(words) > 1 else ""
        if instruction == "FROM":
            parts = rest.split()
            name = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else str(len(stages))
            stages.append((name, []))
        elif instruction in ("COPY", "ADD") and stages:
            if rest.lstrip().startswith("["):
                args = json.loads(rest)
            else:
                args = shlex.split(rest)
            if any(a.startswith("--from") for a in args):
                continue
            args = [a for a in args if not a.startswith("--")]
            stages[-1][1].extend(normalise(a) for a in args[:-1])
    return stages


def normalise(path):
    path = path.strip()
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") or "."


def parse_dockerignore(text):
    patterns = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        if negate:
            line = line[1:].strip()
        patterns.append((negate, normalise(line)))
    return patterns


def ignored(path, patterns):
    """Docker's rule, simplified: the last pattern that matches the path or one of its parent
    folders decides; `!` re-includes. `**` is treated as `*`, which matches across `/` here."""
    prefixes = []
    parts = path.split("/")
    for i in range(1, len(parts) + 1):
        prefixes.append("/".join(parts[:i]))
    result = False
    for negate, pattern in patterns:
        pattern = pattern.replace("**", "*")
        if any(fnmatch.fnmatchcase(p, pattern) for p in prefixes):
            result = not negate
    return result


def covered(path, sources):
    return any(source == "." or path == source or path.startswith(source + "/") for source in sources)


def manifest_paths(dump):
    paths = ["Package.swift"]
    for target in dump["targets"]:
        default_root = "Tests" if target["type"] == "test" else "Sources"
        folder = normalise(target.get("path") or f"{default_root}/{target['name']}")
        paths.append(folder)
        for resource in target.get("resources") or []:
            paths.append(normalise(f"{folder}/{resource['path']}"))
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("--dockerfile")
    parser.add_argument("--dockerignore")
    parser.add_argument("--dump", help="the JSON of `swift package dump-package` (default: run it)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    dockerfile = args.dockerfile or os.path.join(root, "Dockerfile")
    dockerignore = args.dockerignore or os.path.join(root, ".dockerignore")

    if args.dump:
        with open(args.dump) as f:
            dump = json.load(f)
    else:
        scratch = os.environ.get("TMPDIR", "/tmp") + f"/check-image-context-{os.getpid()}"
        out = subprocess.run(
            ["swift", "package", "--scratch-path", scratch, "dump-package"],
            cwd=root, capture_output=True, text=True)
        subprocess.run(["rm", "-rf", scratch])
        if out.returncode != 0:
            print(f"check-image-context: swift package dump-package failed: {out.stderr.strip()}", file=sys.stderr)
            return 1
        dump = json.loads(out.stdout)

    with open(dockerfile) as f:
        stages = parse_dockerfile(f.read())
    patterns = []
    if os.path.exists(dockerignore):
        with open(dockerignore) as f:
            patterns = parse_dockerignore(f.read())
    if not stages:
        print(f"check-image-context: no FROM line in {dockerfile}", file=sys.stderr)
        return 1

    build_sources = [s for _, sources in stages[:-1] for s in sources] or stages[-1][1]
    runtime_sources = stages[-1][1]
    problems = []
    needed = [(p, "the manifest names it", build_sources) for p in manifest_paths(dump)]
    needed += [(p, "the server reads it at run time", runtime_sources) for p in RUNTIME_PATHS]
    for path, why, sources in needed:
        if not os.path.exists(os.path.join(root, path)):
            problems.append(f"{path}: {why}, but it is not in the checkout")
        elif ignored(path, patterns):
            problems.append(f"{path}: {why}, but .dockerignore leaves it out of the build context")
        elif not covered(path, sources):
            stage = "build stage" if sources is build_sources else "runtime stage"
            problems.append(f"{path}: {why}, but no COPY line of the Dockerfile's {stage} brings it")
    # A COPY source the context lacks fails the build too.
    for name, sources in stages:
        for source in sources:
            if any(ch in source for ch in "*?["):
                continue
            if not os.path.exists(os.path.join(root, source)) or ignored(source, patterns):
                problems.append(f"{source}: stage {name} copies it, but the build context has no such path")

    for problem in problems:
        print(f"check-image-context: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-image-context: {len(needed)} paths the image needs are in its build context")
    return 0


if __name__ == "__main__":
    sys.exit(main())
