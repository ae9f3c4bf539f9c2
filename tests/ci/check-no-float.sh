#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The library under src/ is integer-only but for one folder: no file there
# may contain the word `float` or `double`, not even in a comment (simple and
# strict, so nobody has to argue about whether a mention is harmless). The
# exception is src/webnn/, the native WebNN, the float backend: no integer
# decode runs there, and no file outside it may include its headers. Prints
# offending lines.
# Closes with "1 passed, 0 failed" or "0 passed, 1 failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

hits="$(grep -rnwE --include='*.c' --include='*.h' --exclude-dir=webnn 'float|double' src || true)"
# Nothing outside the float folder reaches its internals: the float backend
# and the WIH1 encoder's analysis are libwai_webnn's public API
# (include/wai/wai_webnn.h).
leaks="$(grep -rlE '#include "webnn/' src --include='*.c' --include='*.h' | grep -v '^src/webnn/' || true)"
if [[ -n "$leaks" ]]; then
    echo "float check: files outside src/webnn/ include its internals:"
    printf '%s\n' "$leaks"
    echo "0 passed, 1 failed"
    exit 1
fi
if [[ -n "$hits" ]]; then
    echo "float check: floating-point words in the integer library (src/):"
    printf '%s\n' "$hits"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "float check: src/ has no float or double"
echo "1 passed, 0 failed"
