#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai export --json and wai convert (integer-payloads §10,
# docs/json-forms.md): the shipped examples to their forms and back, byte
# for byte; a form decodes as nothing (bad_magic); the refusals' exit
# statuses and codes; outputs never over an input.
# usage: tests/tool/test_convert.sh WAI_BINARY
set -u
WAI=${1:?usage: test_convert.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
J=$ROOT/tests/corpus/json
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

expect_exit 0 "export a WIV1" -- "$WAI" export --json "$ROOT/examples/hello.wiv1" -o "$TMP/h.json"
expect_contains "its vectors" '"mvs": [[]' "$TMP/h.json"
expect_exit 0 "convert it back" -- "$WAI" convert --capability wai.video.int_motion "$TMP/h.json" -o "$TMP/h.wiv1"
cmp -s "$TMP/h.wiv1" "$ROOT/examples/hello.wiv1" && ok || fail "WIV1 -> JSON -> WIV1 is not byte-exact"
expect_exit 0 "export a WIH1 to standard output" -- "$WAI" export --json "$ROOT/examples/hello.wih1" -o -
cp "$TMP/out" "$TMP/k.json"
expect_exit 0 "convert the WIH1 form" -- "$WAI" convert --capability wai.neural.int_hyper "$TMP/k.json" -o "$TMP/k.wih1"
cmp -s "$TMP/k.wih1" "$ROOT/examples/hello.wih1" && ok || fail "WIH1 -> JSON -> WIH1 is not byte-exact"
expect_exit 0 "the converted clip decodes as the example" -- "$WAI" decode --json "$TMP/h.wiv1"
cp "$TMP/out" "$TMP/a.txt"
expect_exit 0 "the example decodes" -- "$WAI" decode --json "$ROOT/examples/hello.wiv1"
cmp -s "$TMP/out" "$TMP/a.txt" && ok || fail "different frames"

# WIA1: audio.json beside the form, the set's model.wam; WIS1: g_s.whm.
A=$ROOT/tests/corpus/neural/audio
S=$ROOT/tests/corpus/neural/splat
expect_exit 0 "export a WIA1 and its audio.json" -- "$WAI" export --json "$A/clip0.wia1" --audio "$TMP/audio.json" -o "$TMP/a.json"
expect_contains "the sample rate" '"sample_rate": ' "$TMP/audio.json"
expect_exit 0 "convert it back" -- "$WAI" convert --capability wai.audio.int_codec --audio "$TMP/audio.json" --set "$A/set0" "$TMP/a.json" -o "$TMP/a.wia1"
cmp -s "$TMP/a.wia1" "$A/clip0.wia1" && ok || fail "WIA1 -> JSON -> WIA1 is not byte-exact"
expect_exit 2 "a WIA1 form needs --audio" -- "$WAI" convert --capability wai.audio.int_codec --set "$A/set0" "$TMP/a.json" -o "$TMP/x.wia1"
expect_exit 2 "and --set" -- "$WAI" convert --capability wai.audio.int_codec --audio "$TMP/audio.json" "$TMP/a.json" -o "$TMP/x.wia1"
expect_exit 1 "afrac not the model's" -- "$WAI" convert --capability wai.audio.int_codec --audio "$J/audio.json" --set "$A/set0" "$J/audio_afrac_not_the_models.json" -o "$TMP/x.wia1"
expect_contains "model_mismatch" "model_mismatch" "$TMP/err"
expect_exit 2 "--audio of a WIV1" -- "$WAI" export --json "$ROOT/examples/hello.wiv1" --audio "$TMP/x.json" -o "$TMP/y.json"
expect_exit 0 "export a WIS1" -- "$WAI" export --json "$S/attrs0.wis1" -o "$TMP/s.json"
expect_contains "its ranges, shortest" '"ranges": [[' "$TMP/s.json"
expect_exit 0 "convert it back" -- "$WAI" convert --capability wai.splat.int_codec --set "$S/set0" "$TMP/s.json" -o "$TMP/s.wis1"
cmp -s "$TMP/s.wis1" "$S/attrs0.wis1" && ok || fail "WIS1 -> JSON -> WIS1 is not byte-exact"
expect_exit 1 "a range no binary32 holds" -- "$WAI" convert --capability wai.splat.int_codec --set "$S/set0" "$J/splat_tenth_binary64.json" -o "$TMP/x.wis1"
expect_contains "field_range" "field_range" "$TMP/err"

# A form is no payload.
expect_exit 1 "decode a form" -- "$WAI" decode --json "$TMP/h.json"
expect_contains "bad_magic" '"status": "bad_magic"' "$TMP/out"

# Refusals: exit 1 with the code.
expect_exit 1 "mv_precision 3" -- "$WAI" convert --capability wai.video.int_motion "$J/clip_mv_precision_3.json" -o "$TMP/x.wiv1"
expect_contains "field_range" "field_range" "$TMP/err"
[ ! -e "$TMP/x.wiv1" ] && ok || fail "a refused convert wrote its output"
expect_exit 1 "not JSON" -- "$WAI" convert --capability wai.video.int_motion "$J/not_json.json" -o "$TMP/x.wiv1"
expect_contains "payload_malformed" "payload_malformed" "$TMP/err"
expect_exit 1 "a WIV1 form as int_hyper" -- "$WAI" convert --capability wai.video.int_hyper "$J/clip.json" -o "$TMP/x.wiv1"
expect_contains "keyframe_capability_mismatch" "keyframe_capability_mismatch" "$TMP/err"
expect_exit 1 "a capability with no form" -- "$WAI" convert --capability wai.video.int_cond "$J/clip.json" -o "$TMP/x.wic1"
expect_contains "unsupported_capability" "unsupported_capability" "$TMP/err"
head -c 100 "$ROOT/examples/hello.wiv1" >"$TMP/cut.wiv1"
expect_exit 1 "export a cut clip" -- "$WAI" export --json "$TMP/cut.wiv1" -o "$TMP/cut.json"
expect_contains "its parse's code" "stream_length" "$TMP/err"

# Usage.
expect_exit 2 "convert without --capability" -- "$WAI" convert "$J/clip.json" -o "$TMP/x.wiv1"
expect_exit 2 "export without --json" -- "$WAI" export "$ROOT/examples/hello.wiv1" -o "$TMP/x.json"
expect_exit 2 "no -o" -- "$WAI" export --json "$ROOT/examples/hello.wiv1"
expect_exit 2 "two inputs" -- "$WAI" export --json "$ROOT/examples/hello.wiv1" "$ROOT/examples/hello.wih1" -o "$TMP/x.json"
expect_exit 2 "over an existing file" -- "$WAI" export --json "$ROOT/examples/hello.wiv1" -o "$TMP/h.json"
expect_exit 0 "-y replaces it" -- "$WAI" export -y --json "$ROOT/examples/hello.wiv1" -o "$TMP/h.json"
expect_exit 2 "never over the input" -- "$WAI" convert -y --capability wai.video.int_motion "$TMP/h.json" -o "$TMP/h.json"
expect_exit 0 "help export" -- "$WAI" help export
expect_exit 0 "help convert" -- "$WAI" help convert

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
