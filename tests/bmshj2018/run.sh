#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run.sh BUILD: the float path's end-to-end checks, as CI runs them.
#  1. tools/learned/train.py --model bmshj2018 --smoke: three steps of training, a checkpoint
#     in CompressAI's layout (the converter's input, as a published one is);
#  2. tools/bmshj2018/make_set.py on it: the whole set, the export held to
#     the module, payloads of two held-out photographs (python3-skimage's
#     chelsea and coffee) coded through BUILD's libwai_python.so;
#  3. agreement.py on those payloads and on the shipped set's (examples/),
#     when it is there: libwai's decode against torch and ONNX Runtime
#     (onnxruntime-node, installed by tests/ci/install-deps.sh under
#     build/npm), the symbols against the tool's.
# Closes with "N passed, N failed" (the sum of agreement.py's, plus one for
# each step before it).
set -uo pipefail
BUILD="$(cd "$1" && pwd)"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
PY=/usr/bin/python3
WAI="$BUILD/tools/wai/wai"
LIB="$BUILD/libwai_python.so"
NODE_MODULES="${WAI_NODE_MODULES:-$REPO/build/npm/node_modules}"
PHOTOS=/usr/lib/python3/dist-packages/skimage/data
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
passed=0 failed=0

step() {
    local name="$1"; shift
    if "$@" >"$OUT/$name.log" 2>&1; then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"; tail -20 "$OUT/$name.log" | sed 's/^/  | /'
        return 1
    fi
}

# agreement NAME ARGS...: agreement.py's counts added to ours.
agreement() {
    local name="$1"; shift
    "$PY" "$REPO/tests/bmshj2018/agreement.py" --wai "$WAI" --node-modules "$NODE_MODULES" "$@" \
        >"$OUT/$name.log" 2>&1
    cat "$OUT/$name.log"
    local p f
    read -r p f < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$OUT/$name.log" | tail -1)
    if [[ -z "$p" ]]; then p=0 f=1; fi
    passed=$((passed + p)) failed=$((failed + f))
}

if [[ ! -d "$NODE_MODULES/onnxruntime-node" ]]; then
    echo "FAIL onnxruntime-node is not installed under $NODE_MODULES (tests/ci/install-deps.sh)"
    failed=$((failed + 1))
elif step train-smoke "$PY" "$REPO/tools/learned/train.py" --model bmshj2018 --smoke --out "$OUT/q.pt" &&
     step make-set "$PY" "$REPO/tools/bmshj2018/make_set.py" --checkpoint "$OUT/q.pt" \
         --out "$OUT/set" --lib "$LIB" \
         --payload "$OUT/chelsea.b18f=$PHOTOS/chelsea.png" \
         --payload "$OUT/coffee.b18f=$PHOTOS/coffee.png"; then
    agreement smoke-set --set "$OUT/set" "$OUT/chelsea.b18f=$PHOTOS/chelsea.png" \
        "$OUT/coffee.b18f=$PHOTOS/coffee.png"
fi
# The shipped set and payloads, decoded against their source photographs.
SHIPPED="$REPO/examples/bmshj2018"
if [[ -d "$SHIPPED/sets/q3" && -d "$NODE_MODULES/onnxruntime-node" ]]; then
    args=()
    for p in "$SHIPPED"/*.b18f; do
        base="$(basename "$p" .b18f)"
        args+=("$p=$PHOTOS/$base.png")
    done
    agreement shipped --set "$SHIPPED/sets/q3" "${args[@]}"
fi
echo "$passed passed, $failed failed"
((failed == 0))
