#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# WIV1 (wai.video.int_motion, lossless at --q 1) next to two lossless RGB
# codecs ffmpeg decodes: FFV1 (level 3, in .mkv) and libx264rgb at -qp 0.
#
#   bench/bench_vs_ffmpeg.sh BUILD_DIR
#
# 1. Source: ffmpeg's testsrc2, 1280x720, 30 frames/s, 2 s (60 frames), as a
#    4:2:0 Y4M. All three codecs code the same RGB frames: `wai encode`
#    converts the Y4M to RGB as ffmpeg's yuv420p -> rgb24 does, and the peers
#    get ffmpeg's rgb24 conversion (FFV1 as gbrp, which holds it losslessly).
# 2. Each file is decoded once to rgb24 and its SHA-256 compared with the
#    source's rgb24, so the table says whether each is lossless.
# 3. Decode time, single-threaded, the median of 5 runs (hyperfine when
#    installed, after a warm-up run; else 5 timed runs, median):
#      WIV1      wai decode --threads 1 (decodes, writes nothing; and, for
#                reference, raw rgb24 written to a file in the temp dir)
#      FFV1      ffmpeg -threads 1 -i X -f null -
#      x264rgb   ffmpeg -threads 1 -i X -f null -
#    ffmpeg's times include its start-up and demuxing; -f null passes frames
#    in the decoder's own pixel format, converting nothing.
# Needs ffmpeg (with libx264) and python3; a benchmark, not a test.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
WAI=$1/tools/wai/wai
[ -x "$WAI" ] || { echo "$WAI not found (build the wai_cli target)" >&2; exit 2; }
command -v ffmpeg >/dev/null 2>&1 || { echo "ffmpeg not found (apt-get install ffmpeg)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found" >&2; exit 2; }

W=1280 H=720 RATE=30 SECONDS_=2
FRAMES=$((RATE * SECONDS_))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wai_vs_ffmpeg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ff() { ffmpeg -nostdin -hide_banner -v error -y "$@"; }

echo "== inputs: testsrc2 ${W}x${H}, ${FRAMES} frames ==" >&2
ff -f lavfi -i "testsrc2=size=${W}x${H}:rate=${RATE}" -t "$SECONDS_" -pix_fmt yuv420p "$tmp/src.y4m"
ff -i "$tmp/src.y4m" -f rawvideo -pix_fmt rgb24 "$tmp/src.rgb"

if ! "$WAI" help encode >/dev/null 2>&1; then
    echo "$WAI has no 'encode' command: build a wai with 'wai encode' to make the WIV1 input" >&2
    exit 2
fi
echo "wai encode --q 1 ..." >&2
"$WAI" encode --capability wai.video.int_motion --q 1 --quiet "$tmp/src.y4m" -o "$tmp/clip.wiv1" >&2 || {
    echo "wai encode failed" >&2
    exit 2
}
echo "ffmpeg -c:v ffv1 -level 3 ..." >&2
ff -i "$tmp/src.y4m" -pix_fmt gbrp -c:v ffv1 -level 3 "$tmp/ffv1.mkv"
echo "ffmpeg -c:v libx264rgb -qp 0 -preset medium ..." >&2
ff -i "$tmp/src.y4m" -pix_fmt rgb24 -c:v libx264rgb -qp 0 -preset medium "$tmp/x264rgb.mkv"

# Lossless? Each decode to rgb24 against the source's rgb24.
src_sha=$(sha256sum <"$tmp/src.rgb" | cut -d' ' -f1)
"$WAI" decode -o "$tmp/wiv1.rgb" "$tmp/clip.wiv1"
lossless() { [ "$(sha256sum <"$1" | cut -d' ' -f1)" = "$src_sha" ] && echo yes || echo NO; }
wiv1_ok=$(lossless "$tmp/wiv1.rgb")
ff -i "$tmp/ffv1.mkv" -f rawvideo -pix_fmt rgb24 "$tmp/dec.rgb"
ffv1_ok=$(lossless "$tmp/dec.rgb")
ff -i "$tmp/x264rgb.mkv" -f rawvideo -pix_fmt rgb24 "$tmp/dec.rgb"
x264_ok=$(lossless "$tmp/dec.rgb")
rm -f "$tmp/dec.rgb" "$tmp/wiv1.rgb"

