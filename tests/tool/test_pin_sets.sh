#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Pins hold every byte a decode may read (docs/spec-readings.md, L5 and L5a),
# for every kind of shipped set: the hyperprior's (with the encoder's
# analysis networks), bmshj2018's (with its three float programs and
# wai-usage.json), hello_set, and a one-file set pinned form-less. For each
# file of each set: altered in one byte, removed, renamed, and replaced by a
# link that leaves the set (the same bytes) are all set_incomplete under the
# set's pin; a listing that leaves out a file a path reads, with the file
# there, is set_incomplete too. Nothing altered ever decodes "ok". A pin
# states its tier (L5b), a fallback has its own pin, and a set past
# --max-memory routes to the fallback.
# usage: tests/tool/test_pin_sets.sh WAI_BINARY
set -u
WAI=${1:?usage: test_pin_sets.sh WAI_BINARY}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
EX=$ROOT/examples
mkdir -p "$TMP/outside"

# refused WHAT DIR PIN PAYLOAD [ARGS...]: the pinned decode is set_incomplete.
refused() {
    local what=$1 dir=$2 pin=$3 payload=$4
    shift 4
    expect_exit 1 "$what" -- "$WAI" decode --json --set "$dir" --pin "$pin" "$@" "$payload"
    expect_contains "$what: set_incomplete" '"status": "set_incomplete"' "$TMP/out"
}

# one_kind NAME SHIPPED PAYLOAD READ: every way each of SHIPPED's files can
# fail. READ: the files a native decode's paths read (a listing that leaves
# one of them out refuses; any other file, left out of the listing, is not
# read and the decode stays ok).
one_kind() {
    local name=$1 shipped=$2 payload=$3 read=$4 d pin f
    d=$TMP/$name
    rm -rf "$d"; cp -r "$shipped" "$d"
    if [[ -e "$d/listing.json" ]]; then
        pin=$("$WAI" set pin "$d")
    else
        pin=$(sha256sum "$d"/* | cut -c1-64)   # a one-file set: form-less
    fi
    expect_exit 0 "$name: pinned, as shipped" -- "$WAI" decode --json --set "$d" --pin "$pin" "$payload"
    for f in $(cd "$shipped" && ls); do
        # One byte altered, in the middle of the file.
        rm -rf "$d"; cp -r "$shipped" "$d"
        local size at b
        size=$(stat -c %s "$d/$f"); at=$((size / 2))
        b=$(od -An -tu1 -j "$at" -N1 "$d/$f" | tr -d ' ')
        printf "$(printf '\\%03o' $(((b + 1) % 256)))" | dd of="$d/$f" bs=1 seek="$at" conv=notrunc status=none
        refused "$name: $f altered in one byte" "$d" "$pin" "$payload"
        # Removed, and renamed.
        rm -rf "$d"; cp -r "$shipped" "$d"; rm "$d/$f"
        refused "$name: $f removed" "$d" "$pin" "$payload"
        rm -rf "$d"; cp -r "$shipped" "$d"; mv "$d/$f" "$d/$f.renamed"
        refused "$name: $f renamed" "$d" "$pin" "$payload"
        # A link out of the set, to the very same bytes: not read.
        rm -rf "$d"; cp -r "$shipped" "$d"; mkdir -p "$TMP/outside/$name"
        mv "$d/$f" "$TMP/outside/$name/$f"; ln -s "$TMP/outside/$name/$f" "$d/$f"
        refused "$name: $f a link out of the set" "$d" "$pin" "$payload"
        expect_contains "$name: $f: says the link is not read" "a link out of the set's folder" "$TMP/err"
        rm -f "$TMP/outside/$name/$f"
    done
    # A file a path reads, there but left out of the listing.
    [[ -e "$shipped/listing.json" ]] || return 0
    for f in $(cd "$shipped" && ls | grep -vx listing.json); do
        rm -rf "$d"; cp -r "$shipped" "$d"
        mv "$d/$f" "$TMP/aside"
        "$WAI" set list "$d" -o "$d/listing.json" -y
        mv "$TMP/aside" "$d/$f"
        pin=$(sha256sum <"$d/listing.json" | cut -c1-64)
        if [[ " $read " == *" $f "* ]]; then
            refused "$name: $f read and unlisted" "$d" "$pin" "$payload"
        else
            expect_exit 0 "$name: $f unlisted and not read: ok" -- \
                "$WAI" decode --json --set "$d" --pin "$pin" "$payload"
        fi
    done
}

# Every shipped set carries its listing, and its pin decodes: `wai set pin`
# refuses a set whose listing.json is not the listing of its files.
# Each then decodes under that pin: its own payload (bmshj2018's q1 ships
# none: its pinned set's checks and declared cost pass, inspect --cost).
payload_of() {
    case "${1#"$EX/"}" in
    hello_set) echo "$EX/hello.wih1" ;;
    hyperprior/sets/q3) echo "$EX/hyperprior/chelsea.wih1" ;;
    hyperprior/sets/q*) echo "$EX/hyperprior/ladder/chelsea_${1##*/}.wih1" ;;
    bmshj2018/sets/q3) echo "$EX/bmshj2018/chelsea.b18f" ;;
    mlicpp/sets/q3) echo "$EX/mlicpp/chelsea.wim1" ;;
    mlicpp/sets/q*) echo "$EX/mlicpp/ladder/chelsea_${1##*/}.wim1" ;;
    esac
}
for d in "$EX"/hello_set "$EX"/*/sets/*/; do
    d=${d%/}
    expect_exit 0 "shipped ${d#"$ROOT/"}: wai set pin" -- "$WAI" set pin "$d"
    pin=$(cat "$TMP/out")
    if p=$(payload_of "$d") && [ -n "$p" ]; then
        expect_exit 0 "shipped ${d#"$ROOT/"}: decodes under its pin" -- \
            "$WAI" decode --json --set "$d" --pin "$pin" "$p"
    else
        expect_exit 0 "shipped ${d#"$ROOT/"}: its pin resolves" -- \
            "$WAI" inspect --cost --set "$d" --pin "$pin" "$EX/bmshj2018/chelsea.b18f"
        expect_contains "shipped ${d#"$ROOT/"}: the cost after the set's checks" '"cost": {' "$TMP/out"
    fi
