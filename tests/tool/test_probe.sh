#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A caller's probe (wai_decoder_config.probe) end to end, as a player whose
# device driver answers neural-dispatch §4 would use it: the program
# tests/e2e/probe_plan.c, built beside the tool (BUILD/tests/wai_probe_plan),
# decodes the integer hyperprior under each answer. A plan that puts
# nothing on the path's unit refuses the path (dispatch_not_placed), one on
# it runs, an absent unit refuses; the report says so, path by path.
# usage: tests/tool/test_probe.sh WAI_BINARY
set -u
WAI=${1:?usage: test_probe.sh WAI_BINARY}
PROG=$(cd "$(dirname "$WAI")/../../tests" 2>/dev/null && pwd)/wai_probe_plan
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
N=$ROOT/tests/corpus/neural/hyper
members=("$N/set0"/*)
[ -x "$PROG" ] && ok || { fail "no $PROG (built with the tool's tests)"; echo "$passed passed, $failed failed"; exit 1; }

TIER='"reason": "dispatch_tier_refused"'
FLOATS='{"unit": "npu", "backend": "model-runtime", "arithmetic": "float", '$TIER'}, {"unit": "gpu", "backend": "webnn", "arithmetic": "float", '$TIER'}, {"unit": "cpu", "backend": "webnn", "arithmetic": "float", '$TIER'}, {"unit": "cpu", "backend": "onnx-runtime", "arithmetic": "float", '$TIER'}'
WGSL='{"unit": "gpu", "backend": "wgsl", "arithmetic": "integer", "reason": "dispatch_unit_absent"}'
INT='{"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer"'

# The decode's own bytes are the tool's: the probe changes only where it runs.
expect_exit 0 "yes to everything" -- "$PROG" yes "$N/image0.wih1" "${members[@]}"
[ "$(head -1 "$TMP/out")" = ok ] && ok || fail "yes: $(head -1 "$TMP/out")"
expect_contains "yes: the CPU's integer path ran, placement null" '"ran": '"$INT"', "tier": "decode-equivalence", "placement": null}, "refused": ['"$FLOATS, $WGSL"']}' "$TMP/out"

expect_exit 0 "a plan on the path's unit" -- "$PROG" on-unit "$N/image0.wih1" "${members[@]}"
[ "$(head -1 "$TMP/out")" = ok ] && ok || fail "on-unit: $(head -1 "$TMP/out")"
expect_contains "on-unit: ran, with the plan as placement" '"ran": '"$INT"', "tier": "decode-equivalence", "placement": {"npu": 0, "gpu": 0, "cpu": 1000, "unknown": 0}}' "$TMP/out"

expect_exit 0 "a plan with nothing on the path's unit" -- "$PROG" elsewhere "$N/image0.wih1" "${members[@]}"
[ "$(head -1 "$TMP/out")" = not_dispatchable ] && ok || fail "elsewhere: $(head -1 "$TMP/out")"
expect_contains "elsewhere: the integer path not placed" '"ran": null, "refused": ['"$FLOATS, $WGSL, $INT"', "reason": "dispatch_not_placed"}]}' "$TMP/out"

expect_exit 0 "every unit absent" -- "$PROG" no-unit "$N/image0.wih1" "${members[@]}"
[ "$(head -1 "$TMP/out")" = not_dispatchable ] && ok || fail "no-unit: $(head -1 "$TMP/out")"
expect_contains "no-unit: unit_absent" "$INT"', "reason": "dispatch_unit_absent"}]}' "$TMP/out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
