#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes src/ops/x86/isqrt_seed.h: the seeds of the vector integer square
root (docs/integer-operators.md, "The root from a seed").

For m in [2^30, 2^32) and i = m >> 22 (in [256, 1024)), entry i - 256 holds
T_i = isqrt(i * 2^22) in its low 16 bits and V_i = floor(2^24 / (2 T_i +
D_i + 1)) above them, D_i the most that isqrt(m) exceeds T_i by within
bucket i. Usage: isqrt_seed.py [--check FILE] (exit 1 when FILE differs).
"""
import math
import sys

LO, HI, SHIFT, K = 256, 1024, 22, 24


def entries():
    out = []
    for i in range(LO, HI):
        t = math.isqrt(i << SHIFT)
        d = math.isqrt(((i + 1) << SHIFT) - 1) - t
        v = (1 << K) // (2 * t + d + 1)
        assert (1 << 15) <= t < (1 << 16) and d <= 65 and v < (1 << 16)
        out.append(t | (v << 16))
    return out


def header():
    e = entries()
    rows = [", ".join("0x%08x" % x for x in e[k:k + 6]) for k in range(0, len(e), 6)]
    body = ",\n    ".join(rows)
    return (
        "/* SPDX-License-Identifier: BSD-2-Clause */\n"
        "/* The seeds of the vector integer square root: written by\n"
        " * tools/ops/isqrt_seed.py (do not edit; docs/integer-operators.md, \"The\n"
        " * root from a seed\"). Entry i - 256, for m >> 22 = i: isqrt(i * 2^22) in\n"
        " * bits 0-15, floor(2^24 / (2 T + D + 1)) in bits 16-31. */\n"
        "#ifndef WAI_OPS_X86_ISQRT_SEED_H\n#define WAI_OPS_X86_ISQRT_SEED_H\n\n"
        "#include <stdint.h>\n\n"
        "#define WAI_ISQRT_SEED_LO %d\n#define WAI_ISQRT_SEED_SHIFT %d\n#define WAI_ISQRT_SEED_K %d\n\n"
        "static const uint32_t wai_isqrt_seed[%d] = {\n    %s};\n\n#endif\n"
        % (LO, SHIFT, K, len(e), body))


if __name__ == "__main__":
    text = header()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            same = f.read() == text
        print("isqrt seed: %s" % ("the header is the generator's" if same else
                                  "the header differs: run tools/ops/isqrt_seed.py > " + sys.argv[2]))
        print("1 passed, 0 failed" if same else "0 passed, 1 failed")
        sys.exit(0 if same else 1)
    sys.stdout.write(text)
