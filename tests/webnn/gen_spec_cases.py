#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes tests/webnn/cases_spec.json: conformance cases, in cases.json's form,
for WebNN operators the WPT data we copied has none of (gemm, matmul, and
the unary ceil, cos, erf, exp, floor, log, reciprocal, roundEven, sin, sign
and tan against float64), written from webnn.md's method steps. Inputs are drawn from a fixed seed;
the expected values are the float64 product rounded once to float32; the
tolerance is the one WPT's harness gives a matrix product (K ULP, K the
inner dimension), room for a fast kernel's other order of sums.

  /usr/bin/python3 tests/webnn/gen_spec_cases.py > tests/webnn/cases_spec.json
  /usr/bin/python3 tests/webnn/gen_spec_cases.py --check tests/webnn/cases_spec.json   (CI)
"""
import json
import sys

import numpy as np

rng = np.random.default_rng(20261204)


def f32(a):
    return np.asarray(a, dtype=np.float64).astype(np.float32)


def tensor(a):
    a = f32(a)
    return {"shape": list(a.shape), "dataType": "float32", "data": [float(v) for v in a.ravel()]}


def case(op, name, inputs, operators, expected, k):
    return {"op": op, "file": "gen_spec_cases.py", "name": name,
            "inputs": {n: tensor(v) for n, v in inputs.items()}, "constants": {},
            "operators": operators, "expected": {n: tensor(v) for n, v in expected.items()},
            "provenance": "webnn.md method steps (libwai, tests/webnn/gen_spec_cases.py)",
            "tolerance": {"kind": "ULP", "value": int(k), "rule": "K ULP (WPT's matmul/gemm)"}}


def draw(*shape):
    return f32(rng.uniform(-10, 10, size=shape))


cases = []
# gemm: alpha * A' B' + beta * C.
for m, k, n, at, bt, alpha, beta, cshape in [
        (2, 3, 4, False, False, 1.0, 1.0, None),
        (3, 5, 2, True, False, 1.0, 1.0, None),
        (4, 2, 3, False, True, 1.0, 1.0, None),
        (2, 4, 5, True, True, 1.0, 1.0, None),
        (3, 3, 3, False, False, 0.5, 2.0, (3, 3)),
        (2, 6, 4, False, False, -1.25, 0.75, (4,)),
        (5, 2, 3, False, True, 1.0, -1.0, (5, 1)),
        (2, 2, 2, True, False, 3.0, 0.5, ()),
        (1, 7, 1, False, False, 1.0, 1.0, (1, 1)),
        (4, 16, 4, True, True, 0.125, 4.0, (1, 4))]:
    a = draw(*((k, m) if at else (m, k)))
    b = draw(*((n, k) if bt else (k, n)))
    A = a.astype(np.float64).T if at else a.astype(np.float64)
    B = b.astype(np.float64).T if bt else b.astype(np.float64)
    want = alpha * (A @ B)
    inputs = {"gemmA": a, "gemmB": b}
    options = {}
    if cshape is not None:
        c = draw(*cshape)
        inputs["gemmC"] = c
        want = want + beta * np.broadcast_to(c.astype(np.float64), (m, n))
        options["c"] = "gemmC"
    if alpha != 1.0:
        options["alpha"] = alpha
    if beta != 1.0:
        options["beta"] = beta
    if at:
        options["aTranspose"] = True
    if bt:
        options["bTranspose"] = True
    args = [{"a": "gemmA"}, {"b": "gemmB"}] + ([{"options": options}] if options else [])
    name = f"gemm float32 {m}x{k} by {k}x{n}" + (" aTranspose" if at else "") + \
        (" bTranspose" if bt else "") + (f" c {list(cshape)}" if cshape is not None else "") + \
        (f" alpha {alpha} beta {beta}" if (alpha, beta) != (1.0, 1.0) else "")
    cases.append(case("gemm", name, inputs, [{"name": "gemm", "arguments": args, "outputs": "gemmOutput"}],
                      {"gemmOutput": want}, k))
# matmul: the last two dimensions multiply, the rest broadcast.
for sa, sb in [((2, 3), (3, 4)), ((1, 5), (5, 1)), ((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 2)),
               ((3, 2), (4, 2, 3)), ((2, 1, 3, 4), (3, 4, 2)), ((1, 2, 2, 3), (2, 1, 3, 3))]:
    a, b = draw(*sa), draw(*sb)
    want = np.matmul(a.astype(np.float64), b.astype(np.float64))
    name = f"matmul float32 {list(sa)} by {list(sb)}"
    cases.append(case("matmul", name, {"matmulA": a, "matmulB": b},
                      [{"name": "matmul", "arguments": [{"a": "matmulA"}, {"b": "matmulB"}],
                        "outputs": "matmulOutput"}], {"matmulOutput": want}, sa[-1]))
# The unary operators WPT's copied data has none of: each on values drawn
# from its domain (and the edges a rounding rule turns on), the expected the
# float64 function rounded once to float32; the tolerance WPT's harness
# gives each (exact for the rounding and sign ones).
ATOL = 1.0 / 1024
UNARY = [
    ("ceil", np.ceil, (-10, 10), [0.0, -0.0, 2.0, -2.5, 2.5, 1e-7], ("ULP", 0)),
    ("floor", np.floor, (-10, 10), [0.0, -0.0, 2.0, -2.5, 2.5, -1e-7], ("ULP", 0)),
    ("roundEven", np.rint, (-10, 10), [0.5, 1.5, 2.5, -0.5, -1.5, -2.5], ("ULP", 0)),
    ("sign", np.sign, (-10, 10), [0.0, 1e-30, -1e-30, 7.0, -7.0, 3.5], ("ULP", 0)),
    ("reciprocal", lambda x: 1.0 / x, (0.01, 10), [-0.01, -3.0, 1.0, 0.5, -9.75, 1e3], ("ULP", 2)),
    ("exp", np.exp, (-10, 10), [0.0, -87.0, 88.0, 1.0, -1.0, 1e-6], ("ULP", 32)),
    ("log", np.log, (0.01, 100), [1.0, 1e-30, 3e38, 2.718281828, 0.5, 1e6], ("ATOL", ATOL)),
    ("cos", np.cos, (-10, 10), [0.0, 3.14159265, -1.5707963, 100.0, -100.0, 1e-4], ("ATOL", ATOL)),
    ("sin", np.sin, (-10, 10), [0.0, 3.14159265, -1.5707963, 100.0, -100.0, 1e-4], ("ATOL", ATOL)),
    ("tan", np.tan, (-1.5, 1.5), [0.0, 0.785398, -0.785398, 1.4, -1.4, 1e-4], ("ATOL", ATOL)),
    ("erf", np.vectorize(__import__("math").erf), (-3, 3), [0.0, 0.5, -0.5, 4.0, -4.0, 1e-4],
     ("ATOL", ATOL)),
]
for op, fn, (lo, hi), edges, (kind, value) in UNARY:
    drawn = rng.uniform(lo, hi, size=18)
    if op == "reciprocal":
        drawn = drawn * np.where(rng.uniform(size=18) < 0.5, -1.0, 1.0)
    x = f32(np.concatenate([drawn, np.asarray(edges, dtype=np.float64)])).reshape(2, 3, 4)
    want = fn(x.astype(np.float64))
    c = case(op, f"{op} float32 4D tensor", {f"{op}Input": x},
             [{"name": op, "arguments": [{"input": f"{op}Input"}], "outputs": f"{op}Output"}],
             {f"{op}Output": want}, 0)
    c["tolerance"] = {"kind": kind, "value": value,
                      "rule": f"WPT's {op} float32 tolerance ({kind} {value:g})"}
    cases.append(c)
text = json.dumps(cases, indent=1) + "\n"
if sys.argv[1:2] == ["--check"]:
    # CI: the committed file is this script's output, unedited.
    with open(sys.argv[2]) as f:
        same = f.read() == text
    print(f"{sys.argv[2]}: {'the generator' + chr(39) + 's output' if same else 'NOT the generator' + chr(39) + 's output'}")
    print("1 passed, 0 failed" if same else "0 passed, 1 failed")
    sys.exit(0 if same else 1)
sys.stdout.write(text)
