#!/usr/bin/env python3
"""Prints the benchmark's one table (Markdown) from a bench/results/<run>/ folder.

Standard library only (runs with the system python3). Usage: python3 bench/report.py DIR
"""

from __future__ import annotations

import json
import os
import re
import sys


def load_json(path: str):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[int(p * (len(sorted_values) - 1))]


def mib(kb: int) -> str:
    return f"{kb / 1024:.0f} MiB"


def cores(x) -> str:
    return "–" if x is None else f"{x:.2f}"


def pgbench_row(out: str, name: str):
    cpu_doc = load_json(os.path.join(out, f"{name}-cpu.json"))
    if cpu_doc is None:
        return None
    start, end = cpu_doc["window_start_epoch"], cpu_doc["window_end_epoch"]
    latencies, errors, ok = [], 0, 0
    for line in read(os.path.join(out, f"{name}-transactions.log")).splitlines():
        f = line.split()
        if len(f) < 6:
            continue
        done = int(f[4]) + int(f[5]) / 1e6
        if not start <= done <= end:
            continue
        if not f[2].isdigit():  # "failed", "serialization", "deadlock"
            errors += 1
            continue
        ok += 1
        latencies.append(int(f[2]) / 1000)
    latencies.sort()
    text = read(os.path.join(out, f"{name}.txt"))
    status = read(os.path.join(out, f"{name}-status.txt")).strip()
    aborted = re.search(r"number of failed transactions: (\d+)", text)
    if status not in ("", "0"):
        errors = max(errors, 1)
    wall = end - start
    return {
        "rate": ok / wall if wall > 0 else 0,
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "errors": errors,
        "error_note": f"pgbench exit {status}" if status not in ("", "0") else (
            f"{aborted.group(1)} failed" if aborted and aborted.group(1) != "0" else ""),
        "cpu": cpu_doc["cpu"],
        "client": "pgbench",
        "clients": read(os.path.join(out, f"{name}-clients.txt")).strip() or "?",
    }


def http_row(out: str, name: str):
    doc = load_json(os.path.join(out, f"{name}.json"))
    if doc is None:
        return None
    return {
        "rate": doc["ceremonies_per_second"],
        "p50": doc["latency_ms"].get("p50", float("nan")),
        "p99": doc["latency_ms"].get("p99", float("nan")),
        "errors": doc["errors"],
        "error_note": ", ".join(f"{k}×{v}" for k, v in sorted(doc["error_kinds"].items())),
        "samples": doc.get("error_samples", []),
        "cpu": doc["cpu"],
        "client": "loadgen",
        "start_p50": doc["start_latency_ms"].get("p50"),
        "rate_asked": doc.get("open_loop_rate"),
        "not_served": doc.get("open_loop_not_served", 0),
        "flood_workers": doc.get("flood_workers"),
        "flood_rate": doc.get("flood_per_second"),
        "flood_statuses": doc.get("flood_statuses") or {},
    }


def summary(r: dict) -> list[str]:
    """The ratios the performance issue asks about, from the rows that ran."""
    lines = []
    swift = r.get("swift")

    def ratio(a, b):
        return a / b if b else float("nan")

    if swift and r.get("python"):
        lines.append(f"Swift / Python: {ratio(swift['rate'], r['python']['rate']):.2f}× (goal ≥ 3.0×)")
    if swift and r.get("go"):
        lines.append(f"Swift / Go: {ratio(swift['rate'], r['go']['rate']):.2f}× (goal ≥ 1.5×)")
    if swift and r.get("pgbench-naive"):
        lines.append(f"Swift / naive SQL (d): {ratio(swift['rate'], r['pgbench-naive']['rate']):.2f}× (goal ≥ 1.0×)")
    if r.get("swift-8"):
        lines.append(f"p99 at 8 connections: {r['swift-8']['p99']:.1f} ms (goal ≤ 15 ms)")
    if swift:
        lines.append(f"p99 at 32 connections: {swift['p99']:.1f} ms (goal ≤ 40 ms)")
        server = swift["cpu"].get("groups", {}).get("server")
        if server and swift["rate"]:
            lines.append(f"server CPU per ceremony: {server['cores'] * 1000 / swift['rate']:.2f} ms (goal ≤ 0.4 ms)")
    rss = [x["cpu"].get("groups", {}).get("server", {}).get("peak_rss_kb_max", 0)
           for k, x in r.items() if k.startswith("swift") and not k.endswith(BASELINE_SUFFIX)]
    if rss:
        lines.append(f"peak RSS over the Swift rows: {mib(max(rss))} (goal ≤ 64 MiB)")
    if swift and r.get("swift-flood"):
        lines.append(f"p99 with the password flood: {r['swift-flood']['p99']:.1f} ms = "
                     f"{ratio(r['swift-flood']['p99'], swift['p99']):.2f}× the row without it (goal ≤ 2×)")
    for key, name in (("token-mint", "minting"), ("introspect-opaque", "introspection of a session token"),
                      ("introspect-jwt", "introspection of a JWT")):
        if swift and r.get(key):
            t = r[key]
            lines.append(f"{name}: {t['rate']:.0f}/s = {ratio(t['rate'], swift['rate']):.1f}× the sign-in rate "
                         f"(goal ≥ 3×), p99 {t['p99']:.1f} ms (goal ≤ 10 ms)")
    if r.get("swift-open"):
        o = r["swift-open"]
        lines.append(f"open loop at {o.get('rate_asked') or 0:.0f}/s: p50 {o['p50']:.1f} ms, p99 {o['p99']:.1f} ms")
    return lines


