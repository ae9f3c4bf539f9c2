#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai encode --capability wai.neural.int_hyper` with the shipped trained set
# (examples/hyperprior/sets/q3): the payload of chelsea is byte for byte the one
# the lowering tool's reference encoder wrote (examples/hyperprior/
# chelsea.wih1, tools/hyperprior/lower.py); `wai decode` of what it writes
# gives the PSNR and squared error it printed (measured here with numpy), a
# picture whose sides are not multiples of 64 included (coded padded, the
# top-left measured); progress lines for large pictures; the refusals;
# and keyframe-1 clips of wai.video.int_hyper (frame 0 a WIH1).
# Needs /usr/bin/python3 with numpy and PIL, and python3-skimage's
# photographs (tests/ci/install-deps.sh installs them).
# usage: tests/tool/test_encode_hyper.sh WAI_BINARY
set -u
WAI=${1:?usage: test_encode_hyper.sh WAI_BINARY}
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SET=$REPO/examples/hyperprior/sets/q3
CAP=wai.neural.int_hyper
PHOTOS=/usr/lib/python3/dist-packages/skimage/data

if [ ! -f "$PHOTOS/chelsea.png" ]; then
    fail "python3-skimage's photographs are missing (tests/ci/install-deps.sh installs them)"
    echo "$passed passed, $failed failed"
    exit 1
fi

# The pictures: chelsea cropped as lower.py crops it (to multiples of 64),
# whole (451 x 300), and a 1088 x 1024 enlargement (progress lines).
/usr/bin/python3 - "$PHOTOS/chelsea.png" "$TMP" <<'EOF'
import sys
import numpy as np
from PIL import Image
src, tmp = sys.argv[1:]
a = np.asarray(Image.open(src).convert("RGB"))
Image.fromarray(np.ascontiguousarray(a[:256, :448])).save(tmp + "/crop.png")
Image.fromarray(a).save(tmp + "/whole.png")
Image.fromarray(a).resize((1088, 1024), Image.BILINEAR).save(tmp + "/large.png")
EOF

# 1. The crop: the reference encoder's bytes, and the decode's PSNR.
expect_exit 0 "crop" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/crop.png" -o "$TMP/crop.wih1"
cp "$TMP/err" "$TMP/crop.err"
if cmp -s "$TMP/crop.wih1" "$REPO/examples/hyperprior/chelsea.wih1"; then ok
else fail "crop: not the bytes of examples/hyperprior/chelsea.wih1 (lower.py's reference encoder)"; fi
# The bits per pixel the tool prints are the reference payload's (its bytes
# over the crop's 448 x 256 pixels, as %g prints them).
bpp=$(/usr/bin/python3 -c 'import os, sys; print(f"{8 * os.path.getsize(sys.argv[1]) / (448 * 256):g}")' \
      "$REPO/examples/hyperprior/chelsea.wih1")
expect_contains "crop: bpp" "bits per pixel: $bpp" "$TMP/crop.err"
expect_exit 0 "crop decode" -- "$WAI" decode --set "$SET" "$TMP/crop.wih1" -o "$TMP/crop.dec.png"
expect_measured "crop" "$TMP/crop.png" "$TMP/crop.dec.png" "$TMP/crop.err"

# 2. The whole photograph, padded to 512 x 320.
expect_exit 0 "whole" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/whole.png" -o "$TMP/whole.wih1"
cp "$TMP/err" "$TMP/whole.err"
expect_contains "whole: padded" "picture: 451x300, coded as 512x320" "$TMP/whole.err"
expect_exit 0 "whole decode" -- "$WAI" decode --set "$SET" "$TMP/whole.wih1" -o "$TMP/whole.dec.png"
expect_measured "whole" "$TMP/whole.png" "$TMP/whole.dec.png" "$TMP/whole.err"
# --crop gives the picture back at its own size: the decode's top-left.
expect_contains "whole: the crop to decode with" "decode with --crop 451x300" "$TMP/whole.err"
expect_exit 0 "whole decode --crop" -- "$WAI" decode --set "$SET" --crop 451x300 "$TMP/whole.wih1" -o "$TMP/whole.crop.png"
/usr/bin/python3 -c '
import sys
import numpy as np
from PIL import Image
a = np.asarray(Image.open(sys.argv[1]))
b = np.asarray(Image.open(sys.argv[2]))
sys.exit(0 if b.shape == (300, 451, 3) and np.array_equal(a[:300, :451], b) else 1)
' "$TMP/whole.dec.png" "$TMP/whole.crop.png" && ok || fail "--crop 451x300 is not the decode's top-left 451 x 300"
expect_exit 2 "--crop larger than the picture" -- "$WAI" decode --set "$SET" --crop 513x300 "$TMP/whole.wih1" -o "$TMP/x.png"
expect_contains "--crop too large: says both sizes" "--crop 513x300 is larger than the picture, 512x320" "$TMP/err"
[ ! -e "$TMP/x.png" ] && ok || fail "a refused --crop wrote its output"
expect_exit 2 "--crop malformed" -- "$WAI" decode --set "$SET" --crop 451 "$TMP/whole.wih1" -o "$TMP/x.png"
expect_exit 2 "--crop of audio" -- "$WAI" decode --set "$REPO/tests/corpus/neural/audio/set0" --crop 1x1 \
    "$REPO/tests/corpus/neural/audio/clip0.wia1" -o "$TMP/x.wav"
