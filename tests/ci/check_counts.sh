#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The counts say what they count (issue 57): planted faults show as
# failures or skips, never as passes.
#   - a tool that crashes on every call but `help`: test_cli.sh fails;
#   - no ffmpeg on PATH: test_output.sh's read-back checks are skipped;
#   - no WAI_TOOL: the Python tests that need the tool are skipped;
#   - an i386 build: the checks it cannot run (no __int128, x87 binary64,
#     no kernel level beyond portable) are skipped, not passed.
# usage: tests/ci/check_counts.sh GCC_BUILD I386_BUILD     ends "N passed, N failed"
set -u
BUILD=$(cd "${1:?usage: check_counts.sh GCC_BUILD I386_BUILD}" && pwd)
I386=${2:?usage: check_counts.sh GCC_BUILD I386_BUILD}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/tool/lib.bash"
source "$ROOT/tests/ci/lib.sh"
WAI=$BUILD/tools/wai/wai

# counts LOG: "PASSED FAILED SKIPPED" of LOG's closing line.
counts() { closing_counts "$1"; }

# A crashing tool.
printf '#!/bin/sh\ncase "$1" in help|--help|--version) exec "%s" "$@";; esac\nkill -SEGV $$\n' "$WAI" >"$TMP/crash"
chmod +x "$TMP/crash"
bash "$ROOT/tests/tool/test_cli.sh" "$TMP/crash" >"$TMP/cli.log" 2>&1; rc=$?
read -r p f k < <(counts "$TMP/cli.log")
[ "$rc" -ne 0 ] && [ "${f:-0}" -gt 0 ] && ok || fail "a crashing tool: test_cli.sh exit $rc, '$p $f $k'"

# No ffmpeg: a PATH of /usr/bin's programs but ffmpeg and ffprobe.
mkdir -p "$TMP/bin"
for b in /usr/bin/*; do
    case ${b##*/} in ffmpeg|ffprobe) ;; *) ln -s "$b" "$TMP/bin/${b##*/}" ;; esac
done
PATH=$TMP/bin bash "$ROOT/tests/tool/test_output.sh" "$WAI" >"$TMP/out.log" 2>&1; rc=$?
read -r p f k < <(counts "$TMP/out.log")
PATH=$TMP/bin command -v ffmpeg >/dev/null && fail "ffmpeg still on the planted PATH"
[ "$rc" -eq 0 ] && [ "${f:-1}" -eq 0 ] && [ "${k:-0}" -gt 0 ] && ok ||
    fail "no ffmpeg: test_output.sh exit $rc, '$p $f $k' (its read-back checks must be skipped)"
bash "$ROOT/tests/tool/test_output.sh" "$WAI" >"$TMP/out2.log" 2>&1
read -r p2 f2 k2 < <(counts "$TMP/out2.log")
[ "${k2:-1}" -eq 0 ] && [ "$p2" -eq $((p + k)) ] && ok ||
    fail "with ffmpeg: '$p2 $f2 $k2'; without: '$p $f $k' (the skips must be the checks ffmpeg runs)"

# No WAI_TOOL: Python's tool checks are skipped, each named.
env -u WAI_TOOL WAI_LIBRARY="$BUILD/libwai_python.so" /usr/bin/python3 "$ROOT/python/tests/run.py" \
    >"$TMP/py.log" 2>&1; rc=$?
read -r p f k < <(counts "$TMP/py.log")
[ "$rc" -eq 0 ] && [ "${k:-0}" -gt 0 ] && grep -q "^skipped: .*WAI_TOOL" "$TMP/py.log" && ok ||
    fail "no WAI_TOOL: '$p $f $k': $(tail -3 "$TMP/py.log")"

# i386: what cannot run there is a skip.
if prog=$(find_program "$I386" wai_unit_tests); then
    bash "$ROOT/tests/ci/run-arch.sh" i386 "$prog" --data "$ROOT/tests" \
        --filter "layers/int128_vs_native,layers/random_vs_native,binary64_against,cores_every_level" \
        >"$TMP/i386.log" 2>&1; rc=$?
    read -r p f k < <(counts "$TMP/i386.log")
    [ "$rc" -eq 0 ] && [ "${k:-0}" -ge 3 ] && ok ||
        fail "i386: '$p $f $k' (want the checks it cannot run skipped): $(tail -5 "$TMP/i386.log")"
else
    fail "no i386 wai_unit_tests in $I386"
fi

# The summary's distinct count (tests/ci/distinct.sh): a second build, a
# second front end of the corpus and the iterations of one invariant are
# repeats; a step of its own counts whole.
printf '%s\n' "api 5" "unit-gcc-1of2 3" "unit-gcc-2of2 4" "unit-clang-1of2 3" "unit-clang-2of2 4" \
    "tool-gcc-test_x 7" "tool-clang-test_x 7" "tool-gcc-test_corpus 9" "web-node 12" \
    "tool-gcc-test_mutate 400" "tool-clang-test_mutate 400" "python-fuzz-glue 3000" |
    bash "$ROOT/tests/ci/distinct.sh" >"$TMP/distinct"
# 5 + 7 (one build's unit) + 7 + 12 (the corpus's largest front end) + 1 + 1
grep -qx "distinct: 33" "$TMP/distinct" && grep -q "^runs: 33 distinct + 3821 repeats" "$TMP/distinct" &&
    ok || fail "distinct counts: $(cat "$TMP/distinct")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
