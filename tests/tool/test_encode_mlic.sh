#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai encode --capability wai.neural.int_mlicpp` (WIM1, integer-payloads
# §14) with a trained set: the payloads of chelsea and coffee (each cropped
# to multiples of 64 from the top-left, as tools/mlicpp/lower.py crops
# them) are byte for byte the ones lower.py's reference encoder wrote;
# `wai decode` of what it writes gives the PSNR and squared error it
# printed (measured here with numpy), a picture whose sides are not
# multiples of 64 included (coded padded, the top-left measured); the same
# payload at every thread count; --slices; --quality; progress lines for
# large pictures; the refusals.
#   SET       the set (model.wmb, analysis.webnn.json, analysis.f32,
#             listing.json); WAI_MLIC_SET overrides
#   EXPECTED  the folder of the reference payloads, chelsea.wim1 and
#             coffee.wim1, coded against SET, and where it has them
#             ladder/chelsea_qN.wim1, coded against SET's folder's qN;
#             WAI_MLIC_PAYLOADS overrides
# Needs /usr/bin/python3 with numpy and PIL, and python3-skimage's
# photographs (tests/ci/install-deps.sh installs them).
# usage: tests/tool/test_encode_mlic.sh WAI_BINARY
set -u
WAI=${1:?usage: test_encode_mlic.sh WAI_BINARY}
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SET=${WAI_MLIC_SET:-$REPO/examples/mlicpp/sets/q3}
EXPECTED=${WAI_MLIC_PAYLOADS:-$REPO/examples/mlicpp}
CAP=wai.neural.int_mlicpp
PHOTOS=/usr/lib/python3/dist-packages/skimage/data

for need in "$PHOTOS/chelsea.png" "$PHOTOS/coffee.png" "$SET/model.wmb" "$EXPECTED/chelsea.wim1" \
    "$EXPECTED/coffee.wim1"; do
    if [ ! -f "$need" ]; then
        fail "$need is missing (the photographs: tests/ci/install-deps.sh; the set and the payloads: WAI_MLIC_SET, WAI_MLIC_PAYLOADS)"
        echo "$passed passed, $failed failed"
        exit 1
    fi
done