done

one_kind hyperprior "$EX/hyperprior/sets/q3" "$EX/hyperprior/chelsea.wih1" "entropy.json g_s.whm h_s.whm"
one_kind bmshj2018 "$EX/bmshj2018/sets/q3" "$EX/bmshj2018/chelsea.b18f" \
    "cdfs_q3.json decoder.webnn.json decoder.f32"
one_kind mlicpp "$EX/mlicpp/sets/q3" "$EX/mlicpp/chelsea.wim1" "model.wmb"
one_kind hello "$EX/hello_set" "$EX/hello.wih1" "entropy.json g_s.whm h_s.whm"
one_kind splat "$ROOT/tests/corpus/neural/splat/set0" "$ROOT/tests/corpus/neural/splat/attrs0.wis1" ""
# A form-less pin holds a set of one file only: the same digest with a
# second file beside it does not pin the set.
rm -rf "$TMP/two"; mkdir "$TMP/two"
cp "$EX/bmshj2018/sets/q3/cdfs_q3.json" "$EX/bmshj2018/sets/q3/decoder.webnn.json" \
    "$EX/bmshj2018/sets/q3/decoder.f32" "$TMP/two/"
refused "bmshj2018: a form-less pin over cdfs_q3.json" "$TMP/two" \
    "$(sha256sum <"$TMP/two/cdfs_q3.json" | cut -c1-64)" "$EX/bmshj2018/chelsea.b18f"

# L5b: a pin states its tier, and the decode reads it from the pin.
B=$EX/bmshj2018/sets/q3 H=$EX/hyperprior/sets/q3
bpin=$("$WAI" set pin "$B") hpin=$("$WAI" set pin "$H")
expect_exit 1 "a pin stating decode-equivalence: no float path" -- "$WAI" decode --json --set "$B" \
    --pin "$bpin:tier=decode-equivalence" "$EX/bmshj2018/chelsea.b18f"
expect_contains "not_dispatchable" '"status": "not_dispatchable"' "$TMP/out"
expect_contains "the report needs decode-equivalence" '"needed": "decode-equivalence"' "$TMP/out"
expect_exit 0 "the same pin without the tier" -- "$WAI" decode --json --set "$B" --pin "$bpin" \
    "$EX/bmshj2018/chelsea.b18f"
expect_contains "needs none" '"needed": "none"' "$TMP/out"
expect_exit 0 "the integer hyperprior under a pin stating it" -- "$WAI" decode --json --set "$H" \
    --pin "$hpin:tier=decode-equivalence" "$EX/hyperprior/chelsea.wih1"
expect_exit 0 "--pin-tier repeating the pin's" -- "$WAI" decode --json --set "$H" \
    --pin "$hpin:tier=decode-equivalence" --pin-tier decode-equivalence "$EX/hyperprior/chelsea.wih1"
expect_exit 2 "--pin-tier contradicting the pin's" -- "$WAI" decode --json --set "$H" \
    --pin "$hpin:tier=decode-equivalence" --pin-tier none "$EX/hyperprior/chelsea.wih1"
expect_exit 2 "a pin with another suffix" -- "$WAI" decode --json --set "$H" \
    --pin "$hpin:tiers=x" "$EX/hyperprior/chelsea.wih1"
# The fallback has its own pin (and tier); a wrong one ends the route.
expect_exit 0 "the fallback under its own pin" -- "$WAI" decode --json --set "$B" \
    --pin "$bpin:tier=decode-equivalence" "$EX/bmshj2018/chelsea.b18f" \
    --fallback "wai.neural.int_hyper:$EX/hyperprior/chelsea.wih1" --fallback-set "$H" --fallback-pin "$hpin"
expect_contains "routed" '"route": [{"capability": "wai.neural.bmshj2018", "status": "not_dispatchable"}' "$TMP/out"
expect_exit 1 "the fallback under another pin" -- "$WAI" decode --json --set "$B" \
    --pin "$bpin:tier=decode-equivalence" "$EX/bmshj2018/chelsea.b18f" \
    --fallback "wai.neural.int_hyper:$EX/hyperprior/chelsea.wih1" --fallback-set "$H" --fallback-pin "$bpin"
expect_contains "set_incomplete" '"status": "set_incomplete"' "$TMP/out"
expect_exit 2 "--fallback-pin needs --fallback" -- "$WAI" decode --json --set "$H" --fallback-pin "$hpin" \
    "$EX/hyperprior/chelsea.wih1"
# A memory limit below the set's size: cost_over_limit, which routes.
expect_exit 0 "--max-memory below the set routes to the fallback" -- "$WAI" decode --json \
    --max-memory 1000000 --set "$B" "$EX/bmshj2018/chelsea.b18f" --fallback "wai.video.int_motion:$EX/hello.wiv1"
expect_contains "the primary: cost_over_limit" '{"capability": "wai.neural.bmshj2018", "status": "cost_over_limit"}' "$TMP/out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
