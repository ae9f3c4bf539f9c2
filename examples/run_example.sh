#!/usr/bin/env bash
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
