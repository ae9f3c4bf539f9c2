#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Executions a second of fuzz targets in two fuzz builds (before and after a
# change to a harness or to the library), as a ratio.
#
#   bench/bench_fuzz_speed.sh BUILD_A BUILD_B SECONDS ROUNDS TARGET...
#
# Each round runs every target from A then from B for SECONDS, each on a fresh
# copy of its seed corpus (tests/fuzz/corpus/TARGET) with the target's .flags,
# so the two start from the same inputs; rounds alternate which goes first.
# Prints each run's executions and, per target, the summed B/A ratio. A fuzz
# run is not a fixed workload (mutations are random and the corpus grows), so
# the ratio over a few rounds, not one run, is the figure.
set -eu

if [ $# -lt 5 ]; then
    echo "usage: $0 BUILD_A BUILD_B SECONDS ROUNDS TARGET..." >&2
    exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
a=$1 b=$2 seconds=$3 rounds=$4
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wai_fuzz_speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# run BUILD TARGET: executions of one run, on stdout.
run() {
    local prog=$1/tests/fuzz/$2 flags=()
    [ -x "$prog" ] || { echo "$prog not built" >&2; exit 2; }
    [ -f "$repo/tests/fuzz/$2.flags" ] && read -r -a flags < "$repo/tests/fuzz/$2.flags"
    rm -rf "$tmp/corpus" && mkdir "$tmp/corpus"
    [ -d "$repo/tests/fuzz/corpus/$2" ] && cp -R "$repo/tests/fuzz/corpus/$2/." "$tmp/corpus/"
    "$prog" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$tmp/" "$tmp/corpus" 2>&1 |
        grep -o 'number_of_executed_units: *[0-9]*' | grep -o '[0-9]*$'
}

for t in "$@"; do
    sum_a=0 sum_b=0
    for ((r = 0; r < rounds; r++)); do
        if ((r % 2 == 0)); then
            na=$(run "$a" "$t"); nb=$(run "$b" "$t")
        else
            nb=$(run "$b" "$t"); na=$(run "$a" "$t")
        fi
        echo "$t round $r: A $na, B $nb executions in ${seconds}s"
        sum_a=$((sum_a + na)) sum_b=$((sum_b + nb))
    done
    awk -v t="$t" -v a="$sum_a" -v b="$sum_b" -v s="$seconds" -v r="$rounds" 'BEGIN {
        printf "%s: A %.0f exec/s, B %.0f exec/s, B/A %.2f\n", t, a / (s * r), b / (s * r), b / a }'
done
