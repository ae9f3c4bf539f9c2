#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Holds the campaign's tools to what docs/testing.md says of them:
campaign_sum.py's sums, --next's choice, --check and --write's splice, and
campaign.sh's ledger (started from the committed one, a row a run, a failed
run's log kept) and rotation (to the goal, then it stops), run against a fake
fuzz build (ends "N passed, N failed").

usage: test_campaign.py
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUM = os.path.join(HERE, "campaign_sum.py")
CAMPAIGN = os.path.join(HERE, "campaign.sh")
COMMITTED = os.path.join(HERE, "campaign-ledger.tsv")
results = []


def run(*args):
    p = subprocess.run([sys.executable, SUM, *args], capture_output=True, text=True)
    return p.returncode, p.stdout


def check(name, ok):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}")


def ledger(path, rows):
    with open(path, "w") as f:
        for name, secs, execs, rc in rows:
            f.write(f"2026-12-06T00:00:00Z\tabc1234\t{name}\t{secs}\t{execs}\t{rc}\n")


with tempfile.TemporaryDirectory() as tmp:
    led = os.path.join(tmp, "ledger.tsv")
    # fuzz_json: a parser, 2 runs, met; fuzz_wiv1: a whole decode, its last
    # run at 1,000 exec/s, 4e6 short (1.1 h); one failed run; a torn line.
    ledger(led, [("fuzz_json", 100, 60_000_000, 0), ("fuzz_json", 100, 50_000_000, 0),
                 ("fuzz_wiv1", 1000, 5_000_000, 0), ("fuzz_wiv1", 1000, 1_000_000, 1)])
    with open(led, "a") as f:
        f.write("2026-12-06T00:00:00Z\tabc1234\tfuzz_rans\n")
    rc, out = run(led, "--markdown")
    check("sums: runs, seconds, executions, met",
          rc == 0 and "| fuzz_json | parser | 2 | 200 | 110,000,000 | 550,000 | 500,000 | 1e+08 | yes | 0.0 | 0 |" in out)
    check("a whole decode's goal is 10^7, hours left at the last run's rate",
          "| fuzz_wiv1 | whole decode | 2 | 2000 | 6,000,000 | 3,000 | 1,000 | 1e+07 | no | 1.1 | 1 |" in out)
    check("totals, the torn line left out",
          "total executions: 116,000,000; failed runs: 1; core-hours to every goal "
          "at the last runs' rates: 1.1" in out and "fuzz_rans" not in out)

    rc, out = run(led, "--next", "fuzz_json", "fuzz_wiv1")
    check("--next: the unmet target", rc == 0 and out.strip() == "fuzz_wiv1")
    rc, out = run(led, "--next", "fuzz_wiv1", "fuzz_rans")
    check("--next: a target the ledger lacks first", out.strip() == "fuzz_rans")
    rc, out = run(led, "--next", "fuzz_json")
    check("--next: nothing once every goal is met", rc == 0 and out.strip() == "")

    _, table = run(led, "--markdown")
    before, after = "# Testing\n\nProse before.\n\n", "\n\n## Benchmarks\n\nProse after.\n"
    stale = table.replace("110,000,000", "99,000,000").replace("| fuzz_wiv1 |", "| fuzz_old |")
    doc = os.path.join(tmp, "testing.md")
    with open(doc, "w") as f:
        f.write(before + stale.rstrip("\n") + after)
    rc, _ = run(led, "--check", doc)
    check("--check: a stale table fails", rc == 1)
    rc, _ = run(led, "--write", doc)
    text = open(doc).read()
    check("--write: exits 0", rc == 0)
    check("--write: the table is the ledger's", run(led, "--check", doc)[0] == 0)
    check("--write: the prose around it untouched",
          text.startswith(before) and text.endswith(after) and "fuzz_old" not in text)
    rc, _ = run(led, "--write", doc)
    check("--write: a second write changes nothing", rc == 0 and open(doc).read() == text)

    bare = os.path.join(tmp, "bare.md")
    with open(bare, "w") as f:
        f.write(before + after)
    rc, out = run(led, "--write", bare)
    check("--write: no table, exit 1, the file as it was",
          rc == 1 and "no campaign table" in out and open(bare).read() == before + after)


def fake_target(build, name, execs, rc):
    """A stand-in fuzz program: prints libFuzzer's final count, exits rc."""
    path = os.path.join(build, "tests", "fuzz", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\necho 'stat::number_of_executed_units: {execs}'\nexit {rc}\n")
    os.chmod(path, 0o755)


def rows_of(path):
    return [l.rstrip("\n").split("\t") for l in open(path)]


with tempfile.TemporaryDirectory() as tmp:
    build, work = os.path.join(tmp, "build"), os.path.join(tmp, "work")
    # Names no committed row has: a parser at 6e7 a run, and one that fails.
    fake_target(build, "fuzz_zz_parser", 60_000_000, 0)
    fake_target(build, "fuzz_zz_broken", 7, 1)
    committed = rows_of(COMMITTED)
    p = subprocess.run(["bash", CAMPAIGN, build, work, "1", "fuzz_zz_parser", "fuzz_zz_broken"],
                       capture_output=True, text=True)
    rows = rows_of(os.path.join(work, "ledger.tsv"))
    check("campaign.sh: a new work folder's ledger starts as the committed one",
          p.returncode == 0 and rows[:len(committed)] == committed)
    new = rows[len(committed):]
    check("campaign.sh: one row a run, its seconds, executions and exit status",
          [r[2:] for r in new] == [["fuzz_zz_parser", "1", "60000000", "0"],
                                   ["fuzz_zz_broken", "1", "7", "1"]])
    logs = os.listdir(os.path.join(work, "logs"))
    check("campaign.sh: a failed run's log kept, a clean run's not",
          len(logs) == 1 and logs[0].startswith("fuzz_zz_broken."))
    # The rotation gives fuzz_zz_parser turns until its 10^8 is passed (one
    # more: 1.2e8), then stops; the ledger it found is kept, not restarted.
    p = subprocess.run(["bash", CAMPAIGN, build, work, "1", "--rotate", "fuzz_zz_parser"],
                       capture_output=True, text=True, timeout=60)
    rows2 = rows_of(os.path.join(work, "ledger.tsv"))
    check("campaign.sh --rotate: turns until the goal, then stops",
          p.returncode == 0 and rows2[:len(rows)] == rows and
          [r[2] for r in rows2[len(rows):]] == ["fuzz_zz_parser"])

failed = results.count(False)
print(f"{len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
