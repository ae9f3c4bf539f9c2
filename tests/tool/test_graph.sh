#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai graph: a small description run on known inputs (its outputs' bytes
# and summary checked), the weights file found beside it, --shape, the
# reference kernels giving the same bytes here, the describe-only form,
# and every refusal: WebNN's (DataError, NotSupportedError) exit 1, the
# tool's own (inputs missing or of the wrong size, a name it lacks, an
# output that exists) exit 2 and write nothing.
WAI="$1"
source "$(dirname "$0")/lib.bash"

# f32 V...: the values as float32 little-endian bytes (exact for these).
f32() {
    local v
    for v in "$@"; do
        case "$v" in
            0) printf '\x00\x00\x00\x00' ;;
            1) printf '\x00\x00\x80\x3f' ;;
            2) printf '\x00\x00\x00\x40' ;;
            3) printf '\x00\x00\x40\x40' ;;
            5) printf '\x00\x00\xa0\x40' ;;
            -1) printf '\x00\x00\x80\xbf' ;;
            -3) printf '\x00\x00\x40\xc0' ;;
            *) echo "f32: no $v" >&2; return 1 ;;
        esac
    done
}

# y = relu(conv2d(x, w) + b): w is 2 from the weights file, b is -1 inline,
# so y = max(2x - 1, 0); s = reduceSum(y) of every element.
cat >"$TMP/g.webnn.json" <<'EOF'
{"kind": "wai-webnn-graph/1",
 "inputs": {"x": {"dataType": "float32", "shape": [1, 1, 2, 2]}},
 "constants": {"w": {"dataType": "float32", "shape": [1, 1, 1, 1], "offset": 0},
               "b": {"dataType": "float32", "shape": [1], "data": [-1]}},
 "operators": [
  {"name": "conv2d", "arguments": [{"input": "x"}, {"filter": "w"}, {"options": {"bias": "b"}}],
   "outputs": "c"},
  {"name": "relu", "arguments": [{"input": "c"}], "outputs": "y"},
  {"name": "reduceSum", "arguments": [{"input": "y"}], "outputs": "s"}],
 "outputs": {"y": "y", "s": "s"}}
EOF
f32 2 >"$TMP/g.f32"
f32 1 2 0 -1 >"$TMP/x.f32"   # y = 1 3 0 0, s = 4
f32 1 3 0 0 >"$TMP/want_y.f32"

expect_exit 0 "describe" -- "$WAI" graph "$TMP/g.webnn.json"
expect_contains "describe: weights beside" "\"weights\": \"$TMP/g.f32\"" "$TMP/out"
expect_contains "describe: operators" '"operators": 3' "$TMP/out"
expect_contains "describe: inputs" '"inputs": [{"name": "x", "data_type": "float32", "shape": [1, 1, 2, 2]}]' "$TMP/out"
expect_contains "describe: outputs" '{"name": "s", "data_type": "float32", "shape": []}' "$TMP/out"

mkdir "$TMP/o"
expect_exit 0 "run" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" -o "$TMP/o"
if cmp -s "$TMP/o/y.f32" "$TMP/want_y.f32"; then ok; else fail "run: y.f32 is not 1 3 0 0"; fi
expect_contains "run: y summary" '"min": 0, "max": 3, "mean": 1, "nan": 0' "$TMP/out"
expect_contains "run: s" '"name": "s", "data_type": "float32", "shape": [], "sha256": ' "$TMP/out"
expect_contains "run: s value" '"min": 4, "max": 4, "mean": 4' "$TMP/out"
want_sha=$(sha256sum "$TMP/want_y.f32" | cut -d' ' -f1)
expect_contains "run: y sha256" "\"sha256\": \"$want_sha\"" "$TMP/out"
if [ "$(wc -c <"$TMP/o/s.f32")" -eq 4 ]; then ok; else fail "run: s.f32 is not one float32"; fi

expect_exit 0 "reference kernels" -- "$WAI" graph --reference "$TMP/g.webnn.json" \
    --input x="$TMP/x.f32" --output y="$TMP/ref_y.f32"
if cmp -s "$TMP/ref_y.f32" "$TMP/want_y.f32"; then ok; else fail "reference: y differs"; fi
expect_contains "reference: named" '"kernels": "reference"' "$TMP/out"
expect_contains "reference: s not written" '"file": null' "$TMP/out"

# --output to standard output: the bytes there, the line on stderr.
"$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" --output y=- >"$TMP/stdout" 2>"$TMP/err"
if cmp -s "$TMP/stdout" "$TMP/want_y.f32"; then ok; else fail "stdout: not y's bytes alone"; fi
expect_contains "stdout: the line on stderr" '"file": "-"' "$TMP/err"

