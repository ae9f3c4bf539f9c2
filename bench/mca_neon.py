#!/usr/bin/python3
"""Estimated cycles per multiply-accumulate of the NEON level's inner loops
against the portable C's, both compiled for aarch64 by Debian's clang (the
compiler CI cross-builds with), on llvm-mca's Cortex-A76 and Neoverse-N1
models. No ARM machine is needed, and none is timed: these are the static
scheduler's estimates of a loop's steady state (L1-resident data, no
branch mispredictions), a ratio between two loops, not a speed.

For each kernel entry (ops/cores.h), the innermost loop holding its
multiplies is cut from the function's assembly (clang's "Inner Loop Header"
label to the branch back to it), llvm-mca runs 100 iterations of it, and
its products per iteration are counted from the instructions (a vector
smlal/smull/mla/mul of .4s lanes is 4, of .2d 2; a scalar mul/madd 1).

  /usr/bin/python3 bench/mca_neon.py BUILD_DIR   (any configured build: its
                                                 include/ has wai_version.h)
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CPUS = ["cortex-a76", "neoverse-n1"]
# (kernel entry, the function in ops/cores.c, the function in ops/arm/neon.c)
KERNELS = [("dot", "dot", "dot"), ("tap_i32", "tap_i32", "tap_i32"),
           ("tap_i64x32", "tap_i64", "tap_i64x32")]
LANES = {"4s": 4, "2d": 2, "8h": 8, "2s": 2, "4h": 4}
MUL = re.compile(r"^\s*(smlal2?|smull2?|umlal2?|umull2?|mla|mul|madd|msub|smaddl|smull|sdot)\s+(\S+)")


def compile_asm(src, build):
    out = Path(tempfile.mkdtemp()) / "k.s"
    subprocess.run(["clang", "--target=aarch64-linux-gnu", "-O2", "-std=c11", "-S",
                    f"-I{REPO}/include", f"-I{build}/include", f"-I{REPO}/src",
                    "-o", str(out), str(REPO / src)], check=True)
    return out.read_text().splitlines()


def function(lines, name):
    start = next(i for i, l in enumerate(lines) if l.startswith(f"{name}:"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(".Lfunc_end"))
    return lines[start:end]


def products(line):
    m = MUL.match(line)
    if not m:
        return 0
    lanes = re.search(r"v\d+\.(\d+[a-z])", m.group(2))
    return LANES.get(lanes.group(1), 1) if lanes else 1


def inner_loops(body):
    """Each innermost loop: its label's lines up to the branch back to it."""
    loops = []
    for i, l in enumerate(body):
        m = re.match(r"^(\.LBB\d+_\d+):", l)
        if not m or not any("Inner Loop Header" in body[k] for k in range(i, min(i + 4, len(body)))):
            continue
        for k in range(i + 1, len(body)):
            if re.search(rf"\bb(\.\w+)?\s+{re.escape(m.group(1))}$", body[k].strip()) or \
               re.search(rf"\b(cbn?z|tbn?z)\s.*{re.escape(m.group(1))}$", body[k].strip()):
                loops.append(body[i + 1:k + 1])
                break
    return loops


def hottest(body):
    loops = [(sum(products(l) for l in lp), lp) for lp in inner_loops(body)]
    loops = [x for x in loops if x[0] > 0]
    if not loops:
        raise SystemExit("no inner loop with multiplies")
    return max(loops, key=lambda x: x[0])


def cycles(loop, cpu):
    code = "\n".join(l for l in loop if l.strip() and not l.strip().startswith("//")
                     and not l.strip().startswith(".")) + "\n"
    r = subprocess.run(["llvm-mca", "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=100"],
                       input=code, capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Total Cycles:\s+(\d+)", r).group(1)) / 100


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    build = Path(sys.argv[1]).resolve()
    c_asm = compile_asm("src/ops/cores.c", build)
    neon_asm = compile_asm("src/ops/arm/neon.c", build)
    print("| kernel | CPU model | C: cycles/MAC | NEON: cycles/MAC | C / NEON |")
    print("|---|---|---|---|---|")
    worst = None
    for name, cfn, nfn in KERNELS:
        cp, cl = hottest(function(c_asm, cfn))
        np_, nl = hottest(function(neon_asm, nfn))
        for cpu in CPUS:
            c = cycles(cl, cpu) / cp
            n = cycles(nl, cpu) / np_
            worst = min(worst or c / n, c / n)
            print(f"| {name} | {cpu} | {c:.3f} ({cp} a loop) | {n:.3f} ({np_} a loop) | {c / n:.2f}x |")
    print(f"\nsmallest gain: {worst:.2f}x (clang {subprocess.run(['clang', '--version'], capture_output=True, text=True).stdout.split()[3]})")


if __name__ == "__main__":
    main()
