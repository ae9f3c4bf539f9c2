#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# check_ignorelist.sh: every entry of tests/fuzz/coverage-ignore.txt still
# names something in src/. The compiler ignores an entry that matches
# nothing, so a function renamed or a file moved would quietly get its
# coverage back (and its cost): each entry is one check here.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
pass=0 fail=0
while read -r entry; do
    case "$entry" in
    fun:*)
        name="${entry#fun:}"
        # A definition: the name at the start of a line's declarator, then "(".
        if grep -rqE "^[A-Za-z_].*[^A-Za-z0-9_]${name}\(" "$repo/src"; then
            pass=$((pass + 1))
        else
            echo "coverage-ignore.txt: no function $name in src/"; fail=$((fail + 1))
        fi ;;
    src:*)
        pattern="${entry#src:}"
        # The list's paths are absolute with a leading wildcard: match the rest.
        found=0
        for f in "$repo"/${pattern#\*/}; do [[ -e "$f" ]] && found=1; done
        if ((found)); then pass=$((pass + 1)); else
            echo "coverage-ignore.txt: no file $pattern"; fail=$((fail + 1)); fi ;;
    "" | "#"*) ;;
    *) echo "coverage-ignore.txt: an entry this check does not read: $entry"; fail=$((fail + 1)) ;;
    esac
done < "$repo/tests/fuzz/coverage-ignore.txt"
echo "$pass passed, $fail failed"
((fail == 0))
