#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The layers of src/ (docs/architecture.md, "Layers"), held to the includes:
a file includes its own folder, the folders below its own, and the public
headers (include/wai/) only; no circle of includes runs through any files;
the libraries beside libwai (libwai_webnn, libwai_receipt, libwai_ed25519) include nothing
of the decoder core but src/common/ (libwai_webnn) and the public headers;
libwai_write (src/write/) reaches the decoder through the public headers
(wai_network.h runs its networks, wai_decode.h checks what it wrote) and
shares only the core's utilities (common/), the formats' rules and parsers
(formats/) and the coder's tables (entropy/): never its decode, sets,
operators, backends or dispatch.

usage: check_layers.py SRC_DIR        (ends "N passed, N failed")
"""
import os
import re
import sys

src = sys.argv[1]
# Top to bottom: each layer may include those after it.
order = ["lib.c", "decode", "backend", "sets", "formats", "ops", "entropy",
         "dispatch", "common"]
# Libraries of their own: what each may reach of src/ besides itself.
apart = {"webnn": {"common"}, "receipt": {"common"}, "ed25519": set(),
         "write": {"common", "formats", "entropy"}}

files = {}
for root, _, names in os.walk(src):
    for n in names:
        if n.endswith((".c", ".h")):
            p = os.path.join(root, n)
            files[os.path.relpath(p, src)] = open(p, encoding="utf-8").read()


def layer(rel):
    return rel.split(os.sep)[0]


inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
failed, checks = [], 0
edges = {}
for rel, text in sorted(files.items()):
    own = layer(rel)
    edges[rel] = []
    for inc in inc_re.findall(text):
        if inc.startswith("wai/"):
            continue  # the public headers
        target = inc if inc in files else os.path.join(os.path.dirname(rel), inc)
        if target not in files:
            continue  # a generated or build-tree header
        edges[rel].append(target)
        to = layer(target)
        if to == own:
            continue  # within one folder: no layer rule to check
        checks += 1   # one check an include across folders
        if own in apart:
            ok = to in apart[own]
        elif to in apart:
            ok = False  # the core never includes another library's internals
        elif own in order and to in order:
            ok = order.index(to) > order.index(own)
        else:
            ok = False
        if not ok:
            failed.append(f"{rel} includes {inc}: {to}/ is not below {own}")

# No circle of includes: a depth-first walk over the file graph.
state = {}


circles = []


def walk(f, path):
    state[f] = 1
    for t in edges.get(f, []):
        if state.get(t) == 1:
            loop = path[path.index(t):] + [t] if t in path else [f, t]
            circles.append("a circle of includes: " + " -> ".join(loop))
        elif t not in state:
            walk(t, path + [t])
    state[f] = 2


for f in sorted(edges):
    if f not in state:
        walk(f, [f])
# The whole graph is one check: no circle anywhere (each circle found is named).
checks += 1
failed += circles

for f in failed:
    print("FAIL " + f)
print(f"layers: {len(files)} files, {sum(len(e) for e in edges.values())} includes of src/")
# A failed check is counted once: a layer rule broken by one include, or the
# graph's one check when it has circles.
n_failed = len(failed) - len(circles) + (1 if circles else 0)
print(f"{checks - n_failed} passed, {n_failed} failed")
sys.exit(1 if failed else 0)