def server_ms(row: dict):
    """Server CPU per ceremony (ms), or None."""
    server = row["cpu"].get("groups", {}).get("server")
    return server["cores"] * 1000 / row["rate"] if server and row["rate"] else None


def change(before: float, after: float) -> str:
    return f"{(after - before) / before * 100:+.1f} %" if before else "n/a"


def comparison(r: dict, baseline: str, concurrency: str) -> list[str]:
    """Baseline binary → this tree, for each row that ran on both (BENCH_BASELINE_BIN)."""
    lines = []
    for key, label in (("swift", f"{concurrency} connections"), ("swift-8", "8 connections")):
        before, after = r.get(key + BASELINE_SUFFIX), r.get(key)
        if not before or not after:
            continue
        text = (f"{label}: {before['rate']:.0f} → {after['rate']:.0f} ceremonies/s "
                f"({change(before['rate'], after['rate'])}), p50 {before['p50']:.1f} → {after['p50']:.1f} ms, "
                f"p99 {before['p99']:.1f} → {after['p99']:.1f} ms")
        cpu_before, cpu_after = server_ms(before), server_ms(after)
        if cpu_before is not None and cpu_after is not None:
            text += f", server CPU per ceremony {cpu_before:.2f} → {cpu_after:.2f} ms ({change(cpu_before, cpu_after)})"
        lines.append(text)
    if lines:
        lines.insert(0, f"Baseline {baseline} → this tree (same run, same settings, database reset before each row):")
    return lines


# Rows run on BENCH_BASELINE_BIN carry this suffix (swift-baseline, swift-8-baseline).
BASELINE_SUFFIX = "-baseline"

# Every row: its key (BENCH_ROWS, file names), its title ({c} = the load's concurrency), its reader.
ROWS = [
    ("swift-baseline", "(a-base) BASELINE {b}: Swift passkey-server (release), {c} connections", http_row),
    ("swift", "(a) Swift passkey-server (release){t}, {c} connections", http_row),
    ("swift-8-baseline", "(a8-base) BASELINE {b}: Swift, 8 connections", http_row),
    ("swift-8", "(a8) Swift{t}, 8 connections", http_row),
    ("swift-flood", "(a-flood) Swift + password sign-in flood", http_row),
    ("swift-open", "(a-open) Swift, open loop", http_row),
    ("token-mint", "(t-mint) Swift: POST /v1/sessions/current/tokens, {c} connections (requests/s)", http_row),
    ("introspect-opaque", "(t-opaque) Swift: POST /v1/introspect, session token, {c} connections (requests/s)", http_row),
    ("introspect-jwt", "(t-jwt) Swift: POST /v1/introspect, JWT, {c} connections (requests/s)", http_row),
    ("python", "(b) Python py_webauthn (uvicorn), {c} connections", http_row),
    ("go", "(b-go) Go duo-labs/webauthn + pgx (net/http), {c} connections", http_row),
    ("pgbench", "(c) PostgreSQL, pgbench, the Swift server's SQL", pgbench_row),
    ("pgbench-pool", "(c′) same, at the servers' pool size", pgbench_row),
    ("pgbench-naive", "(d) PostgreSQL, pgbench, the naive statement list", pgbench_row),
]
ROW_LOADERS = {key: loader for key, _, loader in ROWS}


