#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The instruction set level cap (wai decode --cpu-level, wai_settings
# cpu_level): every capability's decode gives the portable level's bytes at
# every other level this build's architecture has and at the host's
# (docs/integer-operators.md, "Fast kernels"); each cap runs at the level
# --json reports, the cap's own or, above the CPU's, the CPU's; one of
# another architecture, or no level at all, is a usage error.
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
# the tool accepts them (all four on x86-64, where a level above the CPU's
# runs the CPU's).
levels=(portable)
for l in avx2 avx512 avx512bw avx512vnni; do
    "$WAI" decode --cpu-level "$l" "$ROOT/examples/hello.wiv1" >/dev/null 2>&1 && levels+=("$l")
done
if [ "$(uname -m)" = x86_64 ]; then want_levels=5; else want_levels=1; fi
[ "${#levels[@]}" -eq "$want_levels" ] && ok || fail "levels known: ${levels[*]}, want $want_levels"
# The level a cap runs at, as --json reports it: the lower of the cap and
# the CPU's best (the top level's report says which that is).
ran_at() { sed -n 's/.*"cpu_level": "\([a-z0-9]*\)".*/\1/p' "$1"; }
"$WAI" decode --json --cpu-level "${levels[${#levels[@]} - 1]}" "$ROOT/examples/hello.wiv1" >"$TMP/top"
best=$(ran_at "$TMP/top")
rank() { local i; for i in "${!levels[@]}"; do [ "${levels[i]}" = "$1" ] && echo "$i"; done; }
[ -n "$best" ] && [ -n "$(rank "$best")" ] && ok || fail "the CPU's best level: '$best'"
for c in "${cases[@]}"; do
    read -r set payload cap <<<"$c"
    [ -e "$payload" ] || { fail "no corpus file $payload"; continue; }
    args=(decode --json)
    [ "$set" = - ] || args+=(--set "$set")
    [ -z "$cap" ] || args+=(--capability "$cap")
    # The reference: the portable level's decode (the C kernels), never a
    # level against itself.
    "$WAI" "${args[@]}" --cpu-level portable "$payload" >"$TMP/ref" 2>&1
    grep -q '"status": "ok"' "$TMP/ref" && ok || fail "$(basename "$payload") decodes: $(head -c 200 "$TMP/ref")"
    [ "$(ran_at "$TMP/ref")" = portable ] && ok || fail "$(basename "$payload"): portable ran at $(ran_at "$TMP/ref")"
    sed 's/, "cpu_level": "[a-z0-9]*"//' "$TMP/ref" >"$TMP/ref.bytes"
    "$WAI" "${args[@]}" "$payload" >"$TMP/host" 2>&1
    cmp -s "$TMP/ref.bytes" "$TMP/host" && ok || fail "$(basename "$payload") at the host level differs from portable"
    for l in "${levels[@]:1}"; do
        "$WAI" "${args[@]}" --cpu-level "$l" "$payload" >"$TMP/at" 2>&1
        sed 's/, "cpu_level": "[a-z0-9]*"//' "$TMP/at" | cmp -s "$TMP/ref.bytes" - && ok ||
            fail "$(basename "$payload") at $l differs from portable"
        want=$l
        [ "$(rank "$l")" -gt "$(rank "$best")" ] && want=$best
        [ "$(ran_at "$TMP/at")" = "$want" ] && ok ||
            fail "$(basename "$payload"): the cap $l ran at $(ran_at "$TMP/at"), want $want"
    done
done
expect_exit 2 "a level no build has" -- "$WAI" decode --cpu-level sve "$ROOT/examples/hello.wiv1"
expect_contains "the levels named" "host, portable" "$TMP/err"
# wasm128 is the WebAssembly build's level: no native tool has it.
expect_exit 2 "another architecture's level" -- "$WAI" decode --cpu-level wasm128 "$ROOT/examples/hello.wiv1"
expect_contains "said so" "not a level of this build's CPU architecture" "$TMP/err"
expect_exit 2 "--cpu-level without a level" -- "$WAI" decode "$ROOT/examples/hello.wiv1" --cpu-level
expect_exit 0 "--cpu-level host" -- "$WAI" decode --cpu-level host "$ROOT/examples/hello.wiv1"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
