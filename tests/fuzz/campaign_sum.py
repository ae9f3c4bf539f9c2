#!/usr/bin/env python3
"""Sum a fuzz campaign's ledger (tests/fuzz/campaign.sh) per target.

campaign_sum.py LEDGER [--markdown]
Prints, per target: its kind (parser or whole decode, from WHOLE_DECODE
below), the runs, seconds and executions summed, the mean rate, the goal
(10^8 for a parser, 10^7 for a whole decode) and the runs that did not end
cleanly.

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
            r = rows.setdefault(name, [0, 0, 0, 0])
            r[0] += 1
            r[1] += int(secs)
            r[2] += int(execs)
            r[3] += rc != "0"
    if "--next" in argv:
        names = argv[argv.index("--next") + 1:]
        share = lambda n: rows.get(n, [0, 0, 0, 0])[2] / GOAL[kind(n)]
        todo = [n for n in names if share(n) < 1]
        print(min(todo, key=share) if todo else "")
        return 0
    md = "--markdown" in argv
    if md:
        print("| target | kind | runs | seconds | executions | exec/s | goal | met | failed runs |")
        print("|---|---|---:|---:|---:|---:|---:|---|---:|")
    for name in sorted(rows, key=lambda n: (kind(n), n)):
        runs, secs, execs, bad = rows[name]
        k = kind(name)
        rate = execs / secs if secs else 0
        met = "yes" if execs >= GOAL[k] else "no"
        if md:
            print(f"| {name} | {k} | {runs} | {secs} | {execs:,} | {rate:,.0f} | "
                  f"{GOAL[k]:.0e} | {met} | {bad} |")
        else:
            print(f"{name:22} {k:12} runs {runs:4} {secs:8}s {execs:14,} "
                  f"{rate:9,.0f}/s goal {GOAL[k]:.0e} {met:3} failed {bad}")
    total = sum(r[2] for r in rows.values())
    print(f"\ntotal executions: {total:,}; failed runs: {sum(r[3] for r in rows.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
