#!/usr/bin/env bash
# wai split and wai join: a clip and its frame-form group, byte for byte,
# both ways, for WIV1/WIF1 (integer-payloads §16) and WIC1/WCF1 (§17.2); the
# group decoding to the clip's frames; the refusals (the parse's codes) and
# the output rules (names checked first, no input overwritten, -y).
# usage: tests/tool/test_split.sh WAI_BINARY
set -u
WAI=${1:?usage: test_split.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
V=$ROOT/tests/corpus/neural/cond/valid/six_frames
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# WIC1: split gives the corpus's frames; join gives the clip.
expect_exit 0 "split a WIC1" -- "$WAI" split "$V/clip.wic1" -o "$TMP/c%03d.wcf1"
expect_contains "the summary" "6 wcf1 frames" "$TMP/err"
same=1
for i in 0 1 2 3 4 5; do cmp -s "$TMP/c00$i.wcf1" "$V/f00$i.wcf1" || same=0; done
[ "$same" = 1 ] && ok || fail "the split frames are not the corpus's"
[ ! -e "$TMP/c006.wcf1" ] && ok || fail "a seventh frame"
expect_exit 0 "join them" -- "$WAI" join "$TMP"/c00?.wcf1 -o "$TMP/joined.wic1"
cmp -s "$TMP/joined.wic1" "$V/clip.wic1" && ok || fail "split then join is not the clip"
expect_exit 0 "the group decodes" -- "$WAI" decode --capability wai.video.int_cond.frame --set "$V" "$TMP"/c00?.wcf1 -o "$TMP/g.rgb"
expect_exit 0 "the clip decodes" -- "$WAI" decode --set "$V" "$V/clip.wic1" -o "$TMP/c.rgb"
cmp -s "$TMP/g.rgb" "$TMP/c.rgb" && ok || fail "the group's frames are not the clip's"

# WIV1: into a directory, and back.
mkdir "$TMP/d"
expect_exit 0 "split a WIV1 into a directory" -- "$WAI" split "$ROOT/examples/hello.wiv1" -o "$TMP/d"
[ -s "$TMP/d/frame_000000.wif1" ] && [ -s "$TMP/d/frame_000002.wif1" ] && ok || fail "frame_NNNNNN.wif1 files"
expect_exit 0 "join the WIF1 frames" -- "$WAI" join "$TMP"/d/frame_00000?.wif1 -o "$TMP/h.wiv1"
cmp -s "$TMP/h.wiv1" "$ROOT/examples/hello.wiv1" && ok || fail "the WIV1 back byte for byte"
expect_exit 0 "join to standard output" -- "$WAI" join "$TMP"/d/frame_00000?.wif1 -o -
cmp -s "$TMP/out" "$ROOT/examples/hello.wiv1" && ok || fail "the clip on standard output"

# Refusals: the codes a clip's parse would give.
expect_exit 1 "join without the intra frame" -- "$WAI" join "$TMP/c001.wcf1" "$TMP/c002.wcf1" -o "$TMP/x.wic1"
expect_contains "field_range" "field_range" "$TMP/err"
[ ! -e "$TMP/x.wic1" ] && ok || fail "a refused join wrote its output"
expect_exit 1 "join a frame and a clip" -- "$WAI" join "$TMP/c000.wcf1" "$ROOT/tests/corpus/neural/cond/valid/size_8x12/clip.wic1" -o "$TMP/x.wic1"
expect_contains "a WIC1 is no WCF1" "format_capability_mismatch" "$TMP/err"
expect_exit 0 "split the 8x12 clip" -- "$WAI" split "$ROOT/tests/corpus/neural/cond/valid/size_8x12/clip.wic1" -o "$TMP/p%d.wcf1"
expect_exit 1 "a 16x16 intra frame and an 8x12 inter frame" -- "$WAI" join "$TMP/c000.wcf1" "$TMP/p1.wcf1" -o "$TMP/x.wic1"
expect_contains "geometry_mismatch" "geometry_mismatch" "$TMP/err"
head -c 100 "$V/clip.wic1" >"$TMP/cut.wic1"
expect_exit 1 "split a cut clip" -- "$WAI" split "$TMP/cut.wic1" -o "$TMP/q%d.wcf1"
expect_contains "stream_length" "stream_length" "$TMP/err"
[ ! -e "$TMP/q0.wcf1" ] && ok || fail "a refused split wrote a frame"
expect_exit 2 "split an image" -- "$WAI" split "$ROOT/examples/hello.wih1" -o "$TMP/r%d"
expect_exit 2 "join a clip" -- "$WAI" join "$V/clip.wic1" -o "$TMP/x.wic1"

# Outputs: every name checked before the first is written; -y; never an input.
expect_exit 2 "split over existing frames" -- "$WAI" split "$V/clip.wic1" -o "$TMP/c%03d.wcf1"
expect_contains "-y" "give -y" "$TMP/err"
expect_exit 0 "split -y" -- "$WAI" split -y "$V/clip.wic1" -o "$TMP/c%03d.wcf1"
expect_exit 2 "join over one of its frames" -- "$WAI" join -y "$TMP"/c00?.wcf1 -o "$TMP/c000.wcf1"
cmp -s "$TMP/c000.wcf1" "$V/f000.wcf1" && ok || fail "an input was overwritten"
expect_exit 2 "split to standard output" -- "$WAI" split "$V/clip.wic1" -o -
expect_exit 2 "a name with no %d" -- "$WAI" split "$V/clip.wic1" -o "$TMP/plain.wcf1"
expect_exit 2 "split two clips" -- "$WAI" split "$V/clip.wic1" "$V/clip.wic1" -o "$TMP/s%d"
expect_exit 2 "no -o" -- "$WAI" join "$TMP/c000.wcf1"
expect_exit 2 "--max-memory under the clip" -- "$WAI" split --max-memory 100 "$V/clip.wic1" -o "$TMP/m%d"
expect_exit 0 "help split" -- "$WAI" help split
expect_exit 0 "help join" -- "$WAI" help join

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
