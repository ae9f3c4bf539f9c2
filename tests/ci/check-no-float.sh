#!/usr/bin/env bash
# The library under src/ is integer-only: no file there may contain the word
# `float` or `double`, not even in a comment (simple and strict, so nobody
# has to argue about whether a mention is harmless). Prints offending lines.
# Closes with "1 passed, 0 failed" or "0 passed, 1 failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

hits="$(grep -rnwE --include='*.c' --include='*.h' 'float|double' src || true)"
if [[ -n "$hits" ]]; then
    echo "float check: floating-point words in the integer library (src/):"
    printf '%s\n' "$hits"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "float check: src/ has no float or double"
echo "1 passed, 0 failed"
