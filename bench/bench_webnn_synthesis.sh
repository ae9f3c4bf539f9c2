#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The float path's synthesis benchmark (issue 12): bmshj2018-factorized's
# synthesis at CompressAI's size (N 128, M 192) from a [192, 32, 48] latent
# to 512 x 768, weights from a seed, on 1 and 2 threads, through
#   - libwai's native WebNN (`wai graph --time`, best of REPS);
#   - oneDNN called directly (wai_bench_dnnl_synthesis: the same network as
#     an engineer would write it on oneDNN, blocked layouts, the IGDN's sqrt
#     and product as post-ops; best of REPS): the WebNN layer's cost;
#   - ONNX Runtime's CPU decode of the same synthesis (onnxruntime-node on
#     decoder.onnx, tests/bmshj2018/ort_decode.mjs, best of REPS);
#   - torch 1.13, its conv_transpose2d form and the sub-pixel form it trains
#     with.
# Each engine runs ROUNDS times, interleaved with the others, and its median
# is reported (this machine's timings wander by a third between runs).
# Then a whole decode: a 768 x 512 photograph coded with the same network
# (tools/bmshj2018/make_set.py), `wai decode` timed as a process, its peak
# resident memory against the declared cost's working_bytes.
#
#   bench/bench_webnn_synthesis.sh BUILD_DIR [REPS [ROUNDS]]   (5, 3)
set -eu
build=$(cd "$1" && pwd)
reps=${2:-5}
rounds=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
wai=$build/tools/wai/wai
direct=$build/bench/wai_bench_dnnl_synthesis
modules=${WAI_NODE_MODULES:-$repo/build/npm/node_modules}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

macs=$("$py" "$here/bench_webnn_synthesis.py" --make "$tmp" 2>/dev/null | sed -n 's/^macs //p')
json_ms() { sed -n 's/.*"compute_ms": \([0-9.]*\).*/\1/p'; }
declare -A runs   # KEY -> space-separated times

for ((r = 0; r < rounds; r++)); do
    for t in 1 2; do
        runs[webnn_t$t]+="$(OMP_NUM_THREADS=$t "$wai" graph "$tmp/decoder.webnn.json" --time \
            --reps "$reps" --threads "$t" --input y="$tmp/latent.f32" | json_ms) "
        if [ -x "$direct" ]; then
            runs[dnnl_t$t]+="$(OMP_NUM_THREADS=$t "$direct" "$tmp/decoder.f32" "$tmp/latent.f32" \
                --reps "$reps" | sed -n 's/^dnnl_synthesis //p') "
        fi
        runs[ort_t$t]+="$(ORT_THREADS=$t ORT_REPS=$reps node "$repo/tests/bmshj2018/ort_decode.mjs" \
            "$modules" "$tmp/decoder.onnx" "$tmp/latent.f32" 192 32 48 "$tmp/ort.f32" |
            sed -n 's/.*"ms":\([0-9.]*\).*/\1/p') "
        if ((r == 0)); then # torch is 10 to 30 times slower: once
            while read -r k v; do runs[$k]=$v; done < <(OMP_NUM_THREADS=$t "$py" \
                "$here/bench_webnn_synthesis.py" --torch --reps 2 --threads "$t" 2>/dev/null)
        fi
    done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR] = $1} END {
    if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
declare -A ms
for k in "${!runs[@]}"; do ms[$k]=$(echo "${runs[$k]}" | median); done

row() { # KEY LABEL THREADS
    local v=${ms[$1]:-}
    [ -n "$v" ] || { printf '%-42s %9s\n' "$2" "n/a"; return; }
    awk -v v="$v" -v m="$macs" -v o="${ms[ort_t$3]:-}" -v d="${ms[dnnl_t$3]:-}" -v l="$2" 'BEGIN {
        ro = (o != "") ? sprintf("%.3f", v / o) : "n/a";
        rd = (d != "") ? sprintf("%.3f", v / d) : "n/a";
        printf "%-42s %9.1f %8.1f %8s %8s\n", l, v, m / v / 1e6, ro, rd }'
}
printf '%-42s %9s %8s %8s %8s\n' "512x768 synthesis (N 128, M 192)" "ms" "GMAC/s" "/ORT" "/oneDNN"
for t in 1 2; do
    row webnn_t$t "libwai native WebNN, $t thread(s)" $t
    row dnnl_t$t "oneDNN called directly, $t" $t
    row ort_t$t "ONNX Runtime (onnxruntime-node), $t" $t
    row torch_convtranspose_t$t "torch conv_transpose2d, $t" $t
    row torch_subpixel_t$t "torch sub-pixel conv2d, $t" $t
done
echo "(medians of $rounds rounds, each the best of $reps runs)"

# The two float paths compute the same picture.
if [ -x "$direct" ]; then
    OMP_NUM_THREADS=1 "$wai" graph "$tmp/decoder.webnn.json" --input y="$tmp/latent.f32" \
        --output x="$tmp/webnn.f32" -y >/dev/null
    OMP_NUM_THREADS=1 "$direct" "$tmp/decoder.f32" "$tmp/latent.f32" --reps 1 \
        --out "$tmp/dnnl.f32" >/dev/null
    "$py" -c "import numpy as np, sys
a, b, c = (np.fromfile(f, '<f4') for f in sys.argv[1:])
print('largest difference: WebNN vs oneDNN direct %.3g, WebNN vs ONNX Runtime %.3g (values up to %.3g)'
      % (abs(a - b).max(), abs(a - c).max(), abs(c).max()))" "$tmp/webnn.f32" "$tmp/dnnl.f32" "$tmp/ort.f32"
fi

# A whole decode: set, payload, process.
if "$py" "$repo/tools/bmshj2018/make_set.py" --checkpoint "$tmp/bench.pt" --out "$tmp/set" \
    --lib "$build/libwai_python.so" --payload "$tmp/picture.b18f=$tmp/picture.png" >/dev/null 2>&1; then
    work=$("$wai" inspect --cost --set "$tmp/set" "$tmp/picture.b18f" |
        sed -n 's/.*"working_bytes": \([0-9]*\).*/\1/p')
    for t in 1 2; do
        best="" rss=""
        for ((r = 0; r < rounds; r++)); do
            out=$( { /usr/bin/time -f "%e %M" "$wai" decode --threads "$t" --set "$tmp/set" \
                "$tmp/picture.b18f" -o "$tmp/picture.rgb" -y >/dev/null; } 2>&1 | tail -1)
            read -r s kb <<<"$out"
            best+="$s " rss=$kb
        done
        s=$(echo "$best" | median)
        awk -v s="$s" -v kb="$rss" -v w="$work" -v t="$t" 'BEGIN {
            printf "whole decode, 768x512, %d thread(s): %.0f ms (the process: set, entropy, graph, first run); peak RSS %.0f MB, declared working_bytes %.0f MB\n",
                t, s * 1000, kb / 1024, w / 1048576 }'
    done
fi
