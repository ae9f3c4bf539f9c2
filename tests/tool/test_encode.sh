#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai encode`: Y4M and PNG input, lossless q=1 (the decode's frame hashes
# equal the SHA-256 of the source RGB this script converts itself, with the
# formulas tools/wai/input.h documents), the PSNR and SSE it reports at q>1
# against a decode through `wai decode -o`, WIF1 frame output, usage errors.
# usage: tests/tool/test_encode.sh WAI_BINARY
set -u
WAI=${1:?usage: test_encode.sh WAI_BINARY}
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# The inputs and their RGB: python writes each clip and, next to it, NAME.sha
# (one SHA-256 per frame) and NAME.rgb (the frames).
cat >"$TMP/gen.py" <<'EOF'
import hashlib, math, struct, sys, zlib

def sat(v): return 0 if v < 0 else 255 if v > 255 else v

# input_yuv_to_rgb: ffmpeg's unscaled converter (>> floors).
def unscaled(y, u, v):
    y8 = ((y - 16) * 8 * 9539) >> 16
    u8, v8 = (u - 128) * 8, (v - 128) * 8
    return (sat(y8 + ((v8 * 13075) >> 16)),
            sat(y8 + ((u8 * -3209) >> 16) + ((v8 * -6660) >> 16)),
            sat(y8 + ((u8 * 16525) >> 16)))

# input_yuv_to_rgb_q16: 4:4:4 and odd heights.
def q16(y, u, v):
    c = (y - 16) * 76309 + 32768
    u -= 128; v -= 128
    return (sat((c + 104597 * v) >> 16), sat((c - 25675 * u - 53279 * v) >> 16),
            sat((c + 132201 * u) >> 16))

