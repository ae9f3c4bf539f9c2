#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# campaign.sh FUZZ_BUILD WORKDIR SECONDS [TARGET...]: the extended fuzz run,
# outside CI. Each target runs SECONDS on its own corpus under
# WORKDIR/corpus/NAME (seeded from tests/fuzz/corpus/NAME the first time,
# then kept: each run resumes where the last one left the corpus). Every run
# appends one line to WORKDIR/ledger.tsv:
#   utc-time  commit  target  seconds  executions  exit-status
# and a crash input is kept under WORKDIR/crashes/NAME/. A new WORKDIR starts
# its ledger as a copy of the committed tests/fuzz/campaign-ledger.tsv, so the
# rotation judges by the whole campaign and copying the ledger back loses no
# row. The figures in docs/testing.md are the ledger summed by
# tests/fuzz/campaign_sum.py (its --write puts them there).
# With no TARGET, every fuzz_* program of FUZZ_BUILD runs in turn.
#
# campaign.sh FUZZ_BUILD WORKDIR SECONDS --rotate [TARGET...]: runs until
# stopped (or every target has its goal), each turn SECONDS of the target
# furthest from its goal by the ledger (campaign_sum.py --next).
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$1" work="$2" seconds="$3"
shift 3
rotate=0
if [[ "${1:-}" == --rotate ]]; then rotate=1; shift; fi
targets=("$@")
if ((${#targets[@]} == 0)); then
    for p in "$build"/tests/fuzz/fuzz_*; do
        [[ -x "$p" && -f "$p" ]] && targets+=("$(basename "$p")")
    done
fi
mkdir -p "$work/corpus" "$work/crashes" "$work/logs"
ledger="$work/ledger.tsv"
if [[ ! -f "$ledger" && -f "$repo/tests/fuzz/campaign-ledger.tsv" ]]; then
    cp "$repo/tests/fuzz/campaign-ledger.tsv" "$ledger"
fi

run_one() {
    local name="$1"
    # The commit each run starts at: a rotation outlives commits made beside it
    # (it runs the build's binaries, so rebuild them with each commit).
    local commit
    commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    prog="$build/tests/fuzz/$name"
    if [[ ! -x "$prog" ]]; then echo "campaign: $name not built" >&2; return; fi
    corpus="$work/corpus/$name"
    if [[ ! -d "$corpus" ]]; then
        mkdir -p "$corpus"
        [[ -d "$repo/tests/fuzz/corpus/$name" ]] && cp -R "$repo/tests/fuzz/corpus/$name/." "$corpus/"
    fi
    mkdir -p "$work/crashes/$name"
    extra=()
    [[ -f "$repo/tests/fuzz/$name.flags" ]] && read -r -a extra <"$repo/tests/fuzz/$name.flags"
    log="$work/logs/$name.$(date -u +%Y%m%dT%H%M%S).log"
    rc=0
    "$prog" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        "${extra[@]}" -artifact_prefix="$work/crashes/$name/" "$corpus" >"$log" 2>&1 || rc=$?
    execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$name" \
        "$seconds" "${execs:-0}" "$rc" >>"$ledger"
    echo "campaign: $name ${seconds}s ${execs:-0} executions, exit $rc"
    # The logs of clean runs are only their counts: keep those of failures.
    if ((rc == 0)); then rm -f "$log"; fi
}

if ((rotate)); then
    touch "$ledger"
    while name="$(/usr/bin/python3 "$repo/tests/fuzz/campaign_sum.py" "$ledger" --next "${targets[@]}")" &&
        [[ -n "$name" ]]; do
        run_one "$name"
    done
else
    for name in "${targets[@]}"; do run_one "$name"; done
fi
