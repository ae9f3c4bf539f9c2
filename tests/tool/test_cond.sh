#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai.video.int_cond and .frame (docs/int_cond.md) and wai.neural.int_mlicpp
# (docs/int_mlicpp.md) through the tool: inspect and its declared cost,
# decode with the integer dispatch report and the cost limit, a clip and its
# frames as one group giving the same Y4M, PNG/raw outputs.
# usage: tests/tool/test_cond.sh WAI_BINARY
set -u
WAI=${1:?usage: test_cond.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
V=$ROOT/tests/corpus/neural/cond/valid/six_frames
M=$ROOT/tests/corpus/neural/mlic/valid/two_slices
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
INTEGER='"ran": {"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer", "tier": "decode-equivalence"'

# inspect: the header, and with the set the cost (reading S20).
expect_exit 0 "inspect a clip" -- "$WAI" inspect "$V/clip.wic1"
expect_contains "the clip's header" '"header": {"n_frames": 6, "h": 16, "w": 16, "m": 2, "sh": 4, "sw": 4, "cf": 3}' "$TMP/out"
expect_exit 0 "inspect an inter frame" -- "$WAI" inspect "$V/f001.wcf1"
expect_contains "its kind" '"kind": "inter"' "$TMP/out"
expect_exit 0 "inspect --cost --set" -- "$WAI" inspect --cost --set "$V" "$V/clip.wic1"
expect_contains "six frames' work" '"work": 478656' "$TMP/out"

# decode: six frames on the integer path; the limit at the work and under it.
expect_exit 0 "decode --json" -- "$WAI" decode --json --set "$V" "$V/clip.wic1"
[ "$(grep -o '"kind": "frame"' "$TMP/out" | wc -l)" -eq 6 ] && ok || fail "six frames"
expect_contains "on the integer path" "$INTEGER" "$TMP/out"
expect_exit 0 "--max-cost at the work" -- "$WAI" decode --json --max-cost 478656 --set "$V" "$V/clip.wic1"
expect_exit 1 "--max-cost one under" -- "$WAI" decode --json --max-cost 478655 --set "$V" "$V/clip.wic1"
expect_contains "refused by cost" '"status": "cost_over_limit", "outputs": []' "$TMP/out"
expect_exit 1 "no set" -- "$WAI" decode --json "$V/clip.wic1"
expect_contains "set_incomplete" '"status": "set_incomplete"' "$TMP/out"

# The clip and its frames as one group: the same Y4M, byte for byte.
expect_exit 0 "decode the clip to Y4M" -- "$WAI" decode --set "$V" "$V/clip.wic1" -o "$TMP/clip.y4m"
expect_exit 0 "decode the group to Y4M" -- "$WAI" decode --capability wai.video.int_cond.frame --set "$V" \
    "$V/f000.wcf1" "$V/f001.wcf1" "$V/f002.wcf1" "$V/f003.wcf1" "$V/f004.wcf1" "$V/f005.wcf1" -o "$TMP/group.y4m"
cmp -s "$TMP/clip.y4m" "$TMP/group.y4m" && ok || fail "the clip and its group give different Y4M"
head -c 9 "$TMP/clip.y4m" | grep -q '^YUV4MPEG2' && ok || fail "not a Y4M"
expect_exit 0 "decode to PNG frames" -- "$WAI" decode --set "$V" "$V/clip.wic1" -o "$TMP/f%d.png"
[ -s "$TMP/f0.png" ] && [ -s "$TMP/f5.png" ] && [ ! -e "$TMP/f6.png" ] && ok || fail "six PNG files"
expect_exit 0 "decode to raw RGB" -- "$WAI" decode --set "$V" "$V/clip.wic1" -o "$TMP/c.rgb"
[ "$(wc -c <"$TMP/c.rgb")" -eq 4608 ] && ok || fail "six 16x16 RGB frames are 4608 bytes"
expect_exit 1 "an inter frame alone has no group" -- "$WAI" decode --json --capability wai.video.int_cond.frame --set "$V" "$V/f001.wcf1"
expect_contains "field_range" '"status": "field_range"' "$TMP/out"

# WIM1: inspect, cost, decode to PNG, the report.
expect_exit 0 "inspect a WIM1 --cost" -- "$WAI" inspect --cost --set "$M" "$M/image.wim1"
expect_contains "WIM1" '"format": "WIM1"' "$TMP/out"
expect_contains "its cost" '"cost": {' "$TMP/out"
expect_exit 0 "decode a WIM1 --json" -- "$WAI" decode --json --set "$M" "$M/image.wim1"
expect_contains "an image" '"kind": "image"' "$TMP/out"
expect_contains "on the integer path" "$INTEGER" "$TMP/out"
expect_exit 0 "decode a WIM1 to PNG" -- "$WAI" decode --set "$M" "$M/image.wim1" -o "$TMP/m.png"
[ -s "$TMP/m.png" ] && ok || fail "no PNG or PPM written"

expect_exit 0 "capabilities" -- "$WAI" capabilities
grep -q "^wai.video.int_cond .* yes .*model.wcb" "$TMP/out" && ok || fail "capabilities: int_cond decodes"
grep -q "^wai.neural.int_mlicpp .* yes .*model.wmb" "$TMP/out" && ok || fail "capabilities: int_mlicpp decodes"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
