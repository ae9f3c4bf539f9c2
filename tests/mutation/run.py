#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Mutation testing: plants each small bug of tests/mutation/mutants.txt in
a copy of the tree, rebuilds it, runs the checks and reports which caught
the bug (docs/testing.md, "Planted bugs").

A check catches a mutant when it exits non-zero (a failed check, a crash or
a timeout). The unmutated copy runs the same checks first: a check that
fails without a bug planted says nothing about one.

  run.py                  every mutant, every check: the whole table
  run.py --only A,B       those mutants
  run.py --ci             the mutants marked `ci:`, each against the checks
                          that line names; each must be caught (CI's step)
  run.py --list           check the list (each edit applies once), run nothing
  run.py --write FILE     also put the table between FILE's markers
  run.py --from-log A,B   the table from earlier runs' logs (B's rows over A's)
  run.py --from-log L --check FILE   FILE's table is L's (CI's step mutants-table)

Checks: `unit` (wai_unit_tests), `tool:NAME` (tests/tool/NAME.sh against
the copy's `wai`), `python` (python/tests/run.py), `gst`
(tests/gst/test_gst.sh) and `gst-hostile` (tests/gst/hostile.c). Output ends "N passed, N failed": a mutant caught
by an end-to-end check (anything but `unit`) passes.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = os.path.join(ROOT, "tests", "mutation", "mutants.txt")
BEGIN = "<!-- mutants: begin (tests/mutation/run.py --write) -->"
END = "<!-- mutants: end -->"
CHECK_TIMEOUT = 600


class Mutant:
    def __init__(self, ident):
        self.id = ident
        self.what = ""
        self.group = ""
        self.ci = []          # checks CI runs it against
        self.checks = []      # checks beyond the default ones (web-gpu)
        self.edits = []       # (file, old, new)


def unescape(text):
    return text.replace("\\n", "\n").replace("\\t", "\t")


def read_list(path=LIST):
    """The list's grammar: `== ID` opens a mutant; `what:`, `group:`,
    `ci:` (checks, by name) and `file:` set its fields; `- OLD` and `+ NEW`
    lines pair up as one edit in the last `file:` (`\\n` is a newline)."""
    mutants, m, file, old = [], None, None, None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{path}:{n}"
        if line.startswith("== "):
            m = Mutant(line[3:].strip())
            mutants.append(m)
            file = old = None
            continue
        if m is None:
            sys.exit(f"{where}: a field before the first '== ID'")
        if line.startswith("- "):
            if file is None or old is not None:
                sys.exit(f"{where}: '- ' needs a file: and follows a '+ '")
            old = unescape(line[2:])
        elif line.startswith("+ ") or line == "+":
            if old is None:
                sys.exit(f"{where}: '+ ' without its '- '")
            m.edits.append((file, old, unescape(line[2:])))
            old = None
        else:
            key, _, value = line.partition(":")
            value = value.strip()
            if key == "what":
                m.what = value
            elif key == "group":
                m.group = value
            elif key == "file":
                file = value
            elif key == "ci":
                m.ci = value.split()
            elif key == "checks":
                m.checks = value.split()
            else:
                sys.exit(f"{where}: unknown field {key!r}")
    ids = [m.id for m in mutants]
    if len(set(ids)) != len(ids):
        sys.exit(f"{path}: an ID twice")
    for m in mutants:
        if not m.edits or not m.what or not m.group:
            sys.exit(f"{path}: {m.id} needs what:, group: and an edit")
    return mutants


def validate(mutants, tree):
    """Each edit's OLD occurs exactly once in its file: a list that drifted
    from the code says so instead of planting nothing."""
    bad = []
    for m in mutants:
        for file, old, _ in m.edits:
            p = os.path.join(tree, file)
            text = open(p, encoding="utf-8").read() if os.path.exists(p) else ""
            if text.count(old) != 1:
                bad.append(f"{m.id}: {file}: the text to replace occurs {text.count(old)} times")
    return bad


def copy_tree(dest):
    """The tracked and untracked-but-not-ignored files, as they are now."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], check=True, capture_output=True).stdout
    for rel in files.decode().split("\0"):
        if not rel:
            continue
        src, dst = os.path.join(ROOT, rel), os.path.join(dest, rel)
        if not os.path.lexists(src) or os.path.isdir(src) and not os.path.islink(src):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        try:
            shutil.copy2(src, dst, follow_symlinks=False)
        except FileNotFoundError:
            continue  # an untracked file another step removed meanwhile (CI's queue)


class Tree:
    def __init__(self, work, jobs):
        self.src = os.path.join(work, "tree")
        self.build = os.path.join(work, "build")
        self.jobs = jobs
        self.log = open(os.path.join(work, "build.log"), "w")

    def configure(self):
        subprocess.run(["cmake", "-S", self.src, "-B", self.build, "-DCMAKE_BUILD_TYPE=Release",
                        "-DWAI_BUILD_BENCH=OFF", "-DWAI_WERROR=OFF"],
                       check=True, stdout=self.log, stderr=subprocess.STDOUT)

    def make(self, targets):
        args = ["cmake", "--build", self.build, "-j", str(self.jobs)]
        for t in targets:
            args += ["--target", t]
        return subprocess.run(args, stdout=self.log, stderr=subprocess.STDOUT).returncode == 0

    def make_wasm(self):
        """The page's module (web-gpu), configured the first time."""
        wasm = os.path.join(os.path.dirname(self.build), "wasm32")
        if not os.path.exists(os.path.join(wasm, "CMakeCache.txt")):
            sysroot = "/usr"
            r = subprocess.run(["cmake", "-S", self.src, "-B", wasm, "-DCMAKE_BUILD_TYPE=Release",
                                "-DCMAKE_TOOLCHAIN_FILE=" + os.path.join(
                                    self.src, "cmake", "toolchains", "wasm32-wasi.cmake"),
                                "-DWASI_SYSROOT=" + sysroot, "-DWAI_BUILD_BENCH=OFF",
                                "-DWAI_WERROR=OFF"], stdout=self.log, stderr=subprocess.STDOUT)
            if r.returncode:
                return False
        return subprocess.run(["cmake", "--build", wasm, "-j", str(self.jobs), "--target",
                               "wai_web"], stdout=self.log,
                              stderr=subprocess.STDOUT).returncode == 0


def targets_for(checks):
    t = {"wai_cli"}
    for c in checks:
        if c == "unit":
            t.add("wai_unit_tests")
        elif c == "python":
            t.add("wai_python")
        elif c == "gst":
            t.add("gstwai")
        elif c == "gst-hostile":
            t.add("wai_gst_hostile")
        elif c == "tool:test_probe":
            t.add("wai_probe_plan")
        elif c == "tool:test_corpus":
            t.add("wai_gen_corpus")
    return sorted(t)


def all_checks(tree):
    names = sorted(f[:-3] for f in os.listdir(os.path.join(tree, "tests", "tool"))
                   if f.endswith(".sh"))
    return ["unit"] + [f"tool:{n}" for n in names] + ["python", "gst", "gst-hostile"]


def command(check, tree, build):
    tool = os.path.join(build, "tools", "wai", "wai")
    if check == "unit":
        return [os.path.join(build, "tests", "wai_unit_tests"), "--data",
                os.path.join(tree, "tests")], {}
    if check.startswith("tool:"):
        return ["bash", os.path.join(tree, "tests", "tool", check[5:] + ".sh"), tool], {}
    if check == "python":
        return ["/usr/bin/python3", os.path.join(tree, "python", "tests", "run.py")], {
            "WAI_LIBRARY": os.path.join(build, "libwai_python.so"), "WAI_TOOL": tool}
    if check == "gst":
        return ["bash", os.path.join(tree, "tests", "gst", "test_gst.sh"), build], {}
    if check == "gst-hostile":   # tests/gst/hostile.c, the elements under mutated input
        return [os.path.join(build, "gst", "wai_gst_hostile"), tree, "300"], {}
    if check == "web-gpu":   # the page's gpu/wgsl/integer path on SwiftShader
        return ["node", os.path.join(tree, "web", "test", "gpu_browser.mjs"),
                os.path.join(os.path.dirname(build), "wasm32", "web", "wai.wasm"), tool,
                os.path.join(ROOT, "build", "npm", "node_modules")], {}
    sys.exit(f"unknown check {check!r}")


CLOSING = re.compile(r"^(\d+) passed, (\d+) failed", re.M)


def run_check(check, tree, build):
    """(caught, how): caught when the check exits non-zero or times out."""
    argv, extra = command(check, tree, build)
    env = dict(os.environ, **extra)
    t0 = time.time()
    try:
        p = subprocess.run(argv, cwd=tree, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=CHECK_TIMEOUT)
    except subprocess.TimeoutExpired:
        return True, f"timed out after {CHECK_TIMEOUT}s"
    out = p.stdout.decode(errors="replace")
    counts = CLOSING.findall(out)
    failed = int(counts[-1][1]) if counts else None
    secs = time.time() - t0
    if p.returncode == 0:
        return False, f"passed ({secs:.0f}s)"
    if p.returncode < 0:
        return True, f"killed by signal {-p.returncode}"
    # The first failures it names, to see what caught the bug.
    first = [l[5:120] for l in out.splitlines() if l.startswith("FAIL ")][:3]
    why = f"{failed} failed" if failed else f"exit {p.returncode}"
    return True, why + (": " + "; ".join(first) if first else "")


def run_checks(checks, tree, build, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {c: pool.submit(run_check, c, tree, build) for c in checks}
        return {c: f.result() for c, f in futures.items()}


def apply(tree, m):
    """Plants m's edits; returns what undoes them (each file's old text)."""
    saved = {}
    for file, old, new in m.edits:
        p = os.path.join(tree, file)
        text = open(p, encoding="utf-8").read()
        saved.setdefault(p, text)
        assert text.count(old) == 1, (m.id, file)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
    return saved


def restore(saved):
    for p, text in saved.items():
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)


def is_e2e(check):
    return check != "unit"


def table(results, mutants):
    """Markdown: one row a mutant, the end-to-end checks that caught it and
    whether the unit binary did."""
    rows = ["| mutant | group | the planted bug | caught end to end by | unit tests |",
            "|---|---|---|---|:-:|"]
    for m in mutants:
        ident, r = m.id, results.get(m.id, {"status": "not run"})
        if r.get("status") != "ran":
            rows.append(f"| `{ident}` | {m.group} | {m.what} | **{r.get('status')}** | |")
            continue
        e2e = [c for c, (caught, _) in r["checks"].items() if caught and is_e2e(c)]
        unit = r["checks"].get("unit")
        names = ", ".join(f"`{c}`" for c in e2e) if e2e else "**none**"
        rows.append(f"| `{ident}` | {m.group} | {m.what} | {names} | "
                    f"{'' if unit is None else 'yes' if unit[0] else 'no'} |")
    caught = sum(1 for m in mutants if results.get(m.id, {}).get("status") == "ran" and any(
        c and is_e2e(k) for k, (c, _) in results[m.id]["checks"].items()))
    unit = sum(1 for m in mutants if results.get(m.id, {}).get("checks", {}).get("unit", [0])[0])
    rows.append("")
    rows.append(f"{caught} of {len(mutants)} planted bugs caught by an end-to-end check; "
                f"{unit} by the unit binary.")
    return "\n".join(rows)


def write_table(path, text):
    doc = open(path, encoding="utf-8").read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{path}: no {BEGIN} ... {END} markers")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="mutant IDs, comma-separated")
    ap.add_argument("--ci", action="store_true", help="the `ci:` mutants against their checks")
    ap.add_argument("--list", action="store_true", help="check the list and stop")
    ap.add_argument("--checks", help="checks to run (default: all), comma-separated")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mutation"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--write", help="a file whose table markers take the table")
    ap.add_argument("--from-log", help="JSON logs of earlier runs, comma-separated: their table")
    ap.add_argument("--check", help="with --from-log: FILE holds that table (CI)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="with --ci: skip the unmutated copy's checks (CI runs the same "
                         "checks on the same tree in its own steps)")
    a = ap.parse_args()
    if a.no_baseline and not a.ci:
        ap.error("--no-baseline goes with --ci")

    mutants = read_list()
    if a.from_log:
        # Several logs: a later one's row replaces an earlier one's.
        results = {}
        for path in a.from_log.split(","):
            results.update(json.load(open(path)))
        text = table(results, mutants)
        if a.check:
            doc = open(a.check, encoding="utf-8").read()
            ok = BEGIN + "\n" + text + "\n" + END in doc
            print(("" if ok else f"FAIL {a.check}: its table is not {a.from_log}'s "
                   f"(run.py --from-log {a.from_log} --write {a.check})\n") +
                  f"{int(ok)} passed, {int(not ok)} failed")
            return 0 if ok else 1
        print(text)
        if a.write:
            write_table(a.write, text)
        return 0
    bad = validate(mutants, ROOT)
    if bad or a.list:
        for b in bad:
            print("FAIL", b)
        print(f"{len(mutants) - len({b.split(':')[0] for b in bad})} passed, "
              f"{len({b.split(':')[0] for b in bad})} failed")
        return 1 if bad else 0
    if a.only:
        want = a.only.split(",")
        missing = [w for w in want if w not in {m.id for m in mutants}]
        if missing:
            sys.exit(f"no such mutant: {', '.join(missing)}")
        mutants = [m for m in mutants if m.id in want]
    if a.ci:
        mutants = [m for m in mutants if m.ci]

    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    tree = Tree(a.work, a.jobs)
    copy_tree(tree.src)
    tree.configure()
    everything = all_checks(tree.src)
    if a.checks:
        everything = a.checks.split(",")
    plan = {m.id: (m.ci if a.ci else everything + m.checks) for m in mutants}
    needed = sorted({c for cs in plan.values() for c in cs})
    targets = targets_for(needed) if a.ci else []  # the whole build for the table
    wasm = "web-gpu" in needed
    if not tree.make(targets) or wasm and not tree.make_wasm():
        print(f"FAIL the unmutated copy does not build: {tree.log.name}")
        print("0 passed, 1 failed")
        return 1
    # The unmutated copy passes every check a mutant is held to. CI's own
    # steps run those checks on the same tree (its summary fails when one
    # fails there), so CI skips them here.
    if a.no_baseline:
        print(f"baseline: not run here (--no-baseline): CI's steps run the {len(needed)} "
              f"checks on the same tree", flush=True)
    else:
        base = run_checks(needed, tree.src, tree.build, a.jobs)
        broken = [c for c, (caught, _) in base.items() if caught]
        for c in broken:
            print(f"FAIL {c} fails with no bug planted: {base[c][1]}")
        if broken:
            print(f"0 passed, {len(broken)} failed")
            return 1
        print(f"baseline: {len(needed)} checks pass on the unmutated copy", flush=True)

    results, passed, failed = {}, 0, 0
    log_path = os.path.join(a.work, "results.json")
    for m in mutants:
        t0 = time.time()
        saved = apply(tree.src, m)
        try:
            built = tree.make(targets) and (
                "web-gpu" not in plan[m.id] or tree.make_wasm())
            if built:
                checks = run_checks(plan[m.id], tree.src, tree.build, a.jobs)
                results[m.id] = {"status": "ran", "checks": checks}
            else:
                results[m.id] = {"status": "does not build"}
        finally:
            restore(saved)
        r = results[m.id]
        e2e = [c for c, (caught, _) in r.get("checks", {}).items() if caught and is_e2e(c)]
        unit = r.get("checks", {}).get("unit")
        if e2e:
            passed += 1
            print(f"ok   {m.id}: caught by {' '.join(e2e)}"
                  f"{'' if unit is None else ', unit: ' + ('yes' if unit[0] else 'no')}"
                  f" ({time.time() - t0:.0f}s)", flush=True)
        else:
            failed += 1
            print(f"FAIL {m.id}: {r['status']}; no end-to-end check caught it"
                  f"{'' if unit is None else ', unit: ' + ('yes' if unit[0] else 'no')}",
                  flush=True)
        with open(log_path, "w") as f:
            json.dump(results, f, indent=1)
    if a.write:
        write_table(a.write, table(results, read_list()))
    print(f"log: {log_path}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
