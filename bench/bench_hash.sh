#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# libwai's SHA-256 and BLAKE3 throughput next to sha256sum and single-threaded
# b3sum.
#
#   bench/bench_hash.sh BUILD_DIR
#
# Runs BUILD_DIR/bench/wai_bench_hash (in-memory, 64 MiB buffer, best of 5),
# then times each peer on one 256 MiB random temp file (best of 3, after a
# warm-up read so the file is in the page cache), and prints libwai's rate as
# a ratio of each peer's. 1 MB = 10^6 bytes throughout. The peers also pay for
# read(2) from the page cache, which is small next to hashing at these rates.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
bench=$1/bench/wai_bench_hash
[ -x "$bench" ] || bench=$1/wai_bench_hash
if [ ! -x "$bench" ]; then
    echo "wai_bench_hash not found under $1 (build the wai_bench_hash target)" >&2
    exit 2
fi

size=$((256 * 1024 * 1024))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wai_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
file=$tmp/data
head -c "$size" /dev/urandom > "$file"

# best_mbps CMD...: best-of-3 throughput of CMD over the 256 MiB file, in
# MB/s, or "-" when CMD is unavailable or fails.
best_mbps() {
    command -v "$1" >/dev/null 2>&1 || { echo "-"; return; }
    "$@" "$file" >/dev/null 2>&1 || { echo "-"; return; }  # warm-up
    local best=0 t0 t1 ns rate
    for _ in 1 2 3; do
        t0=$(date +%s%N)
        "$@" "$file" >/dev/null
        t1=$(date +%s%N)
        ns=$((t1 - t0))
        [ $ns -gt 0 ] || ns=1
        rate=$((size * 1000 / ns))
        [ $rate -gt $best ] && best=$rate
    done
    echo "$best"
}

# ratio A B: A/B to two decimals, integer arithmetic only.
ratio() {
    if [ "$2" == "-" ] || [ "$2" -eq 0 ]; then
        echo "n/a"
        return
    fi
    local r=$(($1 * 100 / $2))
    printf '%d.%02d' $((r / 100)) $((r % 100))
}

echo "== libwai (in memory; MB/s) =="
raw=$("$bench" --raw)
echo "$raw"
wai_sha=$(echo "$raw" | awk '$1 == "sha256_64MiB" {print $2}')
wai_b3=$(echo "$raw" | awk '$1 == "blake3_64MiB" {print $2}')

peer_sha=$(best_mbps sha256sum)
peer_b3=$(best_mbps b3sum --num-threads 1)

echo
echo "== against peers (256 MiB file; MB/s) =="
printf '%-8s %12s %-26s %12s %8s\n' hash libwai peer "peer MB/s" ratio
printf '%-8s %12s %-26s %12s %8s\n' sha256 "$wai_sha" sha256sum "$peer_sha" "$(ratio "$wai_sha" "$peer_sha")"
printf '%-8s %12s %-26s %12s %8s\n' blake3 "$wai_b3" "b3sum --num-threads 1" "$peer_b3" "$(ratio "$wai_b3" "$peer_b3")"
