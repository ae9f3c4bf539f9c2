#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# fuzz-one.sh PROGRAM SECONDS CRASH_DIR: runs one libFuzzer target for
# SECONDS on a temporary copy of its seed corpus tests/fuzz/corpus/NAME
# (libFuzzer adds to the corpus directory it is given; the committed one
# must not change). A crash input is kept in CRASH_DIR and its path printed.
# Closes with "1 passed, 0 failed" or "0 passed, 1 failed".
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

prog="$1" seconds="$2" crashdir="$3"
name="$(basename "$prog")"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus" "$corpus.out"' EXIT
if [[ -d "$WAI_REPO/tests/fuzz/corpus/$name" ]]; then
    cp -R "$WAI_REPO/tests/fuzz/corpus/$name/." "$corpus/"
fi
mkdir -p "$crashdir"

# A target's own libFuzzer flags, where it has a tests/fuzz/NAME.flags
# (fuzz_y4m: the reader it drives says why it refuses each input on stderr).
extra=()
if [[ -f "$WAI_REPO/tests/fuzz/$name.flags" ]]; then read -r -a extra <"$WAI_REPO/tests/fuzz/$name.flags"; fi
rc=0
"$prog" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${extra[@]}" -artifact_prefix="$crashdir/" "$corpus" 2>&1 | tee "$corpus.out" || rc=$?
if ((rc == 0)); then
    echo "fuzz $name: no crash in ${seconds}s"
    echo "1 passed, 0 failed"
else
    echo "fuzz $name: FAILED (exit $rc)"
    grep -o 'Test unit written to .*' "$corpus.out" | sed 's/^Test unit written to /crash input kept: /'
    echo "0 passed, 1 failed"
    exit 1
fi
