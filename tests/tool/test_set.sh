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
# A pin differing in one digit anywhere (the first, the last of its first
# half, the first of its second half, the last): all 32 bytes count.
for at in 0 31 32 63; do
    d=${want:at:1}
    [ "$d" = 0 ] && r=1 || r=0
    pin=${want:0:at}$r${want:at+1}
    expect_exit 1 "a pin differing in digit $at" -- decode --pin "$pin"
    expect_contains "digit $at: set_incomplete" '"status": "set_incomplete"' "$TMP/out"
done
cp "$S/listing.json" "$TMP/good.json"
# The listing's entries out of name order (L5: ascending bytes): not the
# listing, pinned or not, though every entry is right.
/usr/bin/python3 - "$TMP/good.json" "$S/listing.json" <<'PY'
import re, sys
entries = re.findall(r'\{"name":[^}]*\}', open(sys.argv[1]).read())
entries[0], entries[1] = entries[1], entries[0]
open(sys.argv[2], "w").write('{"kind":"wai.prior.set","members":[' + ",".join(entries) + "]}")
PY
swapped=$(sha256sum <"$S/listing.json" | cut -c1-64)
if ! cmp -s "$S/listing.json" "$TMP/good.json" &&
    [ "$(stat -c %s "$S/listing.json")" = "$(stat -c %s "$TMP/good.json")" ]; then ok; else fail "the entries were not swapped"; fi
expect_exit 1 "a listing out of name order" -- decode
expect_contains "out of order: set_incomplete" '"status": "set_incomplete"' "$TMP/out"
expect_exit 1 "and pinned over its own bytes" -- decode --pin "$swapped"
# A listing that names itself (in its place in name order): no file can
# hold its own digest, so it is not a listing.
/usr/bin/python3 - "$TMP/good.json" "$S/listing.json" <<'PY'
import re, sys
entries = re.findall(r'\{"name":[^}]*\}', open(sys.argv[1]).read())
entries.append('{"name":"listing.json","bytes":1,"sha256":"' + "0" * 64 + '"}')
entries.sort(key=lambda e: re.match(r'\{"name":"([^"]*)"', e).group(1).encode())
open(sys.argv[2], "w").write('{"kind":"wai.prior.set","members":[' + ",".join(entries) + "]}")
PY
expect_contains "the listing names itself" '{"name":"listing.json","bytes":1,' "$S/listing.json"
expect_exit 1 "a listing naming itself" -- decode
expect_contains "names itself: set_incomplete" '"status": "set_incomplete"' "$TMP/out"
expect_exit 1 "and pinned" -- decode --pin "$(sha256sum <"$S/listing.json" | cut -c1-64)"
cp "$TMP/good.json" "$S/listing.json"
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
# A member that is a relative link out of the folder (../h_s.whm, the very
# bytes listed) is not read: set_incomplete, and the tool says why.
mv "$S/h_s.whm" "$TMP/h_s.whm"
ln -s ../h_s.whm "$S/h_s.whm"
expect_exit 1 "a member linked out by ../" -- decode --pin "$want"
expect_contains "linked out: set_incomplete" '"status": "set_incomplete"' "$TMP/out"
expect_contains "says the link is not read" "a link out of the set's folder (to ../h_s.whm)" "$TMP/err"
rm "$S/h_s.whm"; mv "$TMP/h_s.whm" "$S/h_s.whm"
expect_exit 0 "the member back" -- decode --pin "$want"
# -o never names a file the command read, -y or not: a member stays as it
# was; the listing itself is no member (-o DIR/listing.json -y rewrites it).
expect_exit 2 "list -o over a member, -y" -- "$WAI" set list "$S" -o "$S/g_s.whm" -y
expect_contains "says it is an input" "is one of this command's inputs" "$TMP/err"
cmp -s "$S/g_s.whm" "$EX/hello_set/g_s.whm" && ok || fail "list -o over a member changed it"
ln "$S/h_s.whm" "$TMP/h_link.whm"
expect_exit 2 "list -o over a hard link to a member, -y" -- "$WAI" set list "$S" -o "$TMP/h_link.whm" -y
cmp -s "$S/h_s.whm" "$EX/hello_set/h_s.whm" && ok || fail "list -o over a hard link changed the member"
rm "$TMP/h_link.whm"
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
