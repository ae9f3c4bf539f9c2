#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The WIV1 motion encoder's rate term (issue 16): bytes at equal PSNR with
# each vector chosen by SAD alone (`wai encode --sad-search`, the search
# before the rate term) and by the rate term (the default), on the same
# source in the same run.
#
#   bench/bench_motion_rd.sh BUILD_DIR [FRAMES]
#
# Source: ffmpeg's testsrc2, 1280x720, FRAMES frames (default 10) as a 4:2:0
# Y4M (the source of bench/bench_vs_ffmpeg.sh). Each of q 4, 8, 16, 32, 64 is
# encoded whole-pel and half-pel, both ways; the table gives bytes, PSNR and
# the encode's wall time, and each precision's BD-rate of the rate term
# against SAD alone (tools/rd/bd.py: negative is smaller at equal PSNR).
# Needs ffmpeg and python3-numpy; a benchmark, not a test.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 BUILD_DIR [FRAMES]" >&2
    exit 2
fi
WAI=$1/tools/wai/wai
FRAMES=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$WAI" ] || { echo "$WAI not found (build the wai_cli target)" >&2; exit 2; }
command -v ffmpeg >/dev/null 2>&1 || { echo "ffmpeg not found (apt-get install ffmpeg)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wai_motion_rd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

ffmpeg -nostdin -hide_banner -v error -y -f lavfi -i "testsrc2=size=1280x720:rate=30" \
    -frames:v "$FRAMES" -pix_fmt yuv420p "$tmp/src.y4m"

# One encode: "PREC SEARCH Q BYTES PSNR SECONDS" on stdout.
encode() {  # encode PREC SEARCH Q
    local flags=() t0 t1
    [ "$1" = half ] && flags+=(--half-pel)
    [ "$2" = sad ] && flags+=(--sad-search)
    t0=$(date +%s%N)
    "$WAI" encode --capability wai.video.int_motion --q "$3" "${flags[@]}" --quiet -y \
        "$tmp/src.y4m" -o "$tmp/clip.wiv1" 2>"$tmp/report"
    t1=$(date +%s%N)
    local bytes psnr
    bytes=$(sed -n 's/^bytes: \([0-9]*\).*/\1/p' "$tmp/report")
    psnr=$(sed -n 's/^psnr: \([0-9.a-z]*\) dB overall.*/\1/p' "$tmp/report")
    echo "$1 $2 $3 $bytes $psnr $(( (t1 - t0) / 1000000 ))"
}

for prec in whole half; do
    for q in 4 8 16 32 64; do
        for search in sad rate; do
            encode "$prec" "$search" "$q"
        done
    done
done >"$tmp/points"

/usr/bin/python3 - "$tmp/points" "$here/../tools/rd" "$FRAMES" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from bd import bd_rate
rows = [l.split() for l in open(sys.argv[1])]
print("testsrc2 1280x720, %s frames; bytes, PSNR (RGB, dB), encode ms" % sys.argv[3])
print()
print("| vectors | q | SAD alone: bytes | PSNR | ms | rate term: bytes | PSNR | ms | bytes ratio |")
print("|---|---|---|---|---|---|---|---|---|")
curves = {}
for prec in ("whole", "half"):
    pts = {r[1]: {} for r in rows}
    for p, s, q, b, psnr, ms in rows:
        if p == prec:
            pts[s][int(q)] = (int(b), float(psnr), int(ms))
    for q in sorted(pts["sad"]):
        a, b = pts["sad"][q], pts["rate"][q]
        print("| %s-pel | %d | %d | %.3f | %d | %d | %.3f | %d | %.4f |" %
              (prec, q, a[0], a[1], a[2], b[0], b[1], b[2], b[0] / a[0]))
    # A q the encoder wrote lossless (inf dB: q 1 was no larger) has no
    # place on a curve of PSNR.
    curves[prec] = {s: [(v[0], v[1]) for v in pts[s].values() if v[1] != float("inf")]
                    for s in pts}
print()
for prec, c in curves.items():
    v, method = bd_rate(c["sad"], c["rate"])
    print("BD-rate, %s-pel, rate term against SAD alone: %s (%s)" %
          (prec, "n/a" if v is None else "%+.2f %%" % v, method))
PY
