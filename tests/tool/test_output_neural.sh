#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai decode -o OUT` for the neural kinds, and `wai inspect --cost --set`:
# a WIH1 image to .rgb, .y4m and .png (one file, or a pattern); a WIA1 clip
# to .wav (16-bit mono at the payload's sr) and raw .pcm / s16le; a WIS1
# decode to a directory of plane files (PNG, or PGM with --format pgm) and
# attributes.json with n_gaussians and the binary32 ranges, exactly. Every
# file's bytes are held to the SHA-256 `wai decode --json` prints for the
# decode; the WAV, Y4M, PGM headers byte by byte; PNGs and the JSON with
# python3 (tests/ci/install-deps.sh installs it); ffprobe, when installed,
# reads the WAV's rate and length (skipped with a note otherwise).
# usage: tests/tool/test_output_neural.sh WAI_BINARY
set -u
WAI=${1:?usage: test_output_neural.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=$ROOT/tests/corpus/neural
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
note=""

# check NAME COMMAND...: passes when COMMAND exits 0; its output is the reason.
check() {
    local name=$1
    shift
    if "$@" >"$TMP/check" 2>&1; then ok; else fail "$name: $(head -c 400 "$TMP/check")"; fi
}
# same NAME A B: A and B are equal strings.
same() { if [ "$2" = "$3" ]; then ok; else fail "$1: '$2', want '$3'"; fi; }
sha() { sha256sum "$1" | cut -c1-64; }
size() { wc -c <"$1" | tr -d ' '; }
# u32 FILE OFFSET, u16 FILE OFFSET: little-endian fields, in decimal.
u32() { od -An -tu4 -j "$2" -N4 --endian=little "$1" | tr -d ' '; }
u16() { od -An -tu2 -j "$2" -N2 --endian=little "$1" | tr -d ' '; }
# jfield NAME FILE: the first integer member NAME of a JSON line.
jfield() { grep -o "\"$1\": [0-9]*" "$2" | head -1 | grep -o '[0-9]*$'; }
# decode_json FILE SET: the output's expected sha256 and bytes into
# $want_sha, $want_bytes. The sha256 is the corpus index's (the generator's
# own model decode, tests/corpus/index.txt), not the tool's: the tool's
# --json is held to it, then every output form below to it.
decode_json() {
    "$WAI" decode --json "$1" --set "$2" >"$TMP/json" 2>&1
    local got rel
    got=$(grep -o '"sha256": "[0-9a-f]*"' "$TMP/json" | head -1 | cut -d'"' -f4)
    want_bytes=$(jfield bytes "$TMP/json")
    rel=${1#"$ROOT/tests/corpus/"}
    want_sha=$(awk -v f="$rel" '$1 == "decode" && $3 == "ok" && $5 == f {split($6, h, ","); print h[1]; exit}' \
        "$ROOT/tests/corpus/index.txt")
    if [ -n "$want_sha" ] && [ "$got" = "$want_sha" ] && [ -n "$want_bytes" ]; then ok
    else fail "decode --json $1: sha256 $got, the corpus index's '$want_sha': $(head -c 300 "$TMP/json")"; fi
}

PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || PYTHON=python3
cat >"$TMP/check.py" <<'PY'
import json, struct, sys, zlib

def read_png(path):
    """8-bit grey or RGB, no interlace: (width, height, channels, pixels)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: no PNG signature" % path)
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]:
            raise SystemExit("%s: bad CRC in %r" % (path, kind))
        if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT": idat += body
        elif kind == b"IEND": break
        pos += 12 + length
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (0, 2) or interlace != 0:
        raise SystemExit("%s: not 8-bit grey/RGB without interlace: %r" % (path, ihdr))
    ch = 3 if ctype == 2 else 1
    raw, stride, out, prev = zlib.decompress(idat), w * ch, bytearray(), bytearray(w * ch)
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if ftype == 1: line[i] = (line[i] + a) & 255
            elif ftype == 2: line[i] = (line[i] + b) & 255
            elif ftype == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif ftype != 0:
                raise SystemExit("%s: filter %d" % (path, ftype))
        out += line
        prev = line
    return w, h, ch, bytes(out)

def png(path, want_w, want_h, want_ch, raw_path):
    w, h, ch, px = read_png(path)
    if (w, h, ch) != (int(want_w), int(want_h), int(want_ch)):
        raise SystemExit("%s: %dx%d with %d channels, want %sx%s with %s" % (path, w, h, ch, want_w, want_h, want_ch))
    open(raw_path, "wb").write(px)

def f32_text(bits):
    """The tool's spelling: an integer below 1e9 in plain digits, else the
    shortest %.*g that reads back to the same binary32."""
    v = struct.unpack("<f", struct.pack("<I", bits))[0]
    if -1e9 < v < 1e9 and v == int(v):
        return "-0" if bits == 0x80000000 else "%d" % int(v)
    for p in range(1, 10):
        t = "%.*g" % (p, v)
        try:
            if struct.pack("<f", float(t)) == struct.pack("<I", bits):
                return t
        except OverflowError:   # rounds past the binary32 range
            pass

def attrs(json_path, payload_path):
    text = open(json_path).read()
    doc = json.loads(text, parse_int=float)   # "-0" is the binary32 -0
    for k in ("n_gaussians", "planes", "side"):
        if doc.get(k) != int(doc.get(k, -1)):
            raise SystemExit("%s is not an integer" % k)
        doc[k] = int(doc[k])
    pay = open(payload_path, "rb").read()
    s, attr, ng = struct.unpack("<III", pay[20:32])
    if set(doc) != {"n_gaussians", "planes", "side", "ranges"}:
        raise SystemExit("members %r" % sorted(doc))
    if (doc["n_gaussians"], doc["planes"], doc["side"]) != (ng, attr, s):
        raise SystemExit("n_gaussians/planes/side %r, want %r" % ((doc["n_gaussians"], doc["planes"], doc["side"]), (ng, attr, s)))
    if len(doc["ranges"]) != attr:
        raise SystemExit("%d ranges, want %d" % (len(doc["ranges"]), attr))
    want = []
    for i in range(attr):
        lo, hi = struct.unpack("<II", pay[32 + 8 * i:40 + 8 * i])
        want.append("[%s, %s]" % (f32_text(lo), f32_text(hi)))
        for got, bits in zip(doc["ranges"][i], (lo, hi)):
            if struct.pack("<f", got) != struct.pack("<I", bits):
                raise SystemExit("plane %d: %r is not the binary32 %08x" % (i, got, bits))
    if '"ranges": [%s]' % ", ".join(want) not in text:
        raise SystemExit("ranges spelt %s, want [%s]" % (text, ", ".join(want)))

cmd = sys.argv[1]
if cmd == "png": png(*sys.argv[2:7])
elif cmd == "attrs": attrs(sys.argv[2], sys.argv[3])
PY
PY="$PYTHON $TMP/check.py"

# Does this wai write PNG? (Built without libpng, a PNG OUT is exit 2.)
has_png=1
"$WAI" decode --set "$N/hyper/set0" -o "$TMP/probe.png" "$N/hyper/image0.wih1" >/dev/null 2>"$TMP/err" || has_png=0
if [ $has_png -eq 0 ]; then
    expect_contains "PNG probe says libpng" libpng "$TMP/err"
    note="$note (no libpng: PNG checks skipped)"
fi

# --- WIH1 images: .rgb, .y4m, .png, a PNG pattern -----------------------------
for i in 0 1 2; do
    f=$N/hyper/image$i.wih1 set=$N/hyper/set$i d=$TMP/image$i
    mkdir -p "$d"
    decode_json "$f" "$set"
    expect_exit 0 "image$i -o .rgb" -- "$WAI" decode "$f" --set "$set" -o "$d/x.rgb"
    same "image$i .rgb is the decode" "$(sha "$d/x.rgb")" "$want_sha"
    expect_exit 0 "image$i -o .y4m" -- "$WAI" decode "$f" --set "$set" -o "$d/x.y4m"
    head -1 "$d/x.y4m" >"$TMP/hdr"
    w=$(grep -o ' W[0-9]*' "$TMP/hdr" | cut -c3-) h=$(grep -o ' H[0-9]*' "$TMP/hdr" | cut -c3-)
    expect_contains "image$i .y4m header" "YUV4MPEG2 W$w H$h F25:1 Ip A1:1 C444p16" "$TMP/hdr"
    same "image$i .y4m is W x H x 3 bytes of RGB" "$((w * h * 3))" "$want_bytes"
    same "image$i .y4m holds one frame" "$(size "$d/x.y4m")" "$(($(size "$TMP/hdr") + 6 + 6 * w * h))"
    same "image$i .y4m frame marker" "$(tail -c +$(($(size "$TMP/hdr") + 1)) "$d/x.y4m" | head -c 6)" "FRAME"
    if [ $has_png -eq 1 ]; then
        expect_exit 0 "image$i -o .png" -- "$WAI" decode "$f" --set "$set" -o "$d/x.png"
        check "image$i .png is the decode" $PY png "$d/x.png" "$w" "$h" 3 "$d/png.raw"
        same "image$i .png pixels" "$(sha "$d/png.raw")" "$want_sha"
        expect_exit 0 "image$i -o pattern" -- "$WAI" decode "$f" --set "$set" -o "$d/p_%02d.png"
        check "image$i pattern file is the PNG" cmp "$d/p_00.png" "$d/x.png"
    fi
done

# --- WIA1 clips: .wav, .pcm, -, --format ---------------------------------------
have_ffprobe=0
command -v ffprobe >/dev/null 2>&1 && have_ffprobe=1
[ $have_ffprobe -eq 1 ] || note="$note (no ffprobe: the WAV read back by byte checks only)"
for i in 0 1 2; do
    f=$N/audio/clip$i.wia1 set=$N/audio/set$i d=$TMP/clip$i
    mkdir -p "$d"
    decode_json "$f" "$set"
    "$WAI" inspect "$f" >"$TMP/inspect"
    sr=$(jfield sr "$TMP/inspect") t_out=$(jfield t_out "$TMP/inspect")
    same "clip$i pcm is 2·t_out bytes" "$want_bytes" "$((2 * t_out))"
    expect_exit 0 "clip$i -o .pcm" -- "$WAI" decode "$f" --set "$set" -o "$d/x.pcm"
    same "clip$i .pcm is the decode" "$(sha "$d/x.pcm")" "$want_sha"
    "$WAI" decode "$f" --set "$set" -o - >"$d/stdout.pcm"
    check "clip$i -o - is the samples" cmp "$d/stdout.pcm" "$d/x.pcm"
    expect_exit 0 "clip$i --format s16le" -- "$WAI" decode "$f" --set "$set" --format s16le -o "$d/x.raw"
    check "clip$i --format s16le is the samples" cmp "$d/x.raw" "$d/x.pcm"
    expect_exit 0 "clip$i -o .wav" -- "$WAI" decode "$f" --set "$set" -o "$d/x.wav"
    wav=$d/x.wav
    same "clip$i .wav size" "$(size "$wav")" "$((44 + want_bytes))"
    same "clip$i RIFF WAVE fmt" "$(head -c 4 "$wav")$(dd if="$wav" bs=1 skip=8 count=8 2>/dev/null)" "RIFFWAVEfmt "
    same "clip$i RIFF size" "$(u32 "$wav" 4)" "$((36 + want_bytes))"
    same "clip$i fmt size, PCM, mono" "$(u32 "$wav" 16) $(u16 "$wav" 20) $(u16 "$wav" 22)" "16 1 1"
    same "clip$i sample rate is sr" "$(u32 "$wav" 24)" "$sr"
    same "clip$i byte rate, align, bits" "$(u32 "$wav" 28) $(u16 "$wav" 32) $(u16 "$wav" 34)" "$((2 * sr)) 2 16"
    same "clip$i data chunk" "$(dd if="$wav" bs=1 skip=36 count=4 2>/dev/null) $(u32 "$wav" 40)" "data $want_bytes"
    tail -c "$want_bytes" "$wav" >"$d/wav.data"
    same "clip$i .wav samples are the decode" "$(sha "$d/wav.data")" "$want_sha"
    expect_exit 0 "clip$i --format wav" -- "$WAI" decode "$f" --set "$set" --format wav -o "$d/x.bin"
    check "clip$i --format wav is the WAV" cmp "$d/x.bin" "$wav"
    if [ $have_ffprobe -eq 1 ]; then
        got=$(ffprobe -v error -show_entries stream=codec_name,sample_rate,channels,duration_ts \
            -of default=noprint_wrappers=1 "$wav" 2>&1 | sort | tr '\n' ' ')
        same "clip$i ffprobe" "$got" "channels=1 codec_name=pcm_s16le duration_ts=$t_out sample_rate=$sr "
    fi
done

# --- WIS1 planes: a directory of PGM or PNG planes and attributes.json ---------
splat_dir() { # splat_dir PAYLOAD SET DIR FMT: the planes in DIR hold the decode
    local f=$1 set=$2 d=$3 fmt=$4 k
    "$WAI" inspect "$f" >"$TMP/inspect"
    local s a
    s=$(jfield s "$TMP/inspect") a=$(jfield attr "$TMP/inspect")
    same "$d: plane bytes" "$want_bytes" "$((a * s * s))"
    same "$d: files" "$(cd "$d" && ls | tr '\n' ' ')" \
        "attributes.json $(for ((k = 0; k < a; k++)); do printf 'plane_%03d.%s ' "$k" "$fmt"; done)"
    : >"$d/all.raw"
    for ((k = 0; k < a; k++)); do
        local p
        p=$(printf '%s/plane_%03d.%s' "$d" "$k" "$fmt")
        if [ "$fmt" = pgm ]; then
            same "$p header" "$(head -c $((${#s} * 2 + 9)) "$p" | od -An -c | tr -s ' ')" \
                "$(printf 'P5\n%s %s\n255\n' "$s" "$s" | od -An -c | tr -s ' ')"
            same "$p size" "$(size "$p")" "$((${#s} * 2 + 9 + s * s))"
            tail -c $((s * s)) "$p" >>"$d/all.raw"
        else
            check "$p is grey s x s" $PY png "$p" "$s" "$s" 1 "$TMP/plane.raw"
            cat "$TMP/plane.raw" >>"$d/all.raw"
        fi
    done
    same "$d: planes in order are the decode" "$(sha "$d/all.raw")" "$want_sha"
    rm -f "$d/all.raw"
    check "$d: attributes.json" $PY attrs "$d/attributes.json" "$f"
}
for i in 0 1 2; do
    f=$N/splat/attrs$i.wis1 set=$N/splat/set$i
    decode_json "$f" "$set"
    expect_exit 0 "attrs$i -o DIR --format pgm" -- "$WAI" decode "$f" --set "$set" --format pgm -o "$TMP/pgm$i"
    splat_dir "$f" "$set" "$TMP/pgm$i" pgm
    if [ $has_png -eq 1 ]; then
        mkdir -p "$TMP/png$i"   # an existing directory is fine too
        expect_exit 0 "attrs$i -o DIR" -- "$WAI" decode "$f" --set "$set" -o "$TMP/png$i/"
        splat_dir "$f" "$set" "$TMP/png$i" png
    fi
done

# Ranges that need digits: the ranges are outside the decode, so patching
# them leaves the planes as they were (attrs1 has four planes).
f=$TMP/ranges.wis1
cp "$N/splat/attrs1.wis1" "$f"
patch() { printf "$2" | dd of="$f" bs=1 seek="$1" conv=notrunc 2>/dev/null; }
patch 32 '\xcd\xcc\xcc\x3d\xff\xff\x7f\x7f'   # [0.1, FLT_MAX]
patch 40 '\x00\x00\x80\x80\x01\x00\x00\x00'   # [-FLT_MIN, the least subnormal]
patch 48 '\x00\x00\x00\x80\x00\x00\x00\x00'   # [-0, 0]
patch 56 '\xdb\x0f\x49\xc0\x00\x00\x80\x4b'   # [-pi, 2^24]
"$WAI" decode --json "$f" --set "$N/splat/set1" >"$TMP/json" 2>&1
same "patched ranges: same planes" "$(grep -o '"sha256": "[0-9a-f]*"' "$TMP/json" | head -1 | cut -d'"' -f4)" \
    "$(grep -F "neural/splat/attrs1.wis1 " "$ROOT/tests/corpus/index.txt" | awk '{print $6}')"
expect_exit 0 "patched ranges -o DIR" -- "$WAI" decode "$f" --set "$N/splat/set1" --format pgm -o "$TMP/ranges"
check "patched ranges: attributes.json" $PY attrs "$TMP/ranges/attributes.json" "$f"
expect_contains "patched ranges: spelt shortest" \
    '"ranges": [[0.1, 3.4028235e+38], [-1.1754944e-38, 1e-45], [-0, 0], [-3.1415927, 16777216]]' \
    "$TMP/ranges/attributes.json"

# --- usage errors: exit 2 before decoding, nothing written ----------------------
usage() { # usage NAME PAYLOAD SET OPTIONS...
    local name=$1 f=$2 set=$3
    shift 3
    rm -rf "$TMP"/u*
    expect_exit 2 "usage: $name" -- "$WAI" decode "$f" --set "$set" "$@"
    if ls "$TMP"/u* >/dev/null 2>&1; then fail "usage: $name wrote a file"; else ok; fi
}
img=$N/hyper/image0.wih1 iset=$N/hyper/set0
aud=$N/audio/clip0.wia1 aset=$N/audio/set0
spl=$N/splat/attrs0.wis1 sset=$N/splat/set0
usage "image to .wav" "$img" "$iset" -o "$TMP/u.wav"
usage "image to a directory name" "$img" "$iset" -o "$TMP/u"
usage "image --format wav" "$img" "$iset" --format wav -o "$TMP/u.x"
usage "pcm to .rgb" "$aud" "$aset" -o "$TMP/u.rgb"
usage "pcm to .png" "$aud" "$aset" -o "$TMP/u.png"
usage "pcm to a directory name" "$aud" "$aset" -o "$TMP/u"
usage "pcm --format y4m" "$aud" "$aset" --format y4m -o "$TMP/u.wav"
usage "pcm --fps" "$aud" "$aset" --fps 30 -o "$TMP/u.wav"
usage "planes to .png" "$spl" "$sset" -o "$TMP/u.png"
usage "planes to .wav" "$spl" "$sset" -o "$TMP/u.wav"
usage "planes to -" "$spl" "$sset" -o -
usage "planes --format rgb" "$spl" "$sset" --format rgb -o "$TMP/u"
: >"$TMP/file"
expect_exit 2 "planes into a file that exists" -- "$WAI" decode "$spl" --set "$sset" -o "$TMP/file"
expect_contains "planes into a file: says why" "not a directory" "$TMP/err"
expect_exit 2 "planes under a missing directory" -- "$WAI" decode "$spl" --set "$sset" -o "$TMP/no/such/dir"
# A refused decode writes no planes and no WAV samples.
expect_exit 1 "refused WIS1 -o DIR" -- "$WAI" decode "$spl" --set "$N/splat/set1" -o "$TMP/refused"
same "refused WIS1: an empty directory" "$(ls "$TMP/refused" | wc -l | tr -d ' ')" 0

# --- inspect --cost --set -------------------------------------------------------
cost_of() { # cost_of FILE SET: work and output_bytes of inspect --cost --set
    "$WAI" inspect --cost --set "$2" "$1" >"$TMP/cost"
    work=$(jfield work "$TMP/cost") out_bytes=$(jfield output_bytes "$TMP/cost")
}
for c in "hyper/image1.wih1 hyper/set1" "audio/clip1.wia1 audio/set1" "splat/attrs2.wis1 splat/set2"; do
    read -r f set <<<"$c"
    decode_json "$N/$f" "$N/$set"
    expect_exit 0 "inspect --cost --set $f" -- "$WAI" inspect --cost --set "$N/$set" "$N/$f"
    cost_of "$N/$f" "$N/$set"
    same "$f: cost output_bytes is the decode's" "$out_bytes" "$want_bytes"
    expect_exit 0 "$f: --max-cost work decodes" -- "$WAI" decode --max-cost "$work" --set "$N/$set" "$N/$f"
    expect_exit 1 "$f: --max-cost work-1 refuses" -- "$WAI" decode --max-cost $((work - 1)) --set "$N/$set" "$N/$f"
    expect_contains "$f: cost_over_limit" cost_over_limit "$TMP/err"
done
expect_exit 0 "inspect --cost without a set" -- "$WAI" inspect --cost "$img"
if grep -q '"cost' "$TMP/out"; then fail "a neural cost without a set: $(cat "$TMP/out")"; else ok; fi
expect_exit 0 "inspect --cost --set of another capability" -- "$WAI" inspect --cost --set "$sset" "$img"
expect_contains "another capability's set: cost_status" '"cost_status": "set_incomplete"' "$TMP/out"
expect_exit 0 "inspect --cost --set mismatched" -- "$WAI" inspect --cost --set "$N/splat/set1" "$spl"
expect_contains "mismatched set: cost_status" '"cost_status": "' "$TMP/out"
pin=$(sha "$aset/model.wam")
expect_exit 0 "inspect --cost --pin" -- "$WAI" inspect --cost --set "$aset" --pin "$pin" "$aud"
expect_contains "--pin: cost" '"cost": {' "$TMP/out"
expect_exit 0 "inspect --cost --pin wrong" -- "$WAI" inspect --cost --set "$aset" --pin "${pin//?/0}" "$aud"
expect_contains "--pin wrong: set_incomplete" '"cost_status": "set_incomplete"' "$TMP/out"
expect_exit 2 "inspect --set without --cost" -- "$WAI" inspect --set "$iset" "$img"
expect_exit 2 "inspect --set without a value" -- "$WAI" inspect --cost "$img" --set

# --- the manual -------------------------------------------------------------------
expect_exit 0 "help decode" -- "$WAI" help decode
for t in "OUT.wav" "s16le" "pgm" "attributes.json" "n_gaussians" "NAME.png"; do
    expect_contains "help decode documents $t" "$t" "$TMP/out"
done
expect_exit 0 "help inspect" -- "$WAI" help inspect
for t in "--set DIR" "--pin SHA256" "cost_status"; do
    expect_contains "help inspect documents $t" "$t" "$TMP/out"
done

[ -n "$note" ] && echo "note:${note# }"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
