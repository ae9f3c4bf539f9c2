#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai decode -o OUT`: the decoded frames land in .rgb, .y4m, .ppm and PNG files
# byte for byte (checked against the corpus index's frame SHA-256s), usage
# errors come before decoding, and a refusal part-way through a frame stream
# keeps the frames before it. When ffmpeg is installed, it reads the .y4m and
# the .rgb back to the same RGB bytes (skipped, and counted as passed with a
# note, without it).
# usage: tests/tool/test_output.sh WAI_BINARY
set -u
WAI=${1:?usage: test_output.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=$ROOT/tests/corpus
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
skipped_note=""
skipped=0   # checks that could not run here (counted apart, never as passes)

# check NAME COMMAND...: passes when COMMAND exits 0; its output is the reason.
check() {
    local name=$1
    shift
    if "$@" >"$TMP/check" 2>&1; then ok; else fail "$name: $(head -c 400 "$TMP/check")"; fi
}

# The checker: a Y4M parser, a PNG reader (zlib and the five PNG filters,
# stdlib only) and frame hashing, in one python3 file.
cat >"$TMP/check.py" <<'PY'
import hashlib, struct, sys, zlib

def frames_of_rgb(data, frame_bytes):
    if frame_bytes == 0 or len(data) % frame_bytes:
        raise SystemExit("rgb: %d bytes is not whole frames of %d" % (len(data), frame_bytes))
    return [data[i:i + frame_bytes] for i in range(0, len(data), frame_bytes)]

def rgb_hashes(path, w, h, want):
    frames = frames_of_rgb(open(path, "rb").read(), w * h * 3)
    got = [hashlib.sha256(f).hexdigest() for f in frames]
    want = [] if want == "-" else want.split(",")
    if got != want:
        raise SystemExit("rgb frames %s, want %s" % (got, want))

def round_half_up(num, den):
    return (2 * num + den) // (2 * den)

def yuv16(r, g, b):
    # BT.601 limited range at 16 bits, exact rationals (the tool's help).
    s = 299 * r + 587 * g + 114 * b
    return (4096 + round_half_up(56064 * s, 255000),
            32768 + round_half_up(57344 * (1000 * b - s), 451860),
            32768 + round_half_up(57344 * (1000 * r - s), 357510))

def parse_y4m(data):
    nl = data.index(b"\n")
    tags = data[:nl].split(b" ")
    if tags[0] != b"YUV4MPEG2":
        raise SystemExit("y4m: no YUV4MPEG2 signature")
    t = {x[:1]: x[1:] for x in tags[1:]}
    w, h = int(t[b"W"]), int(t[b"H"])
    frames, pos, size = [], nl + 1, w * h * 6
    while pos < len(data):
        if data[pos:pos + 6] != b"FRAME\n":
            raise SystemExit("y4m: no FRAME at byte %d" % pos)
        pos += 6
        if pos + size > len(data):
            raise SystemExit("y4m: frame %d cut short" % len(frames))
        frames.append(data[pos:pos + size])
        pos += size
    return t, tags, w, h, frames

def y4m(path, rgb_path, w, h, fps):
    t, tags, yw, yh, frames = parse_y4m(open(path, "rb").read())
    if (yw, yh) != (w, h) or t.get(b"C") != b"444p16" or t.get(b"F") != fps.encode() \
            or t.get(b"I") != b"p" or b"XCOLORRANGE=LIMITED" not in tags:
        raise SystemExit("y4m header %r" % tags)
    rgb = frames_of_rgb(open(rgb_path, "rb").read(), w * h * 3) if w * h else []
    if len(frames) != len(rgb):
        raise SystemExit("y4m holds %d frames, rgb %d" % (len(frames), len(rgb)))
    n = w * h
    for k, (f, src) in enumerate(zip(frames, rgb)):
        planes = struct.unpack("<%dH" % (3 * n), f)
        for i in range(n):
            want = yuv16(src[3 * i], src[3 * i + 1], src[3 * i + 2])
            got = (planes[i], planes[n + i], planes[2 * n + i])
            if got != want:
                raise SystemExit("y4m frame %d pixel %d: %r, want %r" % (k, i, got, want))

def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: no PNG signature" % path)
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(kind + body) != crc:
            raise SystemExit("%s: bad CRC in %r" % (path, kind))
        if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT": idat += body
        elif kind == b"IEND": break
        pos += 12 + length
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype != 2 or interlace != 0:
        raise SystemExit("%s: not 8-bit RGB without interlace: %r" % (path, ihdr))
    raw, stride, out, prev = zlib.decompress(idat), w * 3, bytearray(), bytearray(w * 3)
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            if ftype == 1: line[i] = (line[i] + a) & 255
            elif ftype == 2: line[i] = (line[i] + b) & 255
            elif ftype == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
            elif ftype != 0:
                raise SystemExit("%s: filter %d" % (path, ftype))
        out += line
        prev = line
    return w, h, bytes(out)

def png(pattern_dir, rgb_path, w, h):
    import glob, os
    rgb = frames_of_rgb(open(rgb_path, "rb").read(), w * h * 3)
    files = sorted(glob.glob(os.path.join(pattern_dir, "*.png")))
    want = [os.path.join(pattern_dir, "frame_%04d.png" % i) for i in range(len(rgb))]
    if files != want:
        raise SystemExit("png files %r, want %r" % (files, want))
    for f, src in zip(files, rgb):
        pw, ph, px = read_png(f)
        if (pw, ph) != (w, h) or px != src:
            raise SystemExit("%s differs from the rgb frame" % f)

def y4m_frames(path, count, w, h):
    _, _, yw, yh, frames = parse_y4m(open(path, "rb").read())
    if len(frames) != int(count) or (yw, yh) != (int(w), int(h)):
        raise SystemExit("y4m: %d frames of %dx%d, want %s of %sx%s" % (len(frames), yw, yh, count, w, h))

def ppm(path, rgb_path, w, h):
    """P6 images, one per frame, each the .rgb's frame."""
    data, frames = open(path, "rb").read(), frames_of_rgb(open(rgb_path, "rb").read(), w * h * 3)
    head = b"P6\n%d %d\n255\n" % (w, h)
    want = b"".join(head + f for f in frames)
    if data != want:
        raise SystemExit("ppm: %d bytes, want %d frames of %dx%d behind their P6 headers"
                         % (len(data), len(frames), w, h))

def case(name, inspect_json, d, hashes, fps, with_png):
    # Every check of one corpus case: one "ok NAME" or "FAIL NAME: why" a
    # check. All cases run in one process: python's start-up would be most of
    # the time otherwise.
    import json
    hd = json.load(open(inspect_json))["header"]
    w, h = hd["w"], hd["h"]
    checks = [(".rgb frames match the index", lambda: rgb_hashes(d + "/out.rgb", w, h, hashes)),
              (".y4m header, frames, samples",
               lambda: y4m(d + "/out.y4m", d + "/out.rgb", w, h, fps)),
              (".ppm images are the frames", lambda: ppm(d + "/out.ppm", d + "/out.rgb", w, h))]
    if with_png == "1":
        checks.append(("PNGs decode to the frames", lambda: png(d + "/png", d + "/out.rgb", w, h)))
    for what, fn in checks:
        try:
            fn()
            print("ok", name, what)
        except (SystemExit, Exception) as e:
            print("FAIL %s: %s: %s" % (name, what, e))

cmd = sys.argv[1]
if cmd == "cases":
    for line in open(sys.argv[2]):
        case(*line.rstrip("\n").split(" "))
elif cmd == "rgb": rgb_hashes(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
elif cmd == "y4m": y4m(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
elif cmd == "png": png(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
elif cmd == "y4m_frames": y4m_frames(*sys.argv[2:6])
elif cmd == "dims":
    import json
    hd = json.loads(sys.stdin.read())["header"]
    print(hd["w"], hd["h"])
PY
# The interpreter itself, not a version manager's shim: it starts faster.
PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || PYTHON=python3
[ -n "$PYTHON" ] || PYTHON=python3
PY="$PYTHON $TMP/check.py"

# Does this wai write PNG? (Built without libpng, a PNG OUT is exit 2.)
has_png=1
"$WAI" decode -o "$TMP/probe_%d.png" "$CORPUS/motion/valid/clip00.wiv1" >/dev/null 2>"$TMP/err" || has_png=0
if [ $has_png -eq 0 ]; then
    if grep -q libpng "$TMP/err"; then ok; else fail "PNG probe: $(cat "$TMP/err")"; fi
    skipped_note="$skipped_note (this wai has no libpng: PNG round trips skipped)"
fi
rm -f "$TMP"/probe_*.png

has_ffmpeg=0
command -v ffmpeg >/dev/null 2>&1 && has_ffmpeg=1
[ $has_ffmpeg -eq 1 ] || skipped_note="$skipped_note (no ffmpeg: its read-back checks skipped)"

# --- every valid clip and frame stream of the corpus ------------------------
n_clips=0
while read -r mode cap status maxcost files hashes; do
    [ "$mode" = decode ] && [ "$status" = ok ] || continue
    case $files in motion/valid/*) ;; *) continue ;; esac
    IFS=, read -r -a list <<<"$files"
    paths=()
    for f in "${list[@]}"; do paths+=("$CORPUS/$f"); done
    name=${list[0]}
    d=$TMP/c$n_clips
    mkdir -p "$d/png"
    n_clips=$((n_clips + 1))
    "$WAI" inspect "${paths[0]}" >"$d/inspect.json" || { fail "$name: inspect"; continue; }

    expect_exit 0 "$name: -o .rgb" -- "$WAI" decode -o "$d/out.rgb" "${paths[@]}"
    expect_exit 0 "$name: -o -" -- "$WAI" decode -o - "${paths[@]}"
    check "$name: -o - is the .rgb" cmp "$TMP/out" "$d/out.rgb"
    expect_exit 0 "$name: -o .y4m" -- "$WAI" decode --fps 30000/1001 -o "$d/out.y4m" "${paths[@]}"
    expect_exit 0 "$name: -o .ppm" -- "$WAI" decode -o "$d/out.ppm" "${paths[@]}"
    [ $has_png -eq 0 ] ||
        expect_exit 0 "$name: -o PNG" -- "$WAI" decode -o "$d/png/frame_%04d.png" "${paths[@]}"
    echo "$name $d/inspect.json $d $hashes 30000:1001 $has_png" >>"$TMP/cases"
    # ffmpeg's read-back on the clips only: their frame streams are the same frames.
    case $name in *.wif1) continue ;; esac
    read -r w h < <(sed -n 's/.*"h": \([0-9]*\), "w": \([0-9]*\).*/\2 \1/p' "$d/inspect.json")
    if [ $has_ffmpeg -eq 1 ]; then
        check "$name: ffmpeg reads the .y4m to the same RGB" \
            sh -c 'ffmpeg -nostdin -v error -i "$1" -f rawvideo -pix_fmt rgb24 - | cmp - "$2"' _ "$d/out.y4m" "$d/out.rgb"
        check "$name: ffmpeg reads the .rgb to the same RGB" \
            sh -c 'ffmpeg -nostdin -v error -f rawvideo -pix_fmt rgb24 -s "$3x$4" -i "$1" -f rawvideo -pix_fmt rgb24 - | cmp - "$2"' \
            _ "$d/out.rgb" "$d/out.rgb" "$w" "$h"
    else
        skipped=$((skipped + 2))   # not run, so not passed (install-deps.sh installs ffmpeg)
    fi
done <"$CORPUS/index.txt"
while read -r verdict rest; do
    if [ "$verdict" = ok ]; then ok; else fail "$rest"; fi
done < <($PY cases "$TMP/cases" 2>&1 || echo "FAIL the checker crashed")
[ $n_clips -gt 20 ] && ok || fail "only $n_clips valid cases found in the index"

# --- the default frame rate and --format --------------------------------------
clip=$CORPUS/motion/valid/clip15.wiv1
expect_exit 0 "default fps" -- "$WAI" decode -o "$TMP/d.y4m" "$clip"
check "default fps is F25:1" sh -c 'head -1 "$1" | grep -q " F25:1 "' _ "$TMP/d.y4m"
expect_exit 0 "--format y4m to an unnamed file" -- "$WAI" decode --format y4m -o "$TMP/clip.out" "$clip"
check "--format y4m wrote a Y4M" cmp "$TMP/clip.out" "$TMP/d.y4m"
expect_exit 0 "--format y4m to stdout" -- "$WAI" decode --format y4m -o - "$clip"
check "Y4M on stdout" cmp "$TMP/out" "$TMP/d.y4m"
expect_exit 0 "--format rgb" -- "$WAI" decode --format rgb -o "$TMP/clip.raw" "$clip"
expect_exit 0 "-o .RGB (case)" -- "$WAI" decode -o "$TMP/clip.RGB" "$clip"
check "--format rgb wrote rgb" cmp "$TMP/clip.raw" "$TMP/clip.RGB"
expect_exit 0 "-o with --json" -- "$WAI" decode --json -o "$TMP/j.rgb" "$clip"
check "--json still prints JSON with -o" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out"

# --- a refusal part-way through a frame stream keeps the frames before it ----
frames=$CORPUS/motion/frames
partial=$(awk '$1 == "decode" && $5 == "motion/frames/intra.wif1,motion/frames/inter1_exhausted.wif1" {print $6}' "$CORPUS/index.txt")
read -r w h <<<"$("$WAI" inspect "$frames/intra.wif1" | $PY dims)"
expect_exit 1 "partial stream -o .rgb exits 1" -- "$WAI" decode -o "$TMP/p.rgb" "$frames/intra.wif1" "$frames/inter1_exhausted.wif1"
check "partial stream: .rgb holds the frame before the refusal" $PY rgb "$TMP/p.rgb" "$w" "$h" "$partial"
expect_contains "partial stream: the refusal is printed" stream_exhausted "$TMP/err"
expect_exit 1 "partial stream -o .y4m exits 1" -- "$WAI" decode -o "$TMP/p.y4m" "$frames/intra.wif1" "$frames/inter1_exhausted.wif1"
check "partial stream: .y4m holds 1 frame" $PY y4m_frames "$TMP/p.y4m" 1 "$w" "$h"

# --- a stream whose frame size changes: Y4M stops with an I/O error ----------
a=$CORPUS/motion/valid/clip00
b=$CORPUS/motion/valid/clip01
read -r aw ah <<<"$("$WAI" inspect "$a/f000.wif1" | $PY dims)"
read -r bw bh <<<"$("$WAI" inspect "$b/f000.wif1" | $PY dims)"
if [ "$aw$ah" != "$bw$bh" ]; then ok; else fail "clip00 and clip01 have one size: pick others"; fi
na=$(ls "$a"/f*.wif1 | wc -l)
expect_exit 2 "size change -o .y4m exits 2" -- "$WAI" decode -o "$TMP/s.y4m" "$a"/f*.wif1 "$b"/f*.wif1
expect_contains "size change: says why" "one frame size" "$TMP/err"
check "size change: the first group's frames are written" $PY y4m_frames "$TMP/s.y4m" "$na" "$aw" "$ah"
expect_exit 0 "size change -o .rgb is fine" -- "$WAI" decode -o "$TMP/s.rgb" "$a"/f*.wif1 "$b"/f*.wif1
check "size change: .rgb is both groups" sh -c '[ $(wc -c <"$1") -eq $(( $2 * $3 * $4 * 3 + $(ls "$5"/f*.wif1 | wc -l) * $6 * $7 * 3 )) ]' \
    _ "$TMP/s.rgb" "$na" "$aw" "$ah" "$b" "$bw" "$bh"

# --- usage errors: exit 2, before anything is decoded or written --------------
usage() {
    local name=$1
    shift
    rm -f "$TMP"/u*
    expect_exit 2 "usage: $name" -- "$WAI" decode "$@" "$clip"
    if ls "$TMP"/u* >/dev/null 2>&1; then fail "usage: $name wrote a file"; else ok; fi
}
usage "unknown extension" -o "$TMP/u.mp4"
usage "no extension" -o "$TMP/u"
usage "--format bogus" --format yuv -o "$TMP/u.y4m"
usage "--format without -o" --format rgb
usage "--format without a value" -o "$TMP/u.rgb" --format
usage "-o - with --json" --json -o -
usage "-o - as PNG" --format png -o -
usage "PNG without %" -o "$TMP/u.png"
usage "PNG with two %d" -o "$TMP/u%d_%d.png"
usage "PNG with %s" -o "$TMP/u%s.png"
usage "PNG with %%" -o "$TMP/u%%_%d.png"
usage "PNG with %5d" -o "$TMP/u%5d.png"
usage "PNG with %x" -o "$TMP/u%x.png"
usage "PNG with %00d" -o "$TMP/u%00d.png"
usage "PNG with %0100d" -o "$TMP/u%0100d.png"
usage "--fps 0" --fps 0 -o "$TMP/u.y4m"
usage "--fps 1/0" --fps 1/0 -o "$TMP/u.y4m"
usage "--fps x" --fps x -o "$TMP/u.y4m"
usage "--fps with .rgb" --fps 30 -o "$TMP/u.rgb"
usage "-o without a value" -o
expect_exit 2 "unwritable OUT" -- "$WAI" decode -o "$TMP/no/such/dir/u.rgb" "$clip"
expect_exit 0 "help decode" -- "$WAI" help decode
for opt in "-o OUT" "--format" "--fps" "C444p16" "frame_%04d.png"; do
    expect_contains "help decode documents $opt" "$opt" "$TMP/out"
done

[ -n "$skipped_note" ] && echo "note:${skipped_note# }"
echo "$passed passed, $failed failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
