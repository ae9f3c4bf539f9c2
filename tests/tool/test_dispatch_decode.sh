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
# An integer path for a capability registered below decode-equivalence
# (bmshj2018: Neural, none): it has no integer networks to compute (§3).
B=$ROOT/examples/bmshj2018
expect_exit 1 "bmshj2018 on the integer paths" -- "$WAI" decode --json --offer int,wgsl \
    --set "$B/sets/q3" "$B/chelsea.b18f"
expect_contains "arithmetic_mismatch on both" '"refused": [{"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer", "reason": "dispatch_arithmetic_mismatch"}, {"unit": "gpu", "backend": "wgsl", "arithmetic": "integer", "reason": "dispatch_arithmetic_mismatch"}]' "$TMP/out"
expect_contains "not_dispatchable" '"status": "not_dispatchable"' "$TMP/out"
# A float path at the tier the decode needs, not the one registered: a
# pin stating decode-equivalence refuses bmshj2018's float paths (L5b).
expect_exit 1 "bmshj2018 under --pin-tier decode-equivalence" -- "$WAI" decode --json \
    --pin-tier decode-equivalence --offer cpu --set "$B/sets/q3" "$B/chelsea.b18f"
expect_contains "the float path refused by tier" '"needed": "decode-equivalence", "ran": null, "refused": [{"unit": "cpu", "backend": "webnn", "arithmetic": "float", "reason": "dispatch_tier_refused"}]' "$TMP/out"
expect_exit 1 "bmshj2018 under --intent replicate" -- "$WAI" decode --json \
    --intent replicate --offer cpu --set "$B/sets/q3" "$B/chelsea.b18f"
expect_contains "replicate: refused by tier" '"reason": "dispatch_tier_refused"' "$TMP/out"
# The default offer, path by path (docs/dispatch.md): the integer
# hyperprior's float paths refused by tier, the GPU's integer path asked
# before the CPU's (and absent here), the CPU's run.
expect_exit 0 "the default offer's report" -- "$WAI" decode --report "${img[@]}"
expect_contains "every path in the default order" "$RAN"', "refused": [{"unit": "npu", "backend": "model-runtime", "arithmetic": "float", "reason": "dispatch_tier_refused"}, {"unit": "gpu", "backend": "webnn", "arithmetic": "float", "reason": "dispatch_tier_refused"}, {"unit": "cpu", "backend": "webnn", "arithmetic": "float", "reason": "dispatch_tier_refused"}, {"unit": "cpu", "backend": "onnx-runtime", "arithmetic": "float", "reason": "dispatch_tier_refused"}, {"unit": "gpu", "backend": "wgsl", "arithmetic": "integer", "reason": "dispatch_unit_absent"}]}' "$TMP/out"
# Each refusal the native WebNN path can give (§4 step 2), in a copy of
# bmshj2018's set without its listing: the program absent, a program of
# another latent shape, weights it cannot build from. Every other path is
# refused as before, in the default order, and the decode is
# not_dispatchable.
b18_refused() {
    local what=$1 reason=$2
    expect_exit 1 "bmshj2018, $what" -- "$WAI" decode --json --set "$TMP/b18" "$B/chelsea.b18f"
    expect_contains "$what: cpu/webnn $reason, the others as ever" '"ran": null, "refused": [{"unit": "npu", "backend": "model-runtime", "arithmetic": "float", "reason": "dispatch_unit_absent"}, {"unit": "gpu", "backend": "webnn", "arithmetic": "float", "reason": "dispatch_unit_absent"}, {"unit": "cpu", "backend": "webnn", "arithmetic": "float", "reason": "'"$reason"'"}, {"unit": "cpu", "backend": "onnx-runtime", "arithmetic": "float", "reason": "dispatch_unit_absent"}, {"unit": "gpu", "backend": "wgsl", "arithmetic": "integer", "reason": "dispatch_arithmetic_mismatch"}, {"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer", "reason": "dispatch_arithmetic_mismatch"}]}}' "$TMP/out"
    expect_contains "$what: not_dispatchable" '"status": "not_dispatchable"' "$TMP/out"
}
b18_copy() { rm -rf "$TMP/b18"; cp -r "$B/sets/q3" "$TMP/b18"; rm "$TMP/b18/listing.json"; }
b18_copy; rm "$TMP/b18/decoder.webnn.json"
b18_refused "no decoder.webnn.json" dispatch_program_absent
b18_copy
sed -i '0,/^    96,$/s//    95,/' "$TMP/b18/decoder.webnn.json"
b18_refused "a program for 95 channels" dispatch_shape_mismatch
b18_copy; head -c 1000 "$B/sets/q3/decoder.f32" >"$TMP/b18/decoder.f32"
b18_refused "weights cut short" dispatch_backend_failed
b18_copy
expect_exit 0 "the copy as it was" -- "$WAI" decode --json --set "$TMP/b18" "$B/chelsea.b18f"
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