def y4m(name, w, h, cs, n, tag=None):
    sub = {'420': (2, 2), '422': (2, 1), '444': (1, 1), 'mono': None}[cs]
    cw, ch = ((w + sub[0] - 1) // sub[0], (h + sub[1] - 1) // sub[1]) if sub else (0, 0)
    conv = unscaled if cs in ('420', '422') and h % 2 == 0 else q16
    head = 'YUV4MPEG2 W%d H%d F25:1 Ip A1:1' % (w, h)
    if tag is not None: head += ' C' + tag
    out, rgb, shas = [head.encode() + b'\n'], bytearray(), []
    for t in range(n):
        Y = [[16 + ((x + 2 * t) * 5 + y * 3 + int(30 * math.sin((x + y + t) / 4))) % 220
              for x in range(w)] for y in range(h)]
        U = [[(128 + int(90 * math.sin((2 * x + 3 * t) / 5)) + y) & 255 for x in range(cw)] for y in range(ch)]
        V = [[(128 + int(90 * math.cos((2 * y - t) / 6)) - x) & 255 for x in range(cw)] for y in range(ch)]
        out.append(b'FRAME Ixyz\n' if t == 1 else b'FRAME\n')
        for P in (Y, U, V):
            out.append(bytes(v for row in P for v in row))
        frame = bytearray()
        for y in range(h):
            for x in range(w):
                if sub is None:
                    frame += bytes((Y[y][x],) * 3)
                else:
                    frame += bytes(conv(Y[y][x], U[y // sub[1]][x // sub[0]], V[y // sub[1]][x // sub[0]]))
        rgb += frame
        shas.append(hashlib.sha256(frame).hexdigest())
    open(name + '.y4m', 'wb').write(b''.join(out))
    open(name + '.rgb', 'wb').write(rgb)
    open(name + '.sha', 'w').write('\n'.join(shas) + '\n')

def png(path, w, h, ctype, pixels):
    chans = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = b''.join(b'\x00' + bytes(pixels[y * w * chans:(y + 1) * w * chans]) for y in range(h))
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, ctype, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))

def pngs(prefix, w, h, n):
    shas, rgb = [], bytearray()
    types = [2, 6, 0, 4]
    for t in range(n):
        ctype = types[t % 4]
        frame, px = bytearray(), []
        for y in range(h):
            for x in range(w):
                r, g, b = (x * 7 + t * 3) & 255, (y * 11 + x) & 255, (x * y + t * 13) & 255
                if ctype in (0, 4):
                    px += [r] + ([200] if ctype == 4 else [])
                    frame += bytes((r, r, r))
                else:
                    px += [r, g, b] + ([t * 40 & 255] if ctype == 6 else [])
                    frame += bytes((r, g, b))
        png('%s%d.png' % (prefix, t), w, h, ctype, px)
        rgb += frame
        shas.append(hashlib.sha256(frame).hexdigest())
    open(prefix + '.sha', 'w').write('\n'.join(shas) + '\n')

d = sys.argv[1]
y4m(d + '/a420', 33, 17, '420', 4, '420jpeg')   # odd size
y4m(d + '/b420', 33, 18, '420', 4)              # no C: 4:2:0
y4m(d + '/c444', 33, 17, '444', 3, '444')
y4m(d + '/d422', 20, 12, '422', 3, '422')
y4m(d + '/e420', 16, 16, '420', 3, '420mpeg2')
y4m(d + '/f420', 9, 7, '420', 3, '420paldv')
y4m(d + '/gmono', 12, 10, 'mono', 2, 'mono')
y4m(d + '/one', 7, 5, '420', 1, '420')
pngs(d + '/p', 13, 9, 4)
# A header claiming 4728 x 4728 (64 MB of RGB) over a few bytes of deflate,
# and 1024 x 1024 of zeros at zlib's best (about 1024:1, inside deflate's
# 1032:1): the first cannot be held in its file, the second can.
def png_raw(path, w, h, idat):
    def chunk(t, dd): return struct.pack('>I', len(dd)) + t + dd + struct.pack('>I', zlib.crc32(t + dd) & 0xffffffff)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                           + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
png_raw(d + '/huge.png', 4728, 4728, zlib.compress(b'\x00' * 10))
png_raw(d + '/zeros.png', 1024, 1024, zlib.compress(b''.join(b'\x00' * 3073 for _ in range(1024)), 9))
EOF
python3 "$TMP/gen.py" "$TMP" || { echo "generator failed"; echo "0 passed, 1 failed"; exit 1; }

# hashes_of JSON_FILE: the outputs' sha256, one a line.
hashes_of() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
if d["status"] != "ok": print("status " + d["status"])
for o in d["outputs"]: print(o["sha256"])' "$1"
}

# lossless NAME SOURCE_SHA -- ENCODE ARGS...: encode at q=1, decode, compare.
lossless() {
    local name=$1 sha=$2
    shift 3
    expect_exit 0 "$name: encode" -- "$WAI" encode -y --capability wai.video.int_motion --quiet "$@" -o "$TMP/l.wiv1"
    expect_contains "$name: inf" "psnr: inf dB overall, inf dB per-frame average" "$TMP/err"
    expect_exit 0 "$name: decode" -- "$WAI" decode --json "$TMP/l.wiv1"
    hashes_of "$TMP/out" >"$TMP/got.sha"
    if cmp -s "$TMP/got.sha" "$sha"; then ok; else fail "$name: decoded frames differ from the source"; fi
}

for clip in a420 b420 c444 d422 e420 f420 gmono one; do
    lossless "$clip" "$TMP/$clip.sha" -- "$TMP/$clip.y4m"
    lossless "$clip half-pel" "$TMP/$clip.sha" -- --half-pel --block 4 --search 3 "$TMP/$clip.y4m"
done
lossless "a420 block 1" "$TMP/a420.sha" -- --block 1 --search 1 "$TMP/a420.y4m"
lossless "a420 block 64" "$TMP/a420.sha" -- --block 64 --search 20 --half-pel "$TMP/a420.y4m"
lossless "stdin" "$TMP/b420.sha" -- - <"$TMP/b420.y4m"
lossless "a420 sad search" "$TMP/a420.sha" -- --sad-search --half-pel --block 4 "$TMP/a420.y4m"

# A one-frame clip: whole-pel and block 1 in the header (integer-payloads §3).
"$WAI" encode -y --capability wai.video.int_motion --half-pel --block 8 "$TMP/one.y4m" -o "$TMP/one.wiv1" 2>/dev/null
if [ "$(od -An -tu1 -j5 -N1 "$TMP/one.wiv1" | tr -d ' ')" = 1 ] &&
   [ "$(od -An -tu4 -j20 -N4 "$TMP/one.wiv1" | tr -d ' ')" = 1 ]; then ok; else fail "one frame: header"; fi

# Where no block over 40 MB can be had: an address-space limit, or
# AddressSanitizer's own (which cannot start under one).
if grep -qa __asan_init "$WAI"; then
    small=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=40:allocator_may_return_null=1")
else
    small=(bash -c 'ulimit -v 50000 && exec "$@"' -)
fi

# --- PNG input (when this build reads PNG) -----------------------------------
"$WAI" encode -y --capability wai.video.int_motion "$TMP"/p0.png -o "$TMP/p.wiv1" >"$TMP/out" 2>"$TMP/err"
if grep -q "reads no PNG" "$TMP/err"; then
    echo "note: this wai reads no PNG; PNG input checked for its refusal only"
    expect_exit 2 "png without libpng" -- "$WAI" encode -y --capability wai.video.int_motion "$TMP"/p0.png -o "$TMP/p.wiv1"
else
    lossless "png" "$TMP/p.sha" -- "$TMP"/p0.png "$TMP"/p1.png "$TMP"/p2.png "$TMP"/p3.png
    lossless "png half-pel" "$TMP/p.sha" -- --half-pel --block 5 "$TMP"/p0.png "$TMP"/p1.png "$TMP"/p2.png "$TMP"/p3.png
    printf 'not a png' >"$TMP/bad.png"
    expect_exit 2 "png: not a PNG" -- "$WAI" encode -y --capability wai.video.int_motion "$TMP/bad.png" -o "$TMP/x.wiv1"
    # A picture its file cannot hold is refused before its buffer (it was
    # out of memory where 64 MB could not be had).
    expect_exit 2 "png: a header its file cannot hold" -- \
        "${small[@]}" "$WAI" encode -y --capability wai.video.int_motion "$TMP/huge.png" -o "$TMP/x.wiv1"
    expect_contains "png: a header its file cannot hold, the message" "cannot be held in the file" "$TMP/err"
    expect_exit 0 "png: 1024:1 zeros" -- "$WAI" encode -y --quiet --capability wai.video.int_motion "$TMP/zeros.png" -o "$TMP/x.wiv1"
fi

# --- q > 1: the reported PSNR and SSE are those of the decode -----------------
cat >"$TMP/psnr.py" <<'EOF'
import math, re, sys
src, dec, err, w, h = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read(), open(sys.argv[3]).read(), int(sys.argv[4]), int(sys.argv[5])
fs = w * h * 3
assert len(src) == len(dec), (len(src), len(dec))
sse = sum((a - b) ** 2 for a, b in zip(src, dec))
frames = [sum((a - b) ** 2 for a, b in zip(src[i:i + fs], dec[i:i + fs])) for i in range(0, len(src), fs)]
psnr = lambda s, n: 10 * math.log10(255 * 255 * n / s)
lossy = [psnr(s, fs) for s in frames if s]
m = re.search(r'psnr: (\S+) dB overall, (\S+) dB per-frame average', err)
want_all = '%.4f' % psnr(sse, len(src)) if sse else 'inf'
want_avg = '%.4f' % (sum(lossy) / len(lossy)) if lossy else 'inf'
problems = []
if not m: problems.append('no psnr line')
elif m.group(1) != want_all or m.group(2) != want_avg:
    problems.append('psnr %s/%s, want %s/%s' % (m.group(1), m.group(2), want_all, want_avg))
if ('sse: %d over %d samples' % (sse, len(src))) not in err: problems.append('sse line, want %d' % sse)
if problems: print('; '.join(problems)); sys.exit(1)
EOF
# lossy NAME CLIP W H -- ENCODE ARGS...
lossy() {
    local name=$1 clip=$2 w=$3 h=$4
    shift 5
    expect_exit 0 "$name: encode" -- "$WAI" encode -y --capability wai.video.int_motion --quiet "$@" "$TMP/$clip.y4m" -o "$TMP/q.wiv1"
    cp "$TMP/err" "$TMP/q.err"
    expect_exit 0 "$name: decode -o" -- "$WAI" decode -y -o "$TMP/q.rgb" "$TMP/q.wiv1"
    if python3 "$TMP/psnr.py" "$TMP/$clip.rgb" "$TMP/q.rgb" "$TMP/q.err" "$w" "$h" >"$TMP/perr" 2>&1; then ok
    else fail "$name: $(head -c 300 "$TMP/perr")"; fi
}
lossy "q8" a420 33 17 -- --q 8
lossy "q8 half-pel" a420 33 17 -- --q 8 --half-pel --block 8
lossy "q8 half-pel sad search" a420 33 17 -- --q 8 --half-pel --block 8 --sad-search
lossy "q3 444" c444 33 17 -- --q 3 --block 2
lossy "q200" b420 33 18 -- --q 200 --search 2
lossy "q65535" e420 16 16 -- --q 65535
expect_contains "q8: bits per pixel" "bits per pixel: " "$TMP/q.err"

# --- --frames: a WIF1 group decodes to the clip's frames ----------------------
"$WAI" encode -y --capability wai.video.int_motion --half-pel --q 4 "$TMP/a420.y4m" -o "$TMP/clip.wiv1" 2>/dev/null
"$WAI" decode --json "$TMP/clip.wiv1" >"$TMP/clip.json"
hashes_of "$TMP/clip.json" >"$TMP/clip.sha"
expect_exit 0 "frames: pattern" -- "$WAI" encode -y --capability wai.video.int_motion --half-pel --q 4 --frames "$TMP/a420.y4m" -o "$TMP/g_%03d.wif1"
expect_contains "frames: file count" "(4 files)" "$TMP/err"
expect_exit 0 "frames: decode" -- "$WAI" decode --json --capability wai.video.int_motion.frame "$TMP"/g_000.wif1 "$TMP"/g_001.wif1 "$TMP"/g_002.wif1 "$TMP"/g_003.wif1
hashes_of "$TMP/out" >"$TMP/got.sha"
if cmp -s "$TMP/got.sha" "$TMP/clip.sha"; then ok; else fail "frames: the group decodes otherwise than the clip"; fi
mkdir "$TMP/dir"
expect_exit 0 "frames: directory" -- "$WAI" encode -y --capability wai.video.int_motion.frame --half-pel --q 4 "$TMP/a420.y4m" -o "$TMP/dir"
expect_exit 0 "frames: directory decode" -- "$WAI" decode --json "$TMP"/dir/frame_00000{0,1,2,3}.wif1
hashes_of "$TMP/out" >"$TMP/got.sha"
if cmp -s "$TMP/got.sha" "$TMP/clip.sha"; then ok; else fail "frames: the directory's group decodes otherwise"; fi

# --- help and usage errors (exit 2) ------------------------------------------
expect_exit 0 "--help" -- "$WAI" --help
expect_contains "--help lists encode" "  encode" "$TMP/out"
expect_exit 0 "help encode" -- "$WAI" help encode
for opt in --capability --q --block --search --half-pel --frames --quiet "-o OUT" "IN..."; do
    expect_contains "help encode: $opt" "$opt" "$TMP/out"
done
E=("$WAI" encode -y --capability wai.video.int_motion)
expect_exit 2 "no capability" -- "$WAI" encode -y "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "other capability" -- "$WAI" encode -y --capability wai.video.int_hyper "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "no input" -- "${E[@]}" -o "$TMP/x.wiv1"
expect_exit 2 "no output" -- "${E[@]}" "$TMP/a420.y4m"
expect_exit 2 "-o without value" -- "${E[@]}" "$TMP/a420.y4m" -o
expect_exit 2 "q 0" -- "${E[@]}" --q 0 "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "q 65536" -- "${E[@]}" --q 65536 "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "q not a number" -- "${E[@]}" --q 3x "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "block 0" -- "${E[@]}" --block 0 "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "search too far" -- "${E[@]}" --search 16384 "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "unknown option" -- "${E[@]}" --fast "$TMP/a420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "missing file" -- "${E[@]}" "$TMP/absent.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "unknown input kind" -- "${E[@]}" "$TMP/a420.sha" -o "$TMP/x.wiv1"
expect_exit 2 "two y4m" -- "${E[@]}" "$TMP/a420.y4m" "$TMP/b420.y4m" -o "$TMP/x.wiv1"
expect_exit 2 "frames: bad pattern" -- "${E[@]}" --frames "$TMP/a420.y4m" -o "$TMP/x.wif1"
expect_exit 2 "frames: two conversions" -- "${E[@]}" --frames "$TMP/a420.y4m" -o "$TMP/%d_%d.wif1"
expect_exit 2 "unwritable output" -- "${E[@]}" "$TMP/a420.y4m" -o "$TMP/no/such/dir/x.wiv1"
printf 'YUV4MPEG2 W4 H2 C420p10\nFRAME\n' >"$TMP/p10.y4m"
expect_exit 2 "y4m: 10-bit" -- "${E[@]}" "$TMP/p10.y4m" -o "$TMP/x.wiv1"
expect_contains "y4m: 10-bit message" "not supported" "$TMP/err"
printf 'YUV4MPEG2 W4 H2\nFRAME\nabc' >"$TMP/cut.y4m"
expect_exit 2 "y4m: cut off" -- "${E[@]}" "$TMP/cut.y4m" -o "$TMP/x.wiv1"
printf 'YUV4MPEG2 H2\nFRAME\n' >"$TMP/now.y4m"
expect_exit 2 "y4m: no W" -- "${E[@]}" "$TMP/now.y4m" -o "$TMP/x.wiv1"
printf 'YUV4MPEG2 W2 H2\n' >"$TMP/empty.y4m"
expect_exit 2 "y4m: no frames" -- "${E[@]}" "$TMP/empty.y4m" -o "$TMP/x.wiv1"
# Memory follows the file, not the header: a 4728 x 4728 4:4:4 header (64 MB
# a frame) over 3 bytes of samples is cut off with no frame buffer made, so
# it says so where no block over 40 MB can be had (it was out of memory).
printf 'YUV4MPEG2 W4728 H4728 C444\nFRAME\nabc' >"$TMP/huge_cut.y4m"
expect_exit 2 "y4m: a huge frame cut off, nothing allocated" -- \
    "${small[@]}" "${E[@]}" "$TMP/huge_cut.y4m" -o "$TMP/x.wiv1"
expect_contains "y4m: a huge frame cut off, the message" "frame 0 is cut off" "$TMP/err"
printf 'P6\n2 2\n255\n' >"$TMP/ppm.y4m"
expect_exit 2 "y4m: not y4m" -- "${E[@]}" "$TMP/ppm.y4m" -o "$TMP/x.wiv1"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
