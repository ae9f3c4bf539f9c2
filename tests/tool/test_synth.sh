#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai.neural.int_synth through the tool (docs/int_synth.md): encode writes
# the corpus's payloads back from their latents (raw and .npy), checks them
# against a set, inspect says how to name a payload with no magic, decode
# gives the image with an integer dispatch report, PNG/PPM/raw outputs.
# usage: tests/tool/test_synth.sh WAI_BINARY
set -u
WAI=${1:?usage: test_synth.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
V=$ROOT/tests/corpus/neural/synth/valid
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
CAP=wai.neural.int_synth

# The odd case: [3, 4, 4] latents, a 7x7 picture.
tail -c +13 "$V/odd/image.bin" >"$TMP/lat.i8"
expect_exit 0 "encode raw latents" -- "$WAI" encode --capability $CAP --size 7 --channels 3 "$TMP/lat.i8" -o "$TMP/a.bin"
cmp -s "$TMP/a.bin" "$V/odd/image.bin" && ok || fail "the encoded payload is the corpus's"
expect_exit 0 "encode checked against the set" -- "$WAI" encode --capability $CAP --size 7x7 --channels 3 --set "$V/odd" "$TMP/lat.i8" -o "$TMP/b.bin"
expect_contains "the declared cost is printed" "MACs" "$TMP/err"
expect_exit 1 "a size the set does not make" -- "$WAI" encode --capability $CAP --size 8 --channels 3 --set "$V/odd" "$TMP/lat.i8" -o "$TMP/c.bin"
expect_contains "its refusal" "payload_malformed" "$TMP/err"
[ ! -e "$TMP/c.bin" ] && ok || fail "a refused encode wrote its output"
expect_exit 2 "raw latents need --channels" -- "$WAI" encode --capability $CAP --size 7 "$TMP/lat.i8" -o "$TMP/d.bin"
expect_exit 2 "no --size" -- "$WAI" encode --capability $CAP --channels 3 "$TMP/lat.i8" -o "$TMP/d.bin"
expect_exit 2 "C x S x S" -- "$WAI" encode --capability $CAP --size 7 --channels 5 "$TMP/lat.i8" -o "$TMP/d.bin"
# A .npy of int8 [1, 3, 4, 4], written by hand (format version 1.0).
{
    header="{'descr': '|i1', 'fortran_order': False, 'shape': (1, 3, 4, 4), }"
    while [ $(( (10 + ${#header} + 1) % 64 )) -ne 0 ]; do header="$header "; done
    printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf %02x $(( (${#header} + 1) % 256 )))\\x$(printf %02x $(( (${#header} + 1) / 256 )))"
    printf '%s\n' "$header"
    cat "$TMP/lat.i8"
} >"$TMP/lat.npy"
expect_exit 0 "encode a .npy" -- "$WAI" encode --capability $CAP --size 7 "$TMP/lat.npy" -o "$TMP/e.bin"
cmp -s "$TMP/e.bin" "$V/odd/image.bin" && ok || fail "the .npy gives the same payload"

# inspect: no magic; named, the header and the cost.
expect_exit 1 "inspect without the capability" -- "$WAI" inspect "$V/odd/image.bin"
expect_contains "it says how to name it" "--capability wai.neural.int_synth" "$TMP/out"
expect_exit 0 "inspect --capability --cost --set" -- "$WAI" inspect --capability $CAP --cost --set "$V/odd" "$V/odd/image.bin"
expect_contains "the header" '"header": {"height": 7, "width": 7, "channels": 3, "side": 4}' "$TMP/out"

# decode: the image and the report; the outputs other tools open.
expect_exit 0 "decode --json" -- "$WAI" decode --json --capability $CAP --set "$V/odd" "$V/odd/image.bin"
expect_contains "an image" '"kind": "image"' "$TMP/out"
expect_contains "on the integer path" '"ran": {"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer", "tier": "decode-equivalence"' "$TMP/out"
expect_exit 0 "decode to .rgb" -- "$WAI" decode --capability $CAP --set "$V/odd" "$V/odd/image.bin" -o "$TMP/o.rgb"
[ "$(wc -c <"$TMP/o.rgb")" -eq 147 ] && ok || fail "7x7 RGB is 147 bytes"
expect_exit 0 "decode to .ppm" -- "$WAI" decode --capability $CAP --set "$V/odd" "$V/odd/image.bin" -o "$TMP/o.ppm"
expect_exit 1 "decode without the capability" -- "$WAI" decode --set "$V/odd" "$V/odd/image.bin"
expect_exit 0 "capabilities" -- "$WAI" capabilities
grep -q "^wai.neural.int_synth .* yes .*int_synth.json" "$TMP/out" && ok || fail "capabilities: int_synth decodes: $(grep int_synth "$TMP/out")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
