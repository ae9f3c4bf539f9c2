# SPDX-License-Identifier: BSD-2-Clause
# Shared by the training smoke scripts (tests/hyperprior/smoke.sh,
# tests/mlicpp/smoke.sh; sourced, not run): the repository, a temporary
# folder, Debian's Python, and `check NAME CMD...`, which runs CMD with its
# output in $tmp/NAME.log, prints ok or FAIL (and the log's tail) and counts.
set -u
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
passed=0 failed=0
check() {  # check NAME CMD...
    if "${@:2}" >"$tmp/$1.log" 2>&1; then
        echo "  ok   $1"; passed=$((passed + 1))
    else
        echo "  FAIL $1"; tail -20 "$tmp/$1.log"; failed=$((failed + 1))
    fi
}
