#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai set list` and `wai set pin`, and pins over whole sets through their
# listing (docs/spec-readings.md, L5): each way a pin can fail is
# set_incomplete, and a listing the set carries is checked (check 5).
# usage: tests/tool/test_set.sh WAI_BINARY
set -u
WAI=${1:?usage: test_set.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
EX=$ROOT/examples
S=$TMP/set
cp -r "$EX/hello_set" "$S"
# The shipped set carries its listing; this script starts from the files.
if cmp -s "$S/listing.json" <("$WAI" set list "$EX/hello_set"); then ok; else fail "the shipped listing is not the set's"; fi
rm "$S/listing.json"
decode() { "$WAI" decode --json --set "$S" "$@" "$EX/hello.wih1"; }

expect_exit 0 "list" -- "$WAI" set list "$S"
expect_contains "the canonical form" '{"kind":"wai.prior.set","members":[{"name":"entropy.json","bytes":' "$TMP/out"
[ "$(tail -c 2 "$TMP/out")" = "]}" ] && ok || fail "no newline after the listing"
want=$(sha256sum <"$TMP/out" | cut -c1-64)
expect_exit 1 "pin without a listing refuses" -- "$WAI" set pin "$S"
if [ -s "$TMP/out" ]; then fail "pin without a listing printed a pin: $(cat "$TMP/out")"; else ok; fi
expect_contains "says the listing is missing" "has no listing.json" "$TMP/err"
expect_contains "and which command writes it" "wai set list $S -o $S/listing.json" "$TMP/err"
# A pin over several files without a listing does not resolve.
expect_exit 1 "pinned, no listing" -- decode --pin "$want"
expect_contains "set_incomplete" '"status": "set_incomplete"' "$TMP/out"
expect_exit 1 "pinned, no listing (words)" -- "$WAI" decode --set "$S" --pin "$want" "$EX/hello.wih1"
expect_contains "says a set of several files is pinned through its listing" "is pinned through its listing" "$TMP/err"
# With the listing: the pin resolves, the set decodes, pinned or not.
expect_exit 0 "list -o" -- "$WAI" set list "$S" -o "$S/listing.json"
expect_exit 0 "pin with the listing" -- "$WAI" set pin "$S"
[ "$(cat "$TMP/out")" = "$want" ] && ok || fail "pin: $(cat "$TMP/out"), want $want"
expect_exit 0 "pinned through the listing" -- decode --pin "$want"
expect_exit 0 "unpinned, the listing checked" -- decode
expect_exit 2 "list -o again, no -y" -- "$WAI" set list "$S" -o "$S/listing.json"
# Each way a pin can fail.
other=$(printf '%s' "$want" | sed 's/^./0/; s/^00/01/')
expect_exit 1 "another pin" -- decode --pin "$other"
expect_exit 1 "another pin (words)" -- "$WAI" decode --set "$S" --pin "$other" "$EX/hello.wih1"
expect_contains "says the pin and the listing differ" "the pin and the set's listing differ" "$TMP/err"
cp "$S/listing.json" "$TMP/good.json"
printf ' ' >>"$S/listing.json"
expect_exit 1 "a listing not in its form" -- decode
expect_exit 1 "pin set list refuses it" -- "$WAI" set pin "$S"
expect_contains "says so" "is not the listing of" "$TMP/err"
cp "$TMP/good.json" "$S/listing.json"
printf 'x' >>"$S/h_s.whm"
expect_exit 1 "a file read that is not the file listed" -- decode
expect_contains "set_incomplete" '"status": "set_incomplete"' "$TMP/out"
expect_exit 1 "and pinned" -- decode --pin "$want"
cp "$EX/hello_set/h_s.whm" "$S/h_s.whm"
sed 's/,{"name":"h_s.whm"[^}]*}//' "$TMP/good.json" >"$S/listing.json"
expect_exit 1 "a file read and not listed" -- decode
cp "$TMP/good.json" "$S/listing.json"
expect_exit 0 "restored" -- decode --pin "$want"
# A listing may name files a decode does not read; list includes them.
printf 'notes' >"$S/README"
expect_exit 0 "list with another file" -- "$WAI" set list "$S" -o "$S/listing.json" -y
expect_contains "it is listed" '"name":"README","bytes":5' "$S/listing.json"
expect_exit 0 "decodes with it" -- decode --pin "$("$WAI" set pin "$S")"
# Usage.
expect_exit 2 "no DIR" -- "$WAI" set list
expect_exit 2 "a missing DIR" -- "$WAI" set pin "$TMP/nowhere"
expect_exit 2 "an unknown subcommand" -- "$WAI" set show "$S"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
