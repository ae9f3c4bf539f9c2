#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai decode --start/--frames: frames N .. N+M-1 of a full decode, byte for
# byte, for every kind of clip (WIV1 keyframe 0 and 1, WIC1, a WIF1 frame
# stream of files), to a file (whole decode) and to a pipe (streamed);
# --start in seconds with --fps; outputs keep their numbers; a start past
# the last output is a usage error that leaves no file.
# usage: tests/tool/test_seek.sh WAI_BINARY
set -u
WAI=${1:?usage: test_seek.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
C=$ROOT/tests/corpus
N=$C/neural

# check_slices NAME FRAMES -- DECODE-ARGS...: the full decode's raw frames,
# then every --start/--frames pair below against its slice.
check_slices() {
    local name=$1 n=$2
    shift 3
    rm -f "$TMP/full.rgb"
    "$WAI" decode "$@" --format rgb -o "$TMP/full.rgb" 2>"$TMP/err" ||
        { fail "$name: the full decode: $(head -c 200 "$TMP/err")"; return; }
    local size frame
    size=$(stat -c %s "$TMP/full.rgb")
    frame=$((size / n))
    [ $((frame * n)) -eq "$size" ] && ok || fail "$name: $size bytes are not $n frames"
    for pair in "0 1" "1 1" "1 2" "$((n / 2)) 1" "$((n - 1)) 1" "$((n - 1)) 5" "2 0"; do
        read -r start count <<<"$pair"
        [ "$start" -lt "$n" ] || continue
        local frames=() want=$((n - start))
        if [ "$count" -gt 0 ]; then
            frames=(--frames "$count")
            [ "$count" -lt "$want" ] && want=$count
        fi
        dd if="$TMP/full.rgb" of="$TMP/want.rgb" bs="$frame" skip="$start" count="$want" status=none
        rm -f "$TMP/part.rgb"
        "$WAI" decode "$@" --start "$start" "${frames[@]}" --format rgb -o "$TMP/part.rgb" 2>"$TMP/err"
        cmp -s "$TMP/part.rgb" "$TMP/want.rgb" && ok ||
            fail "$name: --start $start ${frames[*]} to a file: not frames $start.. of the full decode"
        "$WAI" decode "$@" --start "$start" "${frames[@]}" --format rgb -o - >"$TMP/pipe.rgb" 2>"$TMP/err"
        cmp -s "$TMP/pipe.rgb" "$TMP/want.rgb" && ok ||
            fail "$name: --start $start ${frames[*]} to a pipe: not frames $start.. of the full decode"
    done
    # Past the last output: a usage error, no file.
    expect_exit 2 "$name: --start $n" -- "$WAI" decode "$@" --start "$n" -o "$TMP/past.rgb"
    expect_contains "$name: past the end" "--start $n is past the last output: the stream has $n" "$TMP/err"
    [ ! -e "$TMP/past.rgb" ] && ok || fail "$name: a start past the end left a file"
}

check_slices "hello.wiv1" 3 -- "$ROOT/examples/hello.wiv1"
for clip in clip00 clip02 clip05; do
    n=$(ls "$C/motion/valid/$clip"/f*.wif1 | wc -l)
    check_slices "$clip.wiv1" "$n" -- "$C/motion/valid/$clip.wiv1"
    check_slices "$clip as a WIF1 frame stream" "$n" -- $(ls "$C/motion/valid/$clip"/f*.wif1)
done
check_slices "a keyframe-1 clip" "$("$WAI" inspect "$N/video/clip0.wiv1" | sed -n 's/.*"n_frames": \([0-9]*\).*/\1/p')" \
    -- "$N/video/clip0.wiv1" --set "$N/hyper/set0"
check_slices "a WIC1 clip" 6 -- "$N/cond/valid/six_frames/clip.wic1" --set "$N/cond/valid/six_frames"

# Seconds: the frame shown at T at --fps's rate (0.1 s at 30/1: frame 3).
clip=$C/motion/valid/clip00.wiv1
"$WAI" decode "$clip" --json --start 3 >"$TMP/frames.json"
expect_exit 0 "--start 0.1s --fps 30" -- "$WAI" decode "$clip" --json --start 0.1s --fps 30
cmp -s "$TMP/out" "$TMP/frames.json" && ok || fail "--start 0.1s at 30 fps is not --start 3"
expect_exit 0 "--start 0.0999s --fps 30" -- "$WAI" decode "$clip" --json --start 0.0999s --fps 30
expect_contains "0.0999 s at 30 fps is frame 2 (floor)" '"outputs": [{' "$TMP/out"
[ "$(grep -o '"sha256"' "$TMP/out" | wc -l)" -eq $(( $(grep -o '"sha256"' "$TMP/frames.json" | wc -l) + 1 )) ] &&
    ok || fail "0.0999 s at 30 fps did not start at frame 2"
expect_exit 0 "--start 0.04s --fps 25/1 to Y4M" -- "$WAI" decode "$clip" --start 0.04s --fps 25/1 -o "$TMP/s.y4m"
expect_exit 2 "seconds without --fps" -- "$WAI" decode "$clip" --start 1s
expect_contains "why" "--start in seconds needs --fps" "$TMP/err"
for bad in -1 1.5 1.s .5s 1.1234567s 5000000000s x; do
    expect_exit 2 "--start $bad" -- "$WAI" decode "$clip" --start "$bad"
done
expect_exit 2 "--frames 0" -- "$WAI" decode "$clip" --frames 0

# Outputs keep their numbers: a PNG pattern names frame 2 frame_02.
expect_exit 0 "--start 2 to a PNG pattern" -- "$WAI" decode "$clip" --start 2 --frames 1 -o "$TMP/frame_%02d.png"
[ -e "$TMP/frame_02.png" ] && [ ! -e "$TMP/frame_00.png" ] && [ ! -e "$TMP/frame_03.png" ] && ok ||
    fail "--start 2 --frames 1 wrote $(ls "$TMP" | grep frame_ | tr '\n' ' ')"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
