#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The instruction set level cap (wai decode --cpu-level, wai_settings
# cpu_level): every capability's decode gives the same bytes at every level
# this build's architecture has (docs/integer-operators.md, "Fast kernels"),
# a level above the CPU's runs the CPU's, and one of another architecture, or
# no level at all, is a usage error.
# usage: tests/tool/test_cpu_levels.sh WAI_BINARY
set -u
WAI=${1:?usage: test_cpu_levels.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=$ROOT/tests/corpus/neural
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# Each case: the set (or -), the payload and, where no magic names it, the
# capability.
cases=(
    "$N/hyper/set0 $N/hyper/image0.wih1"
    "$N/audio/set1 $N/audio/clip1.wia1"
    "$N/splat/set2 $N/splat/attrs2.wis1"
    "$N/hyper/set0 $N/video/clip0.wiv1"
    "$N/mlic/valid/one_slice $N/mlic/valid/one_slice/image.wim1"
    "$N/cond/valid/six_frames $N/cond/valid/six_frames/clip.wic1"
    "$N/synth/valid/three_layers_64x64 $N/synth/valid/three_layers_64x64/image.bin wai.neural.int_synth"
    "- $ROOT/examples/hello.wiv1"
)
# The levels this build knows: portable everywhere, the x86-64 ones where
# the tool accepts them.
levels=(portable)
for l in avx2 avx512 avx512bw avx512vnni; do
    "$WAI" decode --cpu-level "$l" "$ROOT/examples/hello.wiv1" >/dev/null 2>&1 && levels+=("$l")
done
for c in "${cases[@]}"; do
    read -r set payload cap <<<"$c"
    [ -e "$payload" ] || { fail "no corpus file $payload"; continue; }
    args=(decode --json)
    [ "$set" = - ] || args+=(--set "$set")
    [ -z "$cap" ] || args+=(--capability "$cap")
    "$WAI" "${args[@]}" "$payload" >"$TMP/host" 2>&1
    grep -q '"status": "ok"' "$TMP/host" && ok || fail "$(basename "$payload") decodes: $(head -c 200 "$TMP/host")"
    for l in "${levels[@]}"; do
        "$WAI" "${args[@]}" --cpu-level "$l" "$payload" >"$TMP/at" 2>&1
        cmp -s "$TMP/host" "$TMP/at" && ok || fail "$(basename "$payload") at $l differs from the host level"
    done
done
[ "${#levels[@]}" -ge 1 ] && ok || fail "no level"
expect_exit 2 "a level no build has" -- "$WAI" decode --cpu-level sve "$ROOT/examples/hello.wiv1"
expect_contains "the levels named" "host, portable" "$TMP/err"
# wasm128 is the WebAssembly build's level: no native tool has it.
expect_exit 2 "another architecture's level" -- "$WAI" decode --cpu-level wasm128 "$ROOT/examples/hello.wiv1"
expect_contains "said so" "not a level of this build's CPU architecture" "$TMP/err"
expect_exit 2 "--cpu-level without a level" -- "$WAI" decode "$ROOT/examples/hello.wiv1" --cpu-level
expect_exit 0 "--cpu-level host" -- "$WAI" decode --cpu-level host "$ROOT/examples/hello.wiv1"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
