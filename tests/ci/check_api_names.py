#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The public API's one dialect (docs/api.md, "Names"), held to its headers:

- a status (enum wai_status) is WAI_ and the spec's code verbatim: lower
  snake case (integer-payloads section 8, neural-dispatch section 7, the
  library's own), or a WebNN exception's DOMException name (webnn.md);
- every other enumerator is WAI_ and upper case;
- every function and type is wai_..., every macro WAI_...;
- an opaque handle (typedef struct X X;) is released by X_destroy, never
  X_free (that is for memory the library hands over: text, buffers);
- a public header includes the others as "wai/NAME.h".

usage: check_api_names.py INCLUDE_DIR        (ends "N passed, N failed")
"""
import glob
import os
import re
import sys

inc = sys.argv[1]
headers = sorted(glob.glob(os.path.join(inc, "wai", "*.h")))
text = {h: open(h).read() for h in headers}
failed = []


def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    return re.sub(r"//[^\n]*", " ", s)


code = {h: strip_comments(t) for h, t in text.items()}
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failed.append(what)


status_name = re.compile(r"^WAI_([a-z][a-z0-9_]*|[A-Z][a-z]+(?:[A-Z][a-z]+)*Error)$")
other_name = re.compile(r"^WAI_[A-Z][A-Z0-9_]*$")
for h, c in code.items():
    base = os.path.basename(h)
    for m in re.finditer(r"typedef\s+enum\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", c, re.S):
        tag, body = m.group(1), m.group(2)
        names = [e.split("=")[0].strip() for e in body.split(",") if e.strip()]
        rule = status_name if tag == "wai_status" else other_name
        for n in names:
            check(rule.match(n), f"{base}: enum {tag}: {n} breaks the rule for its enum")
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)", c, re.M):
        n = m.group(1)
        check(n.startswith("WAI_"), f"{base}: macro {n} is not WAI_")
    decls = re.sub(r"^\s*#[^\n]*", " ", c, flags=re.M)  # not the macros' own lines
    for m in re.finditer(r"WAI_\w*API\s+[^;{(]*?\b(\w+)\s*\(", decls):
        check(m.group(1).startswith("wai_"), f"{base}: function {m.group(1)} is not wai_")
    for m in re.finditer(r"typedef\s+struct\s+(\w+)\s+(\w+)\s*;", c):
        tag, name = m.group(1), m.group(2)
        check(tag == name and name.startswith("wai_"), f"{base}: handle {name}")
        if name == "wai_ml_operand":  # owned by its builder: no release of its own
            continue
        every = "".join(code.values())
        check(re.search(r"\b%s_destroy\s*\(" % name, every),
              f"{base}: handle {name} has no {name}_destroy")
        check(not re.search(r"\b%s_free\s*\(" % name, every),
              f"{base}: handle {name} is released by {name}_free, not _destroy")
    for m in re.finditer(r'#\s*include\s+"([^"]+)"', text[h]):
        check(m.group(1).startswith("wai/"), f'{base}: includes "{m.group(1)}", not "wai/..."')

for f in failed:
    print("FAIL " + f)
print(f"api names: {len(headers)} headers, {checks} checks")
print(f"{checks - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
