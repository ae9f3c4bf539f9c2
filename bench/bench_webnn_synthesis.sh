#!/usr/bin/env bash
# The float path's synthesis benchmark (issue 12): bmshj2018-factorized's
# synthesis at CompressAI's size (N 128, M 192) from a [192, 32, 48] latent
# to 512 x 768, weights from a seed, through
#   - libwai's native WebNN (`wai graph --time`, best of REPS), 1 and 2 threads;
#   - oneDNN called directly (wai_bench_synthesis's deconvolution primitives,
#     formats of oneDNN's choosing, 1 thread) against the same four
#     transposed convolutions through the native WebNN (a graph of those
#     alone): the WebNN layer's cost over oneDNN;
#   - ONNX Runtime's CPU decode of the same synthesis (onnxruntime-node on
#     decoder.onnx, tests/bmshj2018/ort_decode.mjs), 1 and 2 threads;
#   - torch 1.13, its conv_transpose2d form and the sub-pixel form it
#     trains with, 1 and 2 threads.
# One table: ms, GMAC/s, and each row's time over ONNX Runtime's at the same
# thread count.
#
#   bench/bench_webnn_synthesis.sh BUILD_DIR [REPS]   (REPS default 5)
set -eu
build=$(cd "$1" && pwd)
reps=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
wai=$build/tools/wai/wai
modules=${WAI_NODE_MODULES:-$repo/build/npm/node_modules}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

macs=$("$py" "$here/bench_webnn_synthesis.py" --make "$tmp" 2>/dev/null | sed -n 's/^macs //p')
deconv_macs=$((192 * 128 * 25 * 32 * 48 + 128 * 128 * 25 * 64 * 96 + 128 * 128 * 25 * 128 * 192 + 128 * 3 * 25 * 256 * 384))
json_ms() { sed -n 's/.*"compute_ms": \([0-9.]*\).*/\1/p'; }
declare -A ms

for t in 1 2; do
    ms[webnn_t$t]=$(OMP_NUM_THREADS=$t "$wai" graph "$tmp/decoder.webnn.json" --time --reps "$reps" \
        --threads "$t" --input y="$tmp/latent.f32" | json_ms)
    ms[webnn_deconvs_t$t]=$(OMP_NUM_THREADS=$t "$wai" graph "$tmp/deconvs.webnn.json" --time \
        --reps "$reps" --threads "$t" --input x0="$tmp/x0.f32" --input x1="$tmp/x1.f32" \
        --input x2="$tmp/x2.f32" --input x3="$tmp/x3.f32" | json_ms)
    ms[ort_t$t]=$(ORT_THREADS=$t ORT_REPS=$reps node "$repo/tests/bmshj2018/ort_decode.mjs" "$modules" \
        "$tmp/decoder.onnx" "$tmp/latent.f32" 192 32 48 "$tmp/ort.f32" |
        sed -n 's/.*"ms":\([0-9.]*\).*/\1/p')
    while read -r k v; do ms[$k]=$v; done < <(OMP_NUM_THREADS=$t "$py" "$here/bench_webnn_synthesis.py" \
        --torch --reps "$reps" --threads "$t" 2>/dev/null)
done
bench=$build/bench/wai_bench_synthesis
if [ -x "$bench" ]; then
    d=$(OMP_NUM_THREADS=1 "$bench" --raw --reps "$reps" --no-ref 2>/dev/null |
        awk '$1 == "dnnl_convt" {print $2; exit}')
    [ -n "$d" ] && ms[dnnl_deconvs_t1]=$d
fi

row() { # KEY LABEL MACS THREADS
    local v=${ms[$1]:-}
    [ -n "$v" ] || { printf '%-44s %10s\n' "$2" "n/a"; return; }
    local ort=${ms[ort_t$4]:-}
    awk -v v="$v" -v m="$3" -v o="$ort" -v l="$2" 'BEGIN {
        r = (o != "") ? sprintf("%.3f", v / o) : "n/a";
        printf "%-44s %10.1f %8.1f %8s\n", l, v, m / v / 1e6, r }'
}
printf '%-44s %10s %8s %8s\n' "512x768 synthesis (N 128, M 192)" "ms" "GMAC/s" "/ORT"
for t in 1 2; do
    row webnn_t$t "libwai native WebNN, $t thread(s)" "$macs" $t
    row ort_t$t "ONNX Runtime (onnxruntime-node), $t" "$macs" $t
    row torch_convtranspose_t$t "torch conv_transpose2d, $t" "$macs" $t
    row torch_subpixel_t$t "torch sub-pixel conv2d, $t" "$macs" $t
    row webnn_deconvs_t$t "  deconvolutions only: native WebNN, $t" "$deconv_macs" $t
done
row dnnl_deconvs_t1 "  deconvolutions only: oneDNN direct, 1" "$deconv_macs" 1
if [ -n "${ms[dnnl_deconvs_t1]:-}" ]; then
    awk -v w="${ms[webnn_deconvs_t1]}" -v d="${ms[dnnl_deconvs_t1]}" \
        'BEGIN { printf "WebNN layer over oneDNN direct (deconvolutions, 1 thread): %+.1f %%\n", (w / d - 1) * 100 }'
fi
