#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The Python module as a user installs it: `pip install .` from the
# repository into a fresh venv that sees Debian's packages (numpy), with no
# package index (the in-tree build backend needs none), then the module's
# tests against the installed copy, from outside the repository.
#
#   tests/ci/python-pip.sh [WAI_TOOL]
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
if ! "$py" -m venv --system-site-packages "$tmp/venv"; then
    echo "FAIL: python3 -m venv (install python3-venv)"
    echo "0 passed, 1 failed"
    exit 1
fi
# The backend builds in a folder of its own: nothing is written into the
# repository.
if ! "$tmp/venv/bin/pip" install --no-index "$repo" >"$tmp/pip.log" 2>&1; then
    cat "$tmp/pip.log"
    echo "FAIL: pip install ."
    echo "0 passed, 1 failed"
    exit 1
fi
echo "pip install: ok ($(grep -o 'Successfully installed.*' "$tmp/pip.log"))"
cd "$tmp" || exit 1
# The installed module, not the repository's: no WAI_LIBRARY, no PYTHONPATH.
env -u WAI_LIBRARY -u PYTHONPATH ${1:+WAI_TOOL="$1"} WAI_REPO="$repo" \
    "$tmp/venv/bin/python" "$repo/python/tests/run.py"
