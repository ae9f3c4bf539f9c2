#!/usr/bin/env bash
# The README's first command: what libwai makes of the shipped example clip.
set -u
wai=${1:-build/release/tools/wai/wai}
clip=examples/hello.wiv1
echo "\$ wai inspect $clip"
"$wai" inspect "$clip"
echo "\$ wai digest --blake3 $clip"
"$wai" digest --blake3 "$clip"
echo "\$ wai decode --json $clip"
"$wai" decode --json "$clip"
status=$?
# Exit 1 is a refusal, reported in the JSON above; only a usage or I/O error
# (2) means the example itself is broken.
[ "$status" -le 1 ]
