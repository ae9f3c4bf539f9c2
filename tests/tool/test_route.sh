#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Routing through `wai decode --fallback` (integer-payloads §8): each of the
# four routing codes moves on to the fallback, any other refusal is final
# and the fallback is not tried; --json's "route" lists what was tried.
# usage: tests/tool/test_route.sh WAI_BINARY
set -u
WAI=${1:?usage: test_route.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
EX=$ROOT/examples
FB=(--fallback "wai.video.int_motion:$EX/hello.wiv1")
CLIP_OK='"route": [{"capability": "wai.neural.int_hyper", "status": "%s"}, {"capability": "wai.video.int_motion", "status": "ok"}]'

# set_incomplete: no set given.
expect_exit 0 "set_incomplete routes" -- "$WAI" decode --json "$EX/hello.wih1" "${FB[@]}"
expect_contains "the fallback decoded" '{"capability": "wai.video.int_motion", "status": "ok", "outputs": [{"kind": "frame"' "$TMP/out"
expect_contains "the route, set_incomplete" "$(printf "$CLIP_OK" set_incomplete)" "$TMP/out"
# not_dispatchable: no offered path can run the networks.
expect_exit 0 "not_dispatchable routes" -- "$WAI" decode --json --offer npu,wgsl --set "$EX/hello_set" "$EX/hello.wih1" "${FB[@]}"
expect_contains "the route, not_dispatchable" "$(printf "$CLIP_OK" not_dispatchable)" "$TMP/out"
# unsupported_capability: a capability this sink does not decode.
expect_exit 0 "unsupported_capability routes" -- "$WAI" decode --json --capability wai.video.unknown "$EX/hello.wih1" "${FB[@]}"
expect_contains "the route, unsupported_capability" '"route": [{"capability": "wai.video.unknown", "status": "unsupported_capability"}, {"capability": "wai.video.int_motion", "status": "ok"}]' "$TMP/out"
# cost_over_limit: the image's declared work is past the limit, the clip's is not.
work=$("$WAI" inspect --cost "$EX/hello.wiv1" | sed -n 's/.*"work": \([0-9]*\).*/\1/p')
[ -n "$work" ] && ok || fail "the clip's declared work"
expect_exit 0 "cost_over_limit routes" -- "$WAI" decode --json --max-cost "$work" --set "$EX/hello_set" "$EX/hello.wih1" "${FB[@]}"
expect_contains "the route, cost_over_limit" "$(printf "$CLIP_OK" cost_over_limit)" "$TMP/out"
# A payload refusal is final: the cut image with its set stops at stream_length.
head -c 200 "$EX/hello.wih1" >"$TMP/cut.wih1"
expect_exit 1 "stream_length stops" -- "$WAI" decode --json --set "$EX/hello_set" "$TMP/cut.wih1" "${FB[@]}"
expect_contains "no fallback tried" '{"capability": "wai.neural.int_hyper", "status": "stream_length", "outputs": [], "route": [{"capability": "wai.neural.int_hyper", "status": "stream_length"}]}' "$TMP/out"
# The fallback refused too: its status is the decode's, both in the route.
expect_exit 1 "the fallback refused" -- "$WAI" decode --json "$EX/hello.wih1" --fallback "wai.audio.int_codec:$EX/hello.wiv1"
expect_contains "both statuses" '"route": [{"capability": "wai.neural.int_hyper", "status": "set_incomplete"}, {"capability": "wai.audio.int_codec", "status": "format_capability_mismatch"}]' "$TMP/out"
# The fallback with its own set, the same FILE: the image decodes second time round.
expect_exit 0 "--fallback-set" -- "$WAI" decode --json "$EX/hello.wih1" --fallback wai.neural.int_hyper --fallback-set "$EX/hello_set"
expect_contains "the set's decode" '"route": [{"capability": "wai.neural.int_hyper", "status": "set_incomplete"}, {"capability": "wai.neural.int_hyper", "status": "ok"}]' "$TMP/out"
# Without --json: a line says why the fallback ran, then the fallback's own.
expect_exit 0 "plain" -- "$WAI" decode "$EX/hello.wih1" "${FB[@]}"
expect_contains "the routing line" "wai.neural.int_hyper: set_incomplete, so the fallback" "$TMP/err"
expect_contains "the fallback's summary" "wai.video.int_motion: ok, 3 frames" "$TMP/out"
# -o: the fallback's output is written.
expect_exit 0 "-o with a fallback" -- "$WAI" decode "$EX/hello.wih1" "${FB[@]}" -o "$TMP/clip.rgb"
[ "$(wc -c <"$TMP/clip.rgb")" -eq 3456 ] && ok || fail "the clip's frames written"
# Usage.
expect_exit 2 "--fallback-set alone" -- "$WAI" decode "$EX/hello.wih1" --fallback-set "$EX/hello_set"
expect_exit 2 "--fallback without a capability" -- "$WAI" decode "$EX/hello.wih1" --fallback :x

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
