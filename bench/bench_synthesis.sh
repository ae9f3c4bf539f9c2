#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 4's synthesis benchmark: libwai's integer bmshj2018-shaped synthesis
# (192 -> 128 -> 128 -> 128 -> 3 from [192, 32, 48] to 512x768) next to
# oneDNN and PyTorch float32 in one table: libwai on 1 thread and on all
# threads (one per core, or WAI_BENCH_THREADS), the float peers on 1.
#
#   bench/bench_synthesis.sh BUILD_DIR [REPS]      (REPS default 5)
#
# WAI_BENCH_ARGS adds options to wai_bench_synthesis (e.g. --no-ref, which
# skips the reference network's tens of seconds).
#
# Runs BUILD_DIR/bench/wai_bench_synthesis --raw (libwai, and oneDNN when it
# was built with it) and bench/bench_synthesis_torch.py --raw (skipped when
# /usr/bin/python3 has no torch). The float peers time the four
# deconvolutions only; libwai is shown both whole and deconvolutions only,
# and the ratio column is always time / oneDNN's deconvolution time (a
# like-for-like ratio only on the "deconvs only" rows). GMAC/s counts each
# row's own MACs (the plan's: 16.58 G whole, 14.47 G in the deconvolutions).
#
# One thread: OMP_NUM_THREADS=1 reaches oneDNN's and PyTorch's OpenMP
# runtimes, OPENBLAS_NUM_THREADS=1 the BLAS PyTorch's ConvTranspose2d calls,
# and the script calls torch.set_num_threads(1). libwai's threads come from
# its own --threads (its rows say how many); its output on them is checked
# equal to the 1-thread output.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 BUILD_DIR [REPS]" >&2
    exit 2
fi
reps=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
bench=$1/bench/wai_bench_synthesis
[ -x "$bench" ] || bench=$1/wai_bench_synthesis
if [ ! -x "$bench" ]; then
    echo "wai_bench_synthesis not found under $1 (build the wai_bench_synthesis target)" >&2
    exit 2
fi
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

raw=$("$bench" --raw --reps "$reps" --threads "${WAI_BENCH_THREADS:-0}" ${WAI_BENCH_ARGS:-})
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if "$py" -c 'import torch' 2>/dev/null; then
    raw="$raw
$("$py" "$here/bench_synthesis_torch.py" --raw --reps "$reps")"
else
    echo "(PyTorch not importable from $py: its rows are left out)" >&2
fi

# The whole network on oneDNN f32 (bench/bench_dnnl_synthesis.c: the same
# shapes, the inverse GDN as a 1x1 convolution of the squares with sqrt and
# the product as post-ops), weights and latent from bench_webnn_synthesis.py's
# seed, on 1 thread and on libwai's thread count: the like-for-like peer of
# libwai's whole-network rows.
direct=$1/bench/wai_bench_dnnl_synthesis
if [ -x "$direct" ] && "$py" -c 'import torch' 2>/dev/null; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    "$py" "$here/bench_webnn_synthesis.py" --make "$tmp" >/dev/null 2>&1
    nthr=$(echo "$raw" | awk '$1 == "threads" { print $2 }')
    whole_macs=$(echo "$raw" | awk '$1 == "wai_fast_network" { print $3 }')
    d1=$(OMP_NUM_THREADS=1 "$direct" "$tmp/decoder.f32" "$tmp/latent.f32" --reps "$reps" |
        sed -n 's/^dnnl_synthesis //p')
    dn=$(OMP_NUM_THREADS=${nthr:-1} "$direct" "$tmp/decoder.f32" "$tmp/latent.f32" --reps "$reps" |
        sed -n 's/^dnnl_synthesis //p')
    raw="$raw
dnnl_whole $d1 $whole_macs
dnnl_whole_mt $dn $whole_macs"
else
    echo "(wai_bench_dnnl_synthesis or torch missing: no whole-network oneDNN row)" >&2
fi