# The same payload at every thread count.
expect_exit 0 "whole 2 threads" -- "$WAI" encode --capability $CAP --set "$SET" --threads 2 \
    "$TMP/whole.png" -o "$TMP/whole2.wih1"
if cmp -s "$TMP/whole.wih1" "$TMP/whole2.wih1"; then ok; else fail "whole: 2 threads change the payload"; fi

# 3. Progress lines for a large picture, none with --quiet.
expect_exit 0 "large" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/large.png" -o "$TMP/large.wih1"
expect_contains "large: progress" "wai encode: the analysis (g_a, h_a)" "$TMP/err"
expect_contains "large: progress check" "wai encode: decoding the payload to measure it" "$TMP/err"
expect_exit 0 "large quiet" -- "$WAI" encode --capability $CAP --set "$SET" --quiet -y \
    "$TMP/large.png" -o "$TMP/large.wih1"
if grep -q '^wai encode:' "$TMP/err"; then fail "large --quiet: progress lines"; else ok; fi

# 4. Refusals and usage errors.
mkdir -p "$TMP/decoder_only" "$TMP/bad_analysis"
cp "$SET/g_s.whm" "$SET/h_s.whm" "$SET/entropy.json" "$TMP/decoder_only/"
cp "$SET"/* "$TMP/bad_analysis/"
echo '{"kind": "wai-webnn-graph/1"}' >"$TMP/bad_analysis/analysis.webnn.json"
expect_exit 1 "no analysis" -- "$WAI" encode --capability $CAP --set "$TMP/decoder_only" \
    "$TMP/crop.png" -o "$TMP/x.wih1"
expect_contains "no analysis: code" "refused: set_incomplete" "$TMP/err"
# The shipped set's listing names the analysis as it was: the encoder's
# read of an altered one is set_incomplete (check 5 over every file)...
expect_exit 1 "altered analysis, the old listing" -- "$WAI" encode --capability $CAP \
    --set "$TMP/bad_analysis" "$TMP/crop.png" -o "$TMP/x.wih1"
expect_contains "altered analysis: code" "refused: set_incomplete" "$TMP/err"
expect_contains "altered analysis: which file" "analysis.webnn.json is not in" "$TMP/err"
# ...and listed as it is, the program itself is refused.
"$WAI" set list "$TMP/bad_analysis" -o "$TMP/bad_analysis/listing.json" -y
expect_exit 1 "bad analysis" -- "$WAI" encode --capability $CAP --set "$TMP/bad_analysis" \
    "$TMP/crop.png" -o "$TMP/x.wih1"
expect_contains "bad analysis: code" "refused: model_mismatch" "$TMP/err"
[ ! -e "$TMP/x.wih1" ] && ok || fail "a refused encode wrote its output"
expect_exit 2 "no set" -- "$WAI" encode --capability $CAP "$TMP/crop.png" -o "$TMP/x.wih1"
expect_exit 2 "no output" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/crop.png"
expect_exit 2 "two pictures" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/crop.png" \
    "$TMP/whole.png" -o "$TMP/x.wih1"
expect_exit 2 "not a picture" -- "$WAI" encode --capability $CAP --set "$SET" "$SET/entropy.json" \
    -o "$TMP/x.wih1"
expect_exit 2 "exists" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/crop.png" -o "$TMP/crop.wih1"
# --quality Q: the set is --set's qQ (a folder of rate points), the same
# payload as naming it; each shipped point decodes against its own set.
SETS=$REPO/examples/hyperprior/sets
for q in $(ls "$SETS" | sed -n 's/^q\([0-9]\)$/\1/p'); do
    expect_exit 0 "--quality $q" -- "$WAI" encode --capability $CAP --set "$SETS" --quality "$q" \
        "$TMP/crop.png" -o "$TMP/q$q.wih1"
    expect_contains "--quality $q: names its set" "set: $SETS/q$q (decode with --set $SETS/q$q)" "$TMP/err"
    expect_exit 0 "--quality $q: as its set named" -- "$WAI" encode --capability $CAP --set "$SETS/q$q" \
        "$TMP/crop.png" -o "$TMP/named$q.wih1"
    cmp -s "$TMP/q$q.wih1" "$TMP/named$q.wih1" && ok || fail "--quality $q: not the payload of --set $SETS/q$q"
    expect_exit 0 "--quality $q decode" -- "$WAI" decode --set "$SETS/q$q" "$TMP/q$q.wih1" -o "$TMP/q$q.png"
done
cmp -s "$TMP/q3.wih1" "$REPO/examples/hyperprior/chelsea.wih1" && ok || fail "--quality 3: not chelsea.wih1"
expect_exit 2 "--quality 4: not shipped" -- "$WAI" encode --capability $CAP --set "$SETS" --quality 4 \
    "$TMP/crop.png" -o "$TMP/x.wih1"
expect_contains "--quality 4: lists the points" "has no q4 (its rate points: 1, 3" "$TMP/err"
expect_exit 2 "--quality 9" -- "$WAI" encode --capability $CAP --set "$SETS" --quality 9 "$TMP/crop.png" \
    -o "$TMP/x.wih1"
expect_exit 2 "--quality without --set" -- "$WAI" encode --capability $CAP --quality 3 "$TMP/crop.png" \
    -o "$TMP/x.wih1"
expect_exit 2 "the folder without --quality" -- "$WAI" encode --capability $CAP --set "$SETS" \
    "$TMP/crop.png" -o "$TMP/x.wih1"
expect_contains "the folder without --quality: says so" "is a folder of rate points" "$TMP/err"
expect_exit 2 "--quality of int_motion" -- "$WAI" encode --capability wai.video.int_motion --quality 3 \
    "$TMP/crop.png" -o "$TMP/x.wiv1"
[ ! -e "$TMP/x.wih1" ] && ok || fail "a refused --quality wrote its output"

# 4700 x 4700 is under the PNG reader's 2^26 samples, but its coded 4736 x
# 4736 is not: the encoder's too_large.
/usr/bin/python3 -c "
from PIL import Image; Image.new('RGB', (4700, 4700), (90, 120, 200)).save('$TMP/huge.png')"
expect_exit 1 "too large" -- "$WAI" encode --capability $CAP --set "$SET" "$TMP/huge.png" -o "$TMP/x.wih1"
expect_contains "too large: code" "refused: too_large" "$TMP/err"

# 5. A keyframe-1 clip (wai.video.int_hyper): frame 0 a WIH1, the rest
# motion-coded from its decode; padded to multiples of 64; the decode's
# squared error over the coded frames is the one reported.
/usr/bin/python3 - "$PHOTOS/chelsea.png" "$TMP" <<'EOF'
import sys
import numpy as np
from PIL import Image
src, tmp = sys.argv[1:]
a = np.asarray(Image.open(src).convert("RGB"))
for f in range(4):
    Image.fromarray(np.ascontiguousarray(a[10 + 2 * f:210 + 2 * f, 5 + 3 * f:305 + 3 * f])).save(
        f"{tmp}/kf{f}.png")
EOF
expect_exit 0 "clip" -- "$WAI" encode --capability wai.video.int_hyper --set "$SET" --q 8 \
    "$TMP"/kf0.png "$TMP"/kf1.png "$TMP"/kf2.png "$TMP"/kf3.png -o "$TMP/clip.wiv1"
cp "$TMP/err" "$TMP/clip.err"
expect_contains "clip: padded" "clip: 300x200, coded as 320x256" "$TMP/clip.err"
expect_contains "clip: keyframe" "keyframe: WIH1 of" "$TMP/clip.err"
expect_exit 0 "clip decode" -- "$WAI" decode --set "$SET" "$TMP/clip.wiv1" -o "$TMP/clipd_%d.png"
cat >"$TMP/clip.py" <<'EOF'
import sys
import numpy as np
from PIL import Image
tmp = sys.argv[1]
sse = samples = 0
for f in range(4):
    a = np.asarray(Image.open(f"{tmp}/kf{f}.png").convert("RGB")).astype(np.int64)
    a = np.pad(a, ((0, 256 - a.shape[0]), (0, 320 - a.shape[1]), (0, 0)), mode="edge")
    b = np.asarray(Image.open(f"{tmp}/clipd_{f}.png").convert("RGB")).astype(np.int64)
    sse += int(((a - b) ** 2).sum())
    samples += a.size
want = f"sse: {sse} over {samples} samples"
if want not in open(f"{tmp}/clip.err").read():
    sys.exit(f"'{want}' not in the report")
EOF
if /usr/bin/python3 "$TMP/clip.py" "$TMP" >"$TMP/m.err" 2>&1; then ok; else fail "clip: $(cat "$TMP/m.err")"; fi
expect_exit 0 "clip of one frame" -- "$WAI" encode --capability wai.video.int_hyper --set "$SET" \
    "$TMP/crop.png" -o "$TMP/one.wiv1"
expect_exit 0 "clip of one frame: decode" -- "$WAI" decode --set "$SET" "$TMP/one.wiv1" --json
expect_exit 0 "clip of one frame: split" -- "$WAI" split "$TMP/one.wiv1" -o "$TMP/one_%d.wif1"
expect_exit 0 "clip of one frame: join" -- "$WAI" join "$TMP/one_0.wif1" -o "$TMP/one_j.wiv1"
if cmp -s "$TMP/one_j.wiv1" "$TMP/one.wiv1"; then ok; else fail "one frame: join differs"; fi
expect_exit 2 "clip without a set" -- "$WAI" encode --capability wai.video.int_hyper \
    "$TMP/kf0.png" -o "$TMP/x.wiv1"
# Its WIF1 group (wai.video.int_hyper.frame): --frames writes what `wai
# split` cuts from the clip, the frames decode to the clip's frames, and
# `wai join` gives the clip back byte for byte.
mkdir -p "$TMP/kff" "$TMP/kfs"
expect_exit 0 "clip as frames" -- "$WAI" encode --capability wai.video.int_hyper.frame \
    --set "$SET" --q 8 "$TMP"/kf0.png "$TMP"/kf1.png "$TMP"/kf2.png "$TMP"/kf3.png \
    -o "$TMP/kff/f_%d.wif1"
expect_exit 0 "clip split" -- "$WAI" split "$TMP/clip.wiv1" -o "$TMP/kfs/f_%d.wif1"
same=0
for f in 0 1 2 3; do cmp -s "$TMP/kff/f_$f.wif1" "$TMP/kfs/f_$f.wif1" || same=1; done
if [ "$same" -eq 0 ]; then ok; else fail "encode --frames and split of the clip differ"; fi
expect_exit 0 "frames decode" -- "$WAI" decode --set "$SET" "$TMP"/kfs/f_0.wif1 \
    "$TMP"/kfs/f_1.wif1 "$TMP"/kfs/f_2.wif1 "$TMP"/kfs/f_3.wif1 -o "$TMP/kfd_%d.png"
same=0
for f in 0 1 2 3; do cmp -s "$TMP/kfd_$f.png" "$TMP/clipd_$f.png" || same=1; done
if [ "$same" -eq 0 ]; then ok; else fail "the WIF1 frames decode unlike the clip"; fi
expect_exit 0 "frames join" -- "$WAI" join "$TMP"/kfs/f_0.wif1 "$TMP"/kfs/f_1.wif1 \
    "$TMP"/kfs/f_2.wif1 "$TMP"/kfs/f_3.wif1 -o "$TMP/joined.wiv1"
if cmp -s "$TMP/joined.wiv1" "$TMP/clip.wiv1"; then ok; else fail "join did not give the clip back"; fi
expect_exit 2 "motion clip with a set" -- "$WAI" encode --capability wai.video.int_motion \
    --set "$SET" "$TMP/kf0.png" -o "$TMP/x.wiv1"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