# --shape: the same description on a 1x1x1x3 input; --time adds the figures.
f32 3 0 1 >"$TMP/x3.f32"
expect_exit 0 "shape" -- "$WAI" graph "$TMP/g.webnn.json" --shape x=1,1,1,3 --input x="$TMP/x3.f32" --time --reps 3
expect_contains "shape: output" '"name": "y", "data_type": "float32", "shape": [1, 1, 1, 3]' "$TMP/out"
expect_contains "shape: s" '"min": 6, "max": 6' "$TMP/out"
expect_contains "shape: time" '"compute_ms": ' "$TMP/out"
expect_contains "shape: reps" '"reps": 3}' "$TMP/out"
expect_exit 2 "reps 0" -- "$WAI" graph "$TMP/g.webnn.json" --reps 0

# --weights explicit: another file of the same layout (w = 1: y = max(x-1,0)).
f32 1 >"$TMP/w1.bin"
expect_exit 0 "weights" -- "$WAI" graph "$TMP/g.webnn.json" --weights "$TMP/w1.bin" --input x="$TMP/x.f32"
expect_contains "weights: sum" '"min": 1, "max": 1, "mean": 1' "$TMP/out"

# WebNN's refusals: exit 1, the error's name and message on stderr.
: >"$TMP/empty"
expect_exit 1 "weights empty" -- "$WAI" graph "$TMP/g.webnn.json" --weights "$TMP/empty"
expect_contains "weights empty: DataError" "DataError" "$TMP/err"
expect_exit 1 "gpu" -- "$WAI" graph --device gpu "$TMP/g.webnn.json"
expect_contains "gpu: NotSupportedError" "NotSupportedError" "$TMP/err"
expect_exit 1 "shape wrong rank" -- "$WAI" graph "$TMP/g.webnn.json" --shape x=4
expect_contains "shape wrong rank: error" "Error" "$TMP/err"
sed 's/"relu"/"relu6"/' "$TMP/g.webnn.json" >"$TMP/bad.json"
expect_exit 1 "unknown operation" -- "$WAI" graph "$TMP/bad.json" --weights "$TMP/g.f32"
expect_contains "unknown operation: message" "no operation 'relu6'" "$TMP/err"
printf '{"kind": "wai-webnn-graph/1"' >"$TMP/cut.json"
expect_exit 1 "not JSON" -- "$WAI" graph "$TMP/cut.json"

# The tool's own refusals: exit 2, nothing written.
mkdir "$TMP/o2"
expect_exit 2 "input missing" -- "$WAI" graph "$TMP/g.webnn.json" -o "$TMP/o2"
f32 1 2 >"$TMP/x_short.f32"
expect_exit 2 "input size" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x_short.f32" -o "$TMP/o2"
expect_contains "input size: message" "takes 16" "$TMP/err"
expect_exit 2 "input name" -- "$WAI" graph "$TMP/g.webnn.json" --input z="$TMP/x.f32"
expect_exit 2 "input twice" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" --input x="$TMP/x.f32"
expect_exit 2 "output name" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" --output q="$TMP/o2/q"
expect_exit 2 "shape name" -- "$WAI" graph "$TMP/g.webnn.json" --shape q=1,1
expect_exit 2 "shape value" -- "$WAI" graph "$TMP/g.webnn.json" --shape x=1,,2
expect_exit 2 "shape type" -- "$WAI" graph "$TMP/g.webnn.json" --shape x=float64:1
expect_exit 2 "-o and --output" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" -o "$TMP/o2" --output y="$TMP/y"
expect_exit 2 "no description" -- "$WAI" graph
expect_exit 2 "two descriptions" -- "$WAI" graph "$TMP/g.webnn.json" "$TMP/g.webnn.json"
expect_exit 2 "unknown option" -- "$WAI" graph --bogus "$TMP/g.webnn.json"
expect_exit 2 "missing file" -- "$WAI" graph "$TMP/none.json"
if [ -z "$(ls -A "$TMP/o2")" ]; then ok; else fail "refusals wrote: $(ls "$TMP/o2")"; fi
# An existing output is refused before anything is computed; -y replaces it.
expect_exit 2 "output exists" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" -o "$TMP/o"
expect_exit 0 "output -y" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" -o "$TMP/o" -y
# An input is never an output.
expect_exit 2 "output is input" -- "$WAI" graph "$TMP/g.webnn.json" --input x="$TMP/x.f32" --output y="$TMP/x.f32" -y
if cmp -s "$TMP/x.f32" <(f32 1 2 0 -1); then ok; else fail "the input was overwritten"; fi

expect_exit 0 "help" -- "$WAI" help graph
for opt in --weights --shape --input -o --output --device --reference --threads --time --reps --max-memory -y; do
    expect_contains "help names $opt" "$opt" "$TMP/out"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