echo "$raw" | awk '
    NF >= 2 { ms[$1] = $2; macs[$1] = $3; v[$1] = $2 }
    function row(name, key, base,    r) {
        if (!(key in ms)) return
        r = (base in ms && ms[base] > 0) ? sprintf("%.2f", ms[key] / ms[base]) : "n/a"
        printf "%-48s %10.1f %8.2f %8s\n", name, ms[key], macs[key] / ms[key] / 1e6, r
    }
    END {
        n = ("threads" in v) ? v["threads"] : 1
        printf "%-48s %10s %8s %8s\n", "implementation (threads)", "ms", "GMAC/s", "/oneDNN"
        print "(/oneDNN: against its deconvolutions alone, or its whole network where the row says)"
        row("libwai int, fast, 1 thr: network + RGB8", "wai_fast_total", "dnnl_convt")
        row("libwai int, fast, 1 thr: network (run)", "wai_fast_network", "dnnl_convt")
        row("libwai int, fast, 1 thr: network, ws kept", "wai_fast_network_ws", "dnnl_convt")
        row("  the same against oneDNN, whole network", "wai_fast_network_ws", "dnnl_whole")
        row("libwai int, fast, 1 thr: deconvs only", "wai_fast_convt", "dnnl_convt")
        row("libwai int, fast, 1 thr: inverse GDNs only", "wai_fast_igdn", "dnnl_convt")
        t = sprintf("libwai int, fast, %d thr: ", n)
        row(t "network + RGB8", "wai_fast_total_mt", "dnnl_convt")
        row(t "network (run)", "wai_fast_network_mt", "dnnl_convt")
        row(t "network, ws kept", "wai_fast_network_ws_mt", "dnnl_convt")
        row("  the same against oneDNN, whole network", "wai_fast_network_ws_mt", "dnnl_whole_mt")
        row(t "deconvs only", "wai_fast_convt_mt", "dnnl_convt")
        row(t "inverse GDNs only", "wai_fast_igdn_mt", "dnnl_convt")
        row("libwai int, reference, 1 thr: network (1 run)", "wai_ref_network", "dnnl_convt")
        row("libwai int, reference, 1 thr: layer 0 (1 run)", "wai_ref_layer0", "dnnl_layer0")
        row("oneDNN f32, 1 thr: deconvs only", "dnnl_convt", "dnnl_convt")
        row("oneDNN f32, 1 thr: whole network, GDNs as 1x1 conv", "dnnl_whole", "dnnl_whole")
        row(sprintf("oneDNN f32, %d thr: whole network", n), "dnnl_whole_mt", "dnnl_whole")
        row("PyTorch f32, 1 thr: deconvs only", "torch_convt", "dnnl_convt")
        row("PyTorch f32, 1 thr: network, torch-op IGDN", "torch_network", "dnnl_convt")
        print ""
        if ("wai_ref_estimate_s" in v)
            printf "reference network skipped: estimated %s s from layer 0 (limit 180 s);\n" \
                   "its row is layer 0 against oneDNN layer 0\n", v["wai_ref_estimate_s"]
        if ("layers_match_network" in v)
            printf "libwai per-layer output equals wai_network_run output: %s\n", \
                   v["layers_match_network"] == 1 ? "yes" : "NO"
        if ("mt_matches_1thread" in v)
            printf "libwai %d-thread output equals 1-thread output: %s\n", n, \
                   v["mt_matches_1thread"] == 1 ? "yes" : "NO"
        if ("ref_matches_fast" in v)
            printf "libwai reference output equals fast output: %s\n", \
                   v["ref_matches_fast"] == 1 ? "yes" : "NO"
        if ("wai_isa" in v) printf "libwai fast kernels: %s\n", v["wai_isa"]
        if ("dnnl_impl" in v) printf "oneDNN implementation (layer 2): %s\n", v["dnnl_impl"]
        else print "oneDNN column not built (no libdnnl / oneapi/dnnl/dnnl.h at configure time)"
    }'