# The pictures: chelsea and coffee cropped as lower.py crops them, chelsea
# whole (451 x 300), and a 1024 x 1024 enlargement (progress lines).
/usr/bin/python3 - "$PHOTOS" "$TMP" <<'EOF'
import sys
import numpy as np
from PIL import Image
photos, tmp = sys.argv[1:]
for name in ("chelsea", "coffee"):
    a = np.asarray(Image.open(f"{photos}/{name}.png").convert("RGB"))
    Image.fromarray(np.ascontiguousarray(a[:a.shape[0] // 64 * 64, :a.shape[1] // 64 * 64])).save(
        f"{tmp}/{name}.png")
a = np.asarray(Image.open(f"{photos}/chelsea.png").convert("RGB"))
Image.fromarray(a).save(tmp + "/whole.png")
Image.fromarray(a).resize((1024, 1024), Image.BILINEAR).save(tmp + "/large.png")
EOF

# field PAYLOAD OFFSET: the u16 at OFFSET of a WIM1's header.
field() { /usr/bin/python3 -c 'import struct, sys; print(struct.unpack_from("<H", open(sys.argv[1], "rb").read(), int(sys.argv[2]))[0])' "$1" "$2"; }

# 1. The crops: the reference encoder's bytes, and the decode's PSNR.
for name in chelsea coffee; do
    expect_exit 0 "$name" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/$name.png" -o "$TMP/$name.wim1"
    cp "$TMP/err" "$TMP/$name.err"
    if cmp -s "$TMP/$name.wim1" "$EXPECTED/$name.wim1"; then ok
    else fail "$name: not the bytes of $EXPECTED/$name.wim1 (lower.py's reference encoder)"; fi
    expect_contains "$name: the slices" "(escapes 0, in 4 slices)" "$TMP/$name.err"
    expect_exit 0 "$name decode" -- "$WAI" decode --set "$SET" "$TMP/$name.wim1" -o "$TMP/$name.dec.png"
    expect_measured "$name" "$TMP/$name.png" "$TMP/$name.dec.png" "$TMP/$name.err"
done
# The bits per pixel the tool prints are the reference payload's.
bpp=$(/usr/bin/python3 -c 'import os, sys; print(f"{8 * os.path.getsize(sys.argv[1]) / (448 * 256):.6f}")' \
      "$EXPECTED/chelsea.wim1")
expect_contains "chelsea: bpp" "bits per pixel: $bpp" "$TMP/chelsea.err"
expect_contains "chelsea: bytes" "header 36, hyper-latent" "$TMP/chelsea.err"

# 2. The whole photograph, padded to 512 x 320 (WIM1's H and W), at 1 and
# 2 threads.
expect_exit 0 "whole" -- "$WAI" encode --capability $CAP --set "$SET" --threads 1 "$TMP/whole.png" \
    -o "$TMP/whole.wim1"
cp "$TMP/err" "$TMP/whole.err"
expect_contains "whole: padded" "picture: 451x300, coded as 512x320" "$TMP/whole.err"
expect_contains "whole: the crop to decode with" "decode with --crop 451x300" "$TMP/whole.err"
expect_exit 0 "whole decode" -- "$WAI" decode --set "$SET" "$TMP/whole.wim1" -o "$TMP/whole.dec.png"
expect_measured "whole" "$TMP/whole.png" "$TMP/whole.dec.png" "$TMP/whole.err"
expect_exit 0 "whole 2 threads" -- "$WAI" encode --capability $CAP --set "$SET" --threads 2 \
    "$TMP/whole.png" -o "$TMP/whole2.wim1"
if cmp -s "$TMP/whole.wim1" "$TMP/whole2.wim1"; then ok; else fail "whole: 2 threads change the payload"; fi

# 3. --slices K: K in the header, a payload that decodes to what it
# reports; a K that does not divide the latent's channels is a usage error.
expect_exit 0 "--slices 2" -- "$WAI" encode --capability $CAP --set "$SET" --slices 2 \
    "$TMP/chelsea.png" -o "$TMP/k2.wim1"
cp "$TMP/err" "$TMP/k2.err"
[ "$(field "$TMP/k2.wim1" 24)" = 2 ] && ok || fail "--slices 2: the header's K is $(field "$TMP/k2.wim1" 24)"
expect_contains "--slices 2: reported" "in 2 slices" "$TMP/k2.err"
expect_exit 0 "--slices 2 decode" -- "$WAI" decode --set "$SET" "$TMP/k2.wim1" -o "$TMP/k2.png"
expect_measured "--slices 2" "$TMP/chelsea.png" "$TMP/k2.png" "$TMP/k2.err"
expect_exit 0 "--slices 4" -- "$WAI" encode --capability $CAP --set "$SET" --slices 4 \
    "$TMP/chelsea.png" -o "$TMP/k4.wim1"
cmp -s "$TMP/k4.wim1" "$EXPECTED/chelsea.wim1" && ok || fail "--slices 4: not the default's payload"
expect_exit 2 "--slices 5" -- "$WAI" encode --capability $CAP --set "$SET" --slices 5 \
    "$TMP/chelsea.png" -o "$TMP/x.wim1"
expect_contains "--slices 5: says why" "--slices 5 does not divide the set's latent channels" "$TMP/err"
expect_exit 2 "--slices 0" -- "$WAI" encode --capability $CAP --set "$SET" --slices 0 \
    "$TMP/chelsea.png" -o "$TMP/x.wim1"
expect_exit 2 "--slices 65536" -- "$WAI" encode --capability $CAP --set "$SET" --slices 65536 \
    "$TMP/chelsea.png" -o "$TMP/x.wim1"
expect_exit 2 "--slices of int_hyper" -- "$WAI" encode --capability wai.neural.int_hyper \
    --set "$REPO/examples/hyperprior/sets/q3" --slices 2 "$TMP/chelsea.png" -o "$TMP/x.wih1"
expect_contains "--slices of int_hyper: says so" "--slices is not an option of wai.neural.int_hyper" "$TMP/err"

# 4. Progress lines for a large picture, none with --quiet.
expect_exit 0 "large" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/large.png" -o "$TMP/large.wim1"
expect_contains "large: progress" "wai encode: the analysis (g_a, h_a)" "$TMP/err"
expect_contains "large: progress latent" "wai encode: the latent (the entropy network" "$TMP/err"
expect_contains "large: progress check" "wai encode: decoding the payload to measure it" "$TMP/err"
expect_exit 0 "large quiet" -- "$WAI" encode --capability $CAP --set "$SET" --quiet -y \
    "$TMP/large.png" -o "$TMP/large.wim1"
if grep -q '^wai encode:' "$TMP/err"; then fail "large --quiet: progress lines"; else ok; fi

# 5. --quality Q: the set is --set's qQ, the same payload as naming it; the
# folder itself is no set (it has no model.wmb).
mkdir -p "$TMP/points"
cp -r "$SET" "$TMP/points/q3"
expect_exit 0 "--quality 3" -- "$WAI" encode --capability $CAP --set "$TMP/points" --quality 3 \
    "$TMP/chelsea.png" -o "$TMP/q3.wim1"
expect_contains "--quality 3: names its set" "set: $TMP/points/q3 (decode with --set $TMP/points/q3)" "$TMP/err"
cmp -s "$TMP/q3.wim1" "$EXPECTED/chelsea.wim1" && ok || fail "--quality 3: not the payload of --set SET"
expect_exit 2 "the folder without --quality" -- "$WAI" encode --capability $CAP --set "$TMP/points" \
    "$TMP/chelsea.png" -o "$TMP/x.wim1"
expect_contains "the folder without --quality: says so" "is a folder of rate points (3)" "$TMP/err"
expect_exit 2 "--quality 5: not there" -- "$WAI" encode --capability $CAP --set "$TMP/points" --quality 5 \
    "$TMP/chelsea.png" -o "$TMP/x.wim1"
# Where the payloads' folder has a ladder (ladder/chelsea_qN.wim1, chelsea
# against each rate point of SET's folder), --quality N codes its bytes.
for f in "$EXPECTED"/ladder/chelsea_q*.wim1; do
    [ -e "$f" ] || continue
    q=${f##*_q}
    q=${q%.wim1}
    expect_exit 0 "ladder q$q" -- "$WAI" encode --capability $CAP --set "$(dirname "$SET")" --quality "$q" \
        "$TMP/chelsea.png" -o "$TMP/ladder$q.wim1"
    cmp -s "$TMP/ladder$q.wim1" "$f" && ok || fail "ladder q$q: not the bytes of $f"
done

# 6. Refusals and usage errors.
mkdir -p "$TMP/decoder_only" "$TMP/bad_bundle"
cp "$SET/model.wmb" "$TMP/decoder_only/"
cp "$SET"/* "$TMP/bad_bundle/"
printf 'WMB1' >"$TMP/bad_bundle/model.wmb"
# A cut bundle is listed as it is: the bundle's own refusal, as the decode's.
"$WAI" set list "$TMP/bad_bundle" -o "$TMP/bad_bundle/listing.json" -y
for refusal in "no analysis|$TMP/decoder_only|set_incomplete" \
    "a WIH1 set, no model.wmb|$REPO/examples/hyperprior/sets/q3|set_incomplete" \
    "cut bundle|$TMP/bad_bundle|model_mismatch"; do
    IFS='|' read -r name dir code <<<"$refusal"
    expect_exit 1 "$name" -- "$WAI" encode --capability $CAP --set "$dir" "$TMP/chelsea.png" -o "$TMP/x.wim1"
    expect_contains "$name: code" "refused: $code" "$TMP/err"
done
[ ! -e "$TMP/x.wim1" ] && ok || fail "a refused encode wrote its output"
# The usage errors are the picture encoders' one path's (test_encode_hyper.sh
# goes through them): those of WIM1's own options here.
expect_exit 2 "--q of a picture" -- "$WAI" encode --capability $CAP --set "$SET" --q 4 \
    "$TMP/chelsea.png" -o "$TMP/x.wim1"
expect_exit 2 "no set" -- "$WAI" encode --capability $CAP --slices 2 "$TMP/chelsea.png" -o "$TMP/x.wim1"
expect_contains "no set: the usage" "for wai.neural.int_mlicpp: --set DIR PICTURE" "$TMP/err"
# 4700 x 4700 is under the PNG reader's 2^26 samples, but its coded 4736 x
# 4736 is not: the encoder's too_large, before the set is read.
/usr/bin/python3 -c "
from PIL import Image; Image.new('RGB', (4700, 4700), (90, 120, 200)).save('$TMP/huge.png')"
expect_exit 1 "too large" -- "$WAI" encode --capability $CAP --set "$TMP/bad_bundle" "$TMP/huge.png" \
    -o "$TMP/x.wim1"
expect_contains "too large: code" "refused: too_large" "$TMP/err"
[ ! -e "$TMP/x.wim1" ] && ok || fail "a refused encode wrote its output"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
