#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# neural-dispatch through `wai decode` (docs/dispatch.md): the report a
# neural decode carries, --report, --offer, --intent and --pin-tier.
# usage: tests/tool/test_dispatch_decode.sh WAI_BINARY
set -u
WAI=${1:?usage: test_dispatch_decode.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=$ROOT/tests/corpus/neural
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
img=("$N/hyper/image0.wih1" --set "$N/hyper/set0")
RAN='"ran": {"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer", "tier": "decode-equivalence", "placement": null}'

expect_exit 0 "--report" -- "$WAI" decode --report "${img[@]}"
expect_contains "--report prints the report alone" '{"kind": "wai-neural-dispatch/1", "capability": "wai.neural.int_hyper", "needed": "decode-equivalence", '"$RAN" "$TMP/out"
[ "$(wc -l <"$TMP/out")" -eq 1 ] && ok || fail "--report prints one line"
expect_exit 0 "--offer int" -- "$WAI" decode --report --offer int "${img[@]}"
expect_contains "only the integer path offered" "$RAN"', "refused": []}' "$TMP/out"
expect_exit 0 "--offer npu,int" -- "$WAI" decode --report --offer npu,int "${img[@]}"
expect_contains "the npu refused by tier" '"refused": [{"unit": "npu", "backend": "model-runtime", "arithmetic": "float", "reason": "dispatch_tier_refused"}]' "$TMP/out"
expect_exit 1 "every path refused" -- "$WAI" decode --json --offer npu,wgsl "${img[@]}"
expect_contains "every path refused is not_dispatchable" '"status": "not_dispatchable", "outputs": [], "report": ' "$TMP/out"
expect_contains "the npu's reason in the report" '{"unit": "npu", "backend": "model-runtime", "arithmetic": "float", "reason": "dispatch_tier_refused"}' "$TMP/out"
expect_contains "wgsl absent" '{"unit": "gpu", "backend": "wgsl", "arithmetic": "integer", "reason": "dispatch_unit_absent"}' "$TMP/out"
expect_exit 1 "every path refused, plain" -- "$WAI" decode --offer npu,wgsl "${img[@]}" -o "$TMP/x.png"
expect_contains "the refusal line names each path's reason" 'refused: not_dispatchable (no path can run this decode'"'"'s networks); every path refused: npu/model-runtime/float dispatch_tier_refused, gpu/wgsl/integer dispatch_unit_absent' "$TMP/err"
expect_exit 0 "--intent replicate" -- "$WAI" decode --report --intent replicate --pin-tier decode-equivalence "${img[@]}"
expect_contains "still decode-equivalence" "$RAN" "$TMP/out"
expect_exit 2 "an unknown offer token" -- "$WAI" decode --offer tpu "${img[@]}"
expect_exit 2 "--report with --json" -- "$WAI" decode --report --json "${img[@]}"
# A refusal before the dispatch (the set) carries no report.
expect_exit 1 "no set" -- "$WAI" decode --json "$N/hyper/image0.wih1"
expect_contains "no report before the dispatch" '{"capability": "wai.neural.int_hyper", "status": "set_incomplete", "outputs": []}' "$TMP/out"
# Motion video runs no network: no report, and --report says so (docs/dispatch.md §5).
expect_exit 0 "--report of a motion clip" -- "$WAI" decode --report "$ROOT/examples/hello.wiv1"
if [ -s "$TMP/out" ]; then fail "--report of a motion clip printed: $(cat "$TMP/out")"; else ok; fi
expect_contains "says it runs no networks" "wai.video.int_motion runs no networks, so it has no dispatch report" "$TMP/err"
expect_exit 0 "--json of a motion clip" -- "$WAI" decode --json "$ROOT/examples/hello.wiv1"
if grep -q '"report"' "$TMP/out"; then fail "a motion clip's --json has a report"; else ok; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
