#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai decode -o - streams: a clip's frames reach standard output as they
# are decoded (wai_decoder_config.streaming), the same bytes a file gets;
# a clip refused part-way has written its earlier frames to the pipe, and
# says so, while a file output keeps §8's rule (a refused clip leaves
# nothing).
# usage: tests/tool/test_stream.sh WAI_BINARY
set -u
WAI=${1:?usage: test_stream.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
C=$ROOT/tests/corpus/motion

for clip in "$ROOT/examples/hello.wiv1" "$C/valid/clip00.wiv1" "$C/valid/clip03.wiv1"; do
    name=$(basename "$clip")
    for fmt in y4m rgb; do
        expect_exit 0 "$name to a file ($fmt)" -- "$WAI" decode "$clip" --format $fmt -o "$TMP/f.$fmt"
        "$WAI" decode "$clip" --format $fmt -o - >"$TMP/p.$fmt" 2>"$TMP/err" && ok || fail "$name: -o - ($fmt)"
        cmp -s "$TMP/f.$fmt" "$TMP/p.$fmt" && ok || fail "$name: the pipe's $fmt is not the file's"
        rm -f "$TMP/f.$fmt"
    done
done

# A clip whose stream runs out at its third frame: two frames on the pipe.
bad=$C/refuse/stream_exhausted.wiv1
"$WAI" decode "$bad" --format rgb -o - >"$TMP/p.rgb" 2>"$TMP/err"
[ $? -eq 1 ] && ok || fail "a refused clip on a pipe: exit 1"
expect_contains "the refusal" "refused: stream_exhausted" "$TMP/err"
expect_contains "what the pipe got" "2 frames were written to standard output before the refusal: they belong to a refused clip" "$TMP/err"
size=$("$WAI" inspect "$bad" | sed -n 's/.*"h": \([0-9]*\), "w": \([0-9]*\).*/\1 \2/p')
read -r h w <<<"$size"
[ "$(stat -c %s "$TMP/p.rgb")" -eq $((2 * h * w * 3)) ] && ok || fail "the pipe holds $(stat -c %s "$TMP/p.rgb") bytes, not two ${w}x${h} frames"
expect_exit 1 "the same clip to a file" -- "$WAI" decode "$bad" -o "$TMP/bad.rgb"
[ ! -e "$TMP/bad.rgb" ] && ok || fail "a refused clip left a file"
# A clip whose stream does not end canonically: every frame, then the refusal.
"$WAI" decode "$C/refuse/stream_extra_word.wiv1" --format rgb -o - >"$TMP/q.rgb" 2>"$TMP/err"
[ $? -eq 1 ] && ok || fail "stream_noncanonical on a pipe: exit 1"
expect_contains "noncanonical after the frames" "refused: stream_noncanonical" "$TMP/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
