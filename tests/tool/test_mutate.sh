#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Mutated payloads and set members through `wai decode --json` (issue 10;
# tests/tool/mutate.py): only exit 0 or 1 with JSON, never a hang, never more
# resident memory than declared + inputs + the tool's overhead. CI runs
# WAI_MUTATE_CASES (default 400) cases; by hand: WAI_MUTATE_CASES=10000.
# usage: tests/tool/test_mutate.sh WAI_BINARY
set -u
WAI=${1:?usage: test_mutate.sh WAI_BINARY}
WAI=$(cd "$(dirname "$WAI")" && pwd)/$(basename "$WAI")
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
exec "$PY" "$(dirname "$0")/mutate.py" "$WAI" "${WAI_MUTATE_CASES:-400}" "${WAI_MUTATE_SEED:-1}"
