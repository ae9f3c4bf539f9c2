#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
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

The per-sample entries (the RGB8 step, a motion segment's reconstruction
of each kind) have no multiply-accumulate to count: each is compiled in a
small wrapper with its kind fixed (and, for the reconstruction, q < 128,
the i16 lanes every clip below q 128 runs), its hottest loop the one
storing the most output bytes an iteration (strb 1, str q 16, st1 .16b 16,
st3 .16b 48), and the estimate is cycles per output sample.

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
                    "-o", str(out), str(src)], check=True)
    return out.read_text().splitlines()


# The per-sample entries: a wrapper a kind, around the C twin (cores_c.h)
# and around the neon.c function (its file included, so the static function
# inlines with the kind fixed).
SAMPLE_KINDS = [("rgb8", "rgb8", None), ("recon whole", "recon", 0), ("recon half x", "recon", 1),
                ("recon half y", "recon", 2), ("recon half xy", "recon", 3)]


def wrappers(twin):
    """C source of one function a per-sample kernel kind, calling the C
    twins (twin True) or neon.c's loops."""
    head = '#include "ops/cores_c.h"\n' if twin else '#include "ops/arm/neon.c"\n'
    rgb8 = "wai_rgb8_c" if twin else "rgb8"
    recon = "wai_recon_c" if twin else "recon"
    out = [head]
    for i, (_, fn, kind) in enumerate(SAMPLE_KINDS):
        if fn == "rgb8":
            out.append(f"void k{i}(uint8_t *o, const int64_t *p, size_t hw, size_t n) "
                       f"{{ {rgb8}(o, p, hw, 0, n, 16); }}\n")
        else:
            out.append(f"void k{i}(uint8_t *o, const uint8_t *a, const uint8_t *b, const int16_t *r, "
                       f"size_t n, int32_t q) {{ if (q < 1 || q >= 128) __builtin_unreachable(); "
                       f"{recon}(o, a, b, {kind}u, r, n, q); }}\n")
    src = Path(tempfile.mkdtemp()) / ("twin.c" if twin else "neon.c")
    src.write_text("".join(out))
    return src


STORE = [(re.compile(r"^\s*st3\s+\{.*\.16b"), 48), (re.compile(r"^\s*st1\s+\{v\d+\.16b\}"), 16),
         (re.compile(r"^\s*stp\s+q"), 32), (re.compile(r"^\s*str\s+q"), 16),
         (re.compile(r"^\s*stp\s+d"), 16), (re.compile(r"^\s*str\s+d"), 8),
         (re.compile(r"^\s*strb\s"), 1)]


def stored(line):
    return next((b for pat, b in STORE if pat.match(line)), 0)


def busiest(asm, name):
    """The inner loop storing the most bytes an iteration, in the function
    or, where the wrapper only tail-calls the kernel, in the kernel."""
    body = function(asm, name)
    loops = [(sum(stored(l) for l in lp), lp) for lp in loop_blocks(body)]
    call = next((m.group(1) for l in body for m in [re.match(r"^\s*bl?\s+(\w+)$", l)] if m), None)
    if not any(b for b, _ in loops) and call:
        return busiest(asm, call)
    loops = [x for x in loops if x[0] > 0]
    if not loops:
        raise SystemExit("no inner loop with stores")
    return max(loops, key=lambda x: x[0])


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


def loop_blocks(body):
    """Each innermost loop as all its blocks, each once, in layout order:
    the header (clang's "Inner Loop Header") and every block clang marks
    "in Loop: Header=" it, wherever the layout put them (a rotated loop's
    body sits before its header, a rare path after it)."""
    blocks, cur = [], None
    for l in body:
        lab = re.match(r"^(\.LBB(\d+_\d+)|// %bb\.\d+):", l)
        if lab:
            head = re.search(r"Inner Loop Header: Depth=\d+", l)
            member = re.search(r"in Loop: Header=BB(\d+_\d+)", l)
            key = lab.group(2) if head else member.group(1) if member else None
            cur = [key, []]
            blocks.append(cur)
        elif cur is not None:
            cur[1].append(l)
    heads = {k for k, _ in blocks if k is not None}
    return [[l for k, ls in blocks if k == h for l in ls] for h in sorted(heads)]


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
    c_asm = compile_asm(REPO / "src/ops/cores.c", build)
    neon_asm = compile_asm(REPO / "src/ops/arm/neon.c", build)
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
    print(f"\nsmallest gain: {worst:.2f}x")
    print("\n| kernel | CPU model | C: cycles/sample | NEON: cycles/sample | C / NEON |")
    print("|---|---|---|---|---|")
    c_asm, neon_asm = compile_asm(wrappers(True), build), compile_asm(wrappers(False), build)
    for i, (name, _, _) in enumerate(SAMPLE_KINDS):
        cb, cl = busiest(c_asm, f"k{i}")
        nb, nl = busiest(neon_asm, f"k{i}")
        for cpu in CPUS:
            c = cycles(cl, cpu) / cb
            n = cycles(nl, cpu) / nb
            print(f"| {name} | {cpu} | {c:.3f} ({cb} a loop) | {n:.3f} ({nb} a loop) | {c / n:.2f}x |")
    print(f"\n(clang {subprocess.run(['clang', '--version'], capture_output=True, text=True).stdout.split()[3]})")


if __name__ == "__main__":
    main()