def check(rows: str, out: str) -> int:
    """The smoke test's verdict (make test): every row asked for produced ceremonies and no error."""
    failures = []
    for key in rows.split(","):
        loader = ROW_LOADERS.get(key)
        r = loader(out, key) if loader else None
        if r is None:
            failures.append(f"{key}: no result")
        elif r["errors"] or not r["rate"] > 0:
            failures.append(f"{key}: {r['rate']:.0f}/s, errors {r['errors']} {r['error_note']}")
        elif key == "swift-flood" and not any(s.startswith(("401", "503")) for s in r["flood_statuses"]):
            failures.append(f"{key}: the flood got no password answer ({r['flood_statuses']})")
    for f in failures:
        print(f"bench smoke: {f}", file=sys.stderr)
    if not failures:
        print(f"bench smoke: every row ran without errors ({rows})")
    return 1 if failures else 0


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--check":
        return check(sys.argv[2], sys.argv[3])
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    env = dict(
        line.split("=", 1) for line in read(os.path.join(out, "environment.txt")).splitlines() if "=" in line
    )
    concurrency = re.search(r"concurrency=(\d+)", env.get("duration", ""))
    c = concurrency.group(1) if concurrency else "?"
    baseline = env.get("baseline", "")
    # With a baseline in the run, this tree's Swift rows name their commit too.
    this_tree = f", this tree {env.get('git', '?')}" if baseline else ""
    rows = [(title.format(c=c, b=baseline, t=this_tree), loader(out, key), key) for key, title, loader in ROWS]
    print(f"Passkey sign-in benchmark — {env.get('date', '?')}, nproc={env.get('nproc', '?')}, "
          f"{env.get('cpu', '')}")
    print(f"{env.get('duration', '')}; git {env.get('git', '?')}")
    if baseline:
        print(f"Baseline rows (BASELINE …) ran {env.get('baseline_bin', '?')}"
              f" ({env.get('baseline_revision') or 'revision unknown'}); its Migrations/ compared with this tree's: "
              f"{env.get('baseline_migrations', 'unknown')}")
    print()
    print("| row | ceremonies/s | p50 ms | p99 ms | errors | CPU server | CPU postgres | CPU load gen | CPU other | peak RSS (VmHWM) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    notes = []
    for title, r, key in rows:
        if r is None:
            continue
        cpu = r["cpu"]
        groups = cpu.get("groups", {})
        server = groups.get("server")
        postgres = groups.get("postgres")
        client = groups.get("pgbench") if r["client"] == "pgbench" else None
        if r["client"] == "pgbench":
            title = f"{title} — {r['clients']} clients"
            server_cpu = "–"
            gen = client["cores"] if client else None
            rss = "–"
        else:
            server_cpu = cores(server["cores"]) if server else "–"
            gen = cpu.get("loadgen_cores")
            if server and server["processes"] > 1:
                per = " + ".join(mib(p["vm_hwm_kb"]) for p in server["per_process"])
                rss = f"{mib(server['peak_rss_kb_sum'])} total ({server['processes']} processes: {per})"
            elif server:
                rss = mib(server["peak_rss_kb_max"])
            else:
                rss = "–"
        other = cpu.get("other_cores")
        print(f"| {title} | {r['rate']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['errors']} | {server_cpu} | "
              f"{cores(postgres['cores'] if postgres else None)} | {cores(gen)} | {cores(other)} | {rss} |")
        if r.get("rate_asked"):
            notes.append(f"{title}: {r['rate_asked']:.0f} arrivals/s asked (open loop; latency from each arrival's "
                         f"due time), {r['not_served']} never started")
        if r.get("flood_workers"):
            statuses = ", ".join(f"{k}×{v}" for k, v in sorted(r["flood_statuses"].items()))
            notes.append(f"{title}: {r['flood_workers']} flood workers, {r['flood_rate']:.0f} password answers/s "
                         f"in the window ({statuses})")
        if r["errors"]:
            notes.append(f"{title}: errors {r['error_note']}")
            for s in r.get("samples", [])[:3]:
                notes.append(f"    e.g. {s}")
        if r["rate"] > 0:
            per_c = []
            if server:
                per_c.append(f"server {server['cores'] * 1000 / r['rate']:.2f} ms")
            if postgres:
                per_c.append(f"postgres {postgres['cores'] * 1000 / r['rate']:.2f} ms")
            if client:
                per_c.append(f"pgbench {client['cores'] * 1000 / r['rate']:.2f} ms")
            elif gen is not None:
                per_c.append(f"load gen {gen * 1000 / r['rate']:.2f} ms")
            notes.append(f"{title}: CPU per ceremony: " + ", ".join(per_c) +
                         f"; machine busy {cores(cpu.get('machine_busy_cores'))} of {cpu.get('machine_cores')} cores "
                         f"(irq/softirq {cores(cpu.get('irq_softirq_cores'))}, steal {cores(cpu.get('steal_cores'))}); "
                         f"load average {cpu.get('load_average', '?').split(' ')[0]}")
        server_log = read(os.path.join(out, f"{key}-server.log")).splitlines()
        if server_log:
            notes.append(f"{title}: {len(server_log)} line(s) in {key}-server.log, e.g. {server_log[0][:200]}")
        sessions = read(os.path.join(out, f"{key}-sessions.txt")).strip()
        if sessions:
            notes.append(f"{title}: sessions in the database after the row (warm-up included): {sessions}")
    print()
    print("CPU columns are cores busy during the measured window (2.00 = both cores of a 2-core machine);")
    print("'other' is everything else running on the machine then (other users, builds): it skews the figures.")
    for n in notes:
        print(f"- {n}")
    ran = {key: r for _, r, key in rows if r is not None}
    before_after = comparison(ran, baseline, c)
    if before_after:
        print()
        print(before_after[0])
        for line in before_after[1:]:
            print(f"- {line}")
    goals = summary(ran)
    if goals:
        print()
        print("Against the performance goals (docs/benchmark.md):")
        for g in goals:
            print(f"- {g}")
    settings = read(os.path.join(out, "postgres-settings.txt")).splitlines()
    if settings:
        print(f"- PostgreSQL: {', '.join(settings)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
