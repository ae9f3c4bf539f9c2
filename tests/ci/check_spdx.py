#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Every source file the project wrote names its licence in its first lines:
`SPDX-License-Identifier: BSD-2-Clause` (LICENSE; THIRD-PARTY.md lists what
is not ours). Source is every tracked file of the kinds below outside the
data folders; data (JSON, test vectors, corpus files) carries no comment.

    check_spdx.py [REPO]          one check per file, then "N passed, N failed"
    check_spdx.py [REPO] --fix    adds the line where it is missing
"""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: BSD-2-Clause"
# The comment each kind writes the line in.
C_STYLE = f"/* {TAG} */"
SLASHES = f"// {TAG}"
HASH = f"# {TAG}"
KINDS = {
    ".c": C_STYLE, ".h": C_STYLE, ".css": C_STYLE, ".map": C_STYLE, ".h.in": C_STYLE,
    ".js": SLASHES, ".mjs": SLASHES, ".cjs": SLASHES, ".ts": SLASHES, ".wgsl": SLASHES,
    ".py": HASH, ".sh": HASH, ".bash": HASH, ".cmake": HASH, ".cmake.in": HASH,
    ".pc.in": HASH, ".toml": HASH, "CMakeLists.txt": HASH, "Makefile": HASH,
    ".ci/run": HASH, ".html": f"<!-- {TAG} -->",
}
# Tracked files that are data, whatever their name ends with.
DATA = ("tests/corpus/", "tests/fuzz/corpus/", "tests/fuzz/regressions/")
HEAD_LINES = 3   # the line sits at the top, after a #! or <!DOCTYPE> line


def kind(path):
    for k in sorted(KINDS, key=len, reverse=True):
        if path == k or path.endswith("/" + k) or (k.startswith(".") and path.endswith(k)):
            return k
    return None


def sources(repo):
    files = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                           capture_output=True).stdout.decode().split("\0")
    return [f for f in files if f and kind(f) and not f.startswith(DATA)]


def has_tag(text):
    return any(TAG in line for line in text.splitlines()[:HEAD_LINES])


def add_tag(text, line):
    lines = text.splitlines(keepends=True)
    at = 1 if lines and (lines[0].startswith("#!") or lines[0].lower().startswith("<!doctype")) else 0
    return "".join(lines[:at] + [line + "\n"] + lines[at:])


def main(argv):
    fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    repo = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    passed = failed = 0
    for f in sources(repo):
        path = os.path.join(repo, f)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if has_tag(text):
            passed += 1
        elif fix:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(add_tag(text, KINDS[kind(f)]))
            print(f"added: {f}")
            passed += 1
        else:
            print(f"FAIL {f}: no '{TAG}' in its first {HEAD_LINES} lines "
                  f"(tests/ci/check_spdx.py --fix adds it)")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
