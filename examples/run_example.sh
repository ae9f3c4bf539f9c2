#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The README's first command: what libwai makes of the shipped examples: a
# motion-video clip, and an integer hyperprior image with its parameter set.
set -u
wai=${1:-build/release/tools/wai/wai}
clip=examples/hello.wiv1
out=build/hello.y4m
run() {
    echo "\$ wai $*"
    "$wai" "$@"
}
run inspect --cost "$clip" || exit 1
run digest --blake3 "$clip" || exit 1
run decode --json "$clip" || exit 1
run decode -y "$clip" -o "$out" || exit 1
echo "wrote $out: play it with 'ffplay $out', or convert it with ffmpeg"
# A neural decode: an integer hyperprior image against its parameter set
# (copies of tests/corpus/neural/hyper/image1.wih1 and set1/, which
# tests/tool/test_cli.sh holds them to),
# and the neural-dispatch report of which unit ran its networks.
run decode --json --set examples/hello_set examples/hello.wih1 || exit 1
run decode --report --set examples/hello_set examples/hello.wih1 || exit 1
# The float path: a real photograph (python3-skimage's coffee, held out of
# training) coded by the set libwai trains itself (examples/bmshj2018/),
# decoded through the native WebNN on cpu/webnn/float.
# PNG where the tool was built with libpng, else PPM (every build writes it).
picture=build/coffee.png
grep -q '^PNG_FOUND:INTERNAL=1' "$(dirname "$wai")/../../CMakeCache.txt" 2>/dev/null ||
    picture=build/coffee.ppm
run decode -y --report --set examples/bmshj2018/sets/q3 examples/bmshj2018/coffee.b18f \
    -o "$picture" || exit 1
bytes=$(wc -c <examples/bmshj2018/coffee.b18f)
echo "wrote $picture: a 600x400 photograph from $bytes bytes ($(awk -v b="$bytes" 'BEGIN { printf "%.3f", 8 * b / (600 * 400) }') bpp)"
# The integer codec on a real photograph: python3-skimage's chelsea (held
# out of training) coded by the hyperprior libwai trains and lowers itself
# (examples/hyperprior/), decoded in integers, the same bytes on every
# machine.
picture=build/chelsea.png
grep -q '^PNG_FOUND:INTERNAL=1' "$(dirname "$wai")/../../CMakeCache.txt" 2>/dev/null ||
    picture=build/chelsea.ppm
# Under its set's pin: the SHA-256 of the set's listing.json, which names
# every file of the set with its SHA-256, so no altered byte decodes.
run set pin examples/hyperprior/sets/q3 || exit 1
pin=$("$wai" set pin examples/hyperprior/sets/q3) || exit 1
run decode -y --set examples/hyperprior/sets/q3 --pin "$pin" examples/hyperprior/chelsea.wih1 \
    -o "$picture" || exit 1
echo "wrote $picture: $(wc -c <examples/hyperprior/chelsea.wih1) bytes of WIH1, decoded by integer networks"
# The strongest image format the specs define, wai.neural.int_mlicpp
# (WIM1): the same photograph, the same transforms, and an entropy network
# that reads the channel slices and the checkerboard half already decoded
# (examples/mlicpp/, docs/mlicpp.md), decoded in integers.
picture=build/chelsea_wim1.png
grep -q '^PNG_FOUND:INTERNAL=1' "$(dirname "$wai")/../../CMakeCache.txt" 2>/dev/null ||
    picture=build/chelsea_wim1.ppm
run decode -y --set examples/mlicpp/sets/q3 examples/mlicpp/chelsea.wim1 -o "$picture" || exit 1
echo "wrote $picture: $(wc -c <examples/mlicpp/chelsea.wim1) bytes of WIM1 (WIH1: $(wc -c <examples/hyperprior/chelsea.wih1))"
