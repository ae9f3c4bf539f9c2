#!/usr/bin/env bash
# The README's first command: what libwai makes of the shipped example clip.
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
run decode "$clip" -o "$out" || exit 1
echo "wrote $out: play it with 'ffplay $out', or convert it with ffmpeg"
