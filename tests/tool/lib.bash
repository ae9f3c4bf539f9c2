# SPDX-License-Identifier: BSD-2-Clause
# Shared by the tool tests (sourced, not run): a temporary folder, pass/fail
# counting, and the checks every script uses. A script ends with
# `echo "$passed passed, $failed failed"` and `[ "$failed" -eq 0 ]`.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# expect_exit CODE NAME -- COMMAND...: runs COMMAND, keeps stdout in
# $TMP/out and stderr in $TMP/err.
expect_exit() {
    local want=$1 name=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else fail "$name: exit $got, want $want: $(head -c 300 "$TMP/err")"; fi
}

# expect_contains NAME TEXT FILE: FILE holds TEXT.
expect_contains() {
    if grep -qF -- "$2" "$3"; then ok; else fail "$1: '$2' not in $3: $(head -c 300 "$3")"; fi
}

# expect_measured NAME PICTURE DECODED REPORT: a picture encoder's REPORT
# (its psnr and sse lines) is its payload's DECODED against PICTURE, the
# decode the picture's size rounded up to multiples of 64
# (tests/tool/measure_picture.py).
expect_measured() {
    if /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/measure_picture.py" "$2" "$3" "$4" \
        >"$TMP/m.err" 2>&1; then ok
    else fail "$1: $(cat "$TMP/m.err")"; fi
}
