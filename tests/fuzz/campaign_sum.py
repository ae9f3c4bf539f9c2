#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Sum a fuzz campaign's ledger (tests/fuzz/campaign.sh) per target.

campaign_sum.py LEDGER [--markdown]
Prints, per target: its kind (parser or whole decode, from WHOLE_DECODE
below), the runs, seconds and executions summed, the mean rate, the rate of
its last run (the harness and library as they are now: a mean over runs
before a target was made faster says little of what is left), the goal
(10^8 for a parser, 10^7 for a whole decode), the core-hours still needed
at the last run's rate, and the runs that did not end cleanly.

campaign_sum.py LEDGER --check DOC
Exits 1 unless DOC (docs/testing.md) holds LEDGER's --markdown table as it
is printed: the figures in the docs are the committed ledger's.

campaign_sum.py LEDGER --write DOC
Rewrites DOC's table (from its header row through the "total executions:"
line) as LEDGER's --markdown table, the rest of DOC untouched; exits 1 and
leaves DOC as it was where DOC holds no such table.

campaign_sum.py LEDGER --next TARGET...
Prints the one of TARGET... furthest from its goal (the smallest share of
it done; a target the ledger lacks first): campaign.sh's rotation.
"""
import sys

# A whole-decode target runs a decode to its output (entropy, networks,
# reconstruction) for each input; the rest parse, check or write one input
# (fuzz_rans decodes a stream against a table: the entropy layer alone).
WHOLE_DECODE = {
    "fuzz_wiv1", "fuzz_wif1", "fuzz_int_synth", "fuzz_decode_neural",
    "fuzz_set_neural", "fuzz_b18f", "fuzz_bmshj_tables", "fuzz_bmshj_program",
    "fuzz_split_join", "fuzz_receipt_seal",
}
GOAL = {"parser": 10**8, "whole decode": 10**7}


def kind(name):
    return "whole decode" if name in WHOLE_DECODE else "parser"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = {}
    with open(argv[1]) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 6:
                continue
            _, _, name, secs, execs, rc = parts
            r = rows.setdefault(name, [0, 0, 0, 0, 0])
            r[0] += 1
            r[1] += int(secs)
            r[2] += int(execs)
            r[3] += rc != "0"
            r[4] = int(execs) / int(secs) if int(secs) else 0
    if "--next" in argv:
        names = argv[argv.index("--next") + 1:]
        share = lambda n: rows.get(n, [0, 0, 0, 0, 0])[2] / GOAL[kind(n)]
        todo = [n for n in names if share(n) < 1]
        print(min(todo, key=share) if todo else "")
        return 0
    if "--check" in argv:
        doc = open(argv[argv.index("--check") + 1]).read()
        table = "\n".join(lines(rows, True))
        if table in doc:
            print("1 passed, 0 failed")
            return 0
        print("the ledger's table is not in the document; write it there:\n" + table)
        print("0 passed, 1 failed")
        return 1
    if "--write" in argv:
        return write(argv[argv.index("--write") + 1], lines(rows, True))
    print("\n".join(lines(rows, "--markdown" in argv)))
    return 0


def write(path, table):
    """Splices table over the one in path: header row through the total line."""
    doc = open(path).read().split("\n")
    head = table[0]
    start = next((i for i, l in enumerate(doc) if l == head), None)
    end = None if start is None else next(
        (i for i in range(start, len(doc)) if doc[i].startswith("total executions:")), None)
    if end is None:
        print(f"{path}: no campaign table (a header row and a \"total executions:\" line)")
        return 1
    new = doc[:start] + "\n".join(table).split("\n") + doc[end + 1:]
    with open(path, "w") as f:
        f.write("\n".join(new))
    print(f"{path}: table written ({len(table) - 3} targets)")
    return 0


def lines(rows, md):
    out = []
    if md:
        out.append("| target | kind | runs | seconds | executions | exec/s | last run exec/s "
                   "| goal | met | core-hours to goal | failed runs |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    left_h = 0.0
    for name in sorted(rows, key=lambda n: (kind(n), n)):
        runs, secs, execs, bad, last = rows[name]
        k = kind(name)
        rate = execs / secs if secs else 0
        met = "yes" if execs >= GOAL[k] else "no"
        left = 0.0 if execs >= GOAL[k] else (GOAL[k] - execs) / last / 3600 if last else float("inf")
        left_h += left
        if md:
            out.append(f"| {name} | {k} | {runs} | {secs} | {execs:,} | {rate:,.0f} | {last:,.0f} | "
                       f"{GOAL[k]:.0e} | {met} | {left:.1f} | {bad} |")
        else:
            out.append(f"{name:22} {k:12} runs {runs:4} {secs:8}s {execs:14,} "
                       f"{rate:9,.0f}/s last {last:9,.0f}/s goal {GOAL[k]:.0e} {met:3} "
                       f"{left:6.1f} h left failed {bad}")
    total = sum(r[2] for r in rows.values())
    out.append(f"\ntotal executions: {total:,}; failed runs: {sum(r[3] for r in rows.values())}; "
               f"core-hours to every goal at the last runs' rates: {left_h:.1f}")
    return out

if __name__ == "__main__":
    sys.exit(main(sys.argv))