# median_ms NAME COMMAND: the median wall time of COMMAND (a shell line) in
# ms, over 5 runs.
median_ms() {
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine -N --warmup 1 --runs 5 --export-json "$tmp/$1.json" "$2" >/dev/null 2>&1 ||
            hyperfine --warmup 1 --runs 5 --export-json "$tmp/$1.json" "$2" >/dev/null
        python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$tmp/$1.json"
    else
        local t=()
        for _ in 1 2 3 4 5; do
            local t0 t1
            t0=$(date +%s%N)
            sh -c "$2" >/dev/null 2>&1 || { echo "failed: $2" >&2; exit 1; }
            t1=$(date +%s%N)
            t+=($(((t1 - t0) / 1000)))
        done
        printf '%s\n' "${t[@]}" | sort -n | sed -n 3p | awk '{printf "%.1f\n", $1 / 1000}'
    fi
}

echo "timing (median of 5) ..." >&2
timer=$(command -v hyperfine >/dev/null 2>&1 && echo "hyperfine, warm-up 1, median of 5" || echo "median of 5 runs")
# Without -o the tool decodes every frame and writes nothing (as -f null).
# -y: it keeps an existing output (the file of the run before) unless told,
# and never replaces /dev/null; a timed run that fails stops the script.
ms_wiv1=$(median_ms wiv1 "$WAI decode --threads 1 $tmp/clip.wiv1")
ms_wiv1_file=$(median_ms wiv1_file "$WAI decode --threads 1 -y -o $tmp/out.rgb $tmp/clip.wiv1")
ms_ffv1=$(median_ms ffv1 "ffmpeg -nostdin -v error -threads 1 -i $tmp/ffv1.mkv -f null -")
ms_x264=$(median_ms x264 "ffmpeg -nostdin -v error -threads 1 -i $tmp/x264rgb.mkv -f null -")

size() { wc -c <"$1" | tr -d ' '; }
b_wiv1=$(size "$tmp/clip.wiv1")
b_ffv1=$(size "$tmp/ffv1.mkv")
b_x264=$(size "$tmp/x264rgb.mkv")

python3 - "$W" "$H" "$FRAMES" "$timer" \
    "WIV1 (wai decode, no output)" "$b_wiv1" "$ms_wiv1" "$wiv1_ok" \
    "WIV1 (wai decode -o file.rgb)" "$b_wiv1" "$ms_wiv1_file" "$wiv1_ok" \
    "FFV1 -level 3 (.mkv)" "$b_ffv1" "$ms_ffv1" "$ffv1_ok" \
    "x264rgb -qp 0 medium (.mkv)" "$b_x264" "$ms_x264" "$x264_ok" <<'PY'
import sys
w, h, frames, timer = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rows = [sys.argv[i:i + 4] for i in range(5, len(sys.argv), 4)]
px = w * h * frames
print("\n== single-threaded decode, testsrc2 %dx%d, %d frames (%s) ==" % (w, h, frames, timer))
print("%-32s %12s %9s %10s %9s %9s" % ("codec", "bytes", "bits/px", "decode ms", "ms/frame", "lossless"))
for name, b, ms, ok in rows:
    print("%-32s %12d %9.3f %10.1f %9.2f %9s" % (name, int(b), 8 * int(b) / px, float(ms), float(ms) / frames, ok))
wiv1, ffv1, x264 = rows[0], rows[2], rows[3]
print()
for peer in (ffv1, x264):
    print("WIV1 / %-26s size %.2fx   decode time %.2fx" % (
        peer[0], int(wiv1[1]) / int(peer[1]), float(wiv1[2]) / float(peer[2])))
PY
