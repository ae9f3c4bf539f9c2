#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Cross-architecture exactness check.
#
#   tests/ci/xarch.sh OUTDIR ARCH=BUILD_DIR...    (the first ARCH is the reference)
#   e.g. xarch.sh build/ci/xarch x86-64=build/ci/gcc i386=build/ci/i386 \
#                 aarch64=build/ci/aarch64 wasm32=build/ci/wasm32
#   tests/ci/xarch.sh --record OUTDIR ARCH=BUILD_DIR   one architecture's record
#   tests/ci/xarch.sh --compare OUTDIR ARCH...          the records compared
# The two halves let CI record each architecture beside that build's other
# tests (tests/ci/check.sh) and compare once all are there; the first form
# does both, the architectures side by side.
#
# For each architecture it records (a) wai_xarch_digest's output and (b) when
# tests/corpus/index.txt exists, `wai decode --json FIELDS` for every line of
# it (stdout and exit status; stderr is left out because libc error texts
# differ). Each non-reference architecture is one test: "its output is
# byte-identical to the reference's". Closes with "N passed, N failed".
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    echo "usage: $0 [--record|--compare] OUTDIR ARCH=BUILD_DIR... (--compare: ARCH...)" >&2
    exit 2
}
mode=both
case "${1:-}" in --record|--compare) mode="${1#--}"; shift ;; esac
(($# >= 2)) || usage
[[ $mode != record || $# == 2 ]] || usage
outdir="$1"; shift
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd -P)"

WAI_I386_RUNNER="$(i386_runner)"   # probe once, not per program run
export WAI_I386_RUNNER
wasi_node_probe
CORPUS_INDEX="$WAI_REPO/tests/corpus/index.txt"

# record_digest ARCH DIR OUT: (a), followed by the exit status.
record_digest() {
    local arch="$1" dir="$2" out="$3" prog rc=0
    if ! prog="$(find_program "$dir" wai_xarch_digest)"; then
        echo "# wai_xarch_digest not built in $dir" >>"$out"
        return 1
    fi
    run_for_arch "$arch" "$prog" --data "$WAI_REPO/tests" </dev/null >>"$out" 2>"$out.stderr" || rc=$?
    echo "# wai_xarch_digest exit $rc" >>"$out"
}

# corpus_command FIELDS...: the tool's arguments for one index line.
# The index (written by tests/corpus/generate.c) has the columns
#   MODE CAPABILITY STATUS MAXCOST FILES HASHES [SET [OFFER]]
# with FILES comma-separated; invoked as tests/tool/test_corpus.sh does.
# A line of another shape (FILE [--capability CAP] [--set DIR] ...) is
# passed to `wai decode --json` as it stands.
corpus_command() {
    local -a files
    case "$1" in
        decode|parse)
            IFS=, read -ra files <<<"$5"
            if [[ "$1" == parse ]]; then
                printf '%s\n' inspect --capability "$2" "${files[@]}"
            else
                printf '%s\n' decode --json --capability "$2"
                [[ "$4" == - ]] || printf '%s\n' --max-cost "$4"
                [[ -z "${7:-}" || "${7:-}" == - ]] || printf '%s\n' --set "$7"
                [[ -z "${8:-}" ]] || printf '%s\n' --offer "$8"
                printf '%s\n' "${files[@]}"
            fi ;;
        *) printf '%s\n' decode --json "$@" ;;
    esac
}

# record_corpus ARCH DIR OUT: (b). Runs from tests/corpus so the index's
# relative paths resolve alike on every target.
record_corpus() {
    local arch="$1" dir="$2" out="$3" tool line rc
    [[ -f "$CORPUS_INDEX" ]] || { echo "# no corpus index" >>"$out"; return 0; }
    if ! tool="$(find_program "$dir" wai)"; then
        echo "# wai tool not built in $dir" >>"$out"
        return 1
    fi
    while IFS= read -r line || [[ -n "$line" ]]; do
        [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
        local -a fields args
        read -ra fields <<<"$line"
        mapfile -t args < <(corpus_command "${fields[@]}")
        echo "== ${args[*]}" >>"$out"
        rc=0
        (cd "$(dirname "$CORPUS_INDEX")" &&
            run_for_arch "$arch" "$tool" "${args[@]}" </dev/null) >>"$out" 2>>"$out.stderr" || rc=$?
        echo "== exit $rc" >>"$out"
    done <"$CORPUS_INDEX"
}

# record_examples ARCH DIR OUT: `wai decode --json` of each line of
# tests/ci/xarch-examples.txt (the shipped examples: real photographs coded
# by trained sets), run from the repository's root.
EXAMPLES_INDEX="$WAI_REPO/tests/ci/xarch-examples.txt"
record_examples() {
    local arch="$1" dir="$2" out="$3" tool line rc
    [[ -f "$EXAMPLES_INDEX" ]] || return 0
    tool="$(find_program "$dir" wai)" || return 1
    while IFS= read -r line || [[ -n "$line" ]]; do
        [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
        local -a args
        read -ra args <<<"$line"
        echo "== decode --json ${args[*]}" >>"$out"
        rc=0
        (cd "$WAI_REPO" && run_for_arch "$arch" "$tool" decode --json "${args[@]}" </dev/null) \
            >>"$out" 2>>"$out.stderr" || rc=$?
        echo "== exit $rc" >>"$out"
    done <"$EXAMPLES_INDEX"
}

# record ARCH DIR OUT: everything for one architecture; OUT.ok says whether
# the programs were there to run.
record() {
    local ok=1 dir="$2"
    : >"$3"; : >"$3.stderr"
    # Absolute: the corpus runs from tests/corpus.
    dir="$(cd "$dir" 2>/dev/null && pwd -P)" || { echo 0 >"$3.ok"; echo "# no build dir $2" >>"$3"; return; }
    set -- "$1" "$dir" "$3"
    record_digest "$1" "$2" "$3" || ok=0
    record_corpus "$1" "$2" "$3" || ok=0
    record_examples "$1" "$2" "$3" || ok=0
    echo "$ok" >"$3.ok"
}

if [[ $mode == record ]]; then
    arch="${1%%=*}"
    record "$arch" "${1#*=}" "$outdir/$arch.txt"
    # One check: the architecture's programs were there and ran (what they
    # wrote is --compare's to judge).
    if [[ "$(cat "$outdir/$arch.txt.ok")" == 1 ]]; then
        echo "xarch: $arch recorded ($(wc -l <"$outdir/$arch.txt") lines)"
        echo "1 passed, 0 failed"
    else
        echo "xarch: FAIL $arch: its programs are missing ($outdir/$arch.txt)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    exit 0
fi
if [[ $mode == both ]]; then
    # The architectures record in parallel (qemu and node start slowly,
    # and they are independent); the comparison waits for all.
    pids=()
    for spec in "$@"; do
        record "${spec%%=*}" "${spec#*=}" "$outdir/${spec%%=*}.txt" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || true; done
fi

passed=0 failed=0 ref="" ref_arch=""
for spec in "$@"; do
    arch="${spec%%=*}"
    out="$outdir/$arch.txt"
    ok="$(cat "$out.ok" 2>/dev/null || echo 0)"
    lines="$(wc -l 2>/dev/null <"$out" || echo 0)"
    if [[ -z "$ref" ]]; then
        ref="$out" ref_arch="$arch"
        echo "xarch: $arch (reference): $lines lines -> $out"
        # The reference itself must have run cleanly, or every comparison
        # would be against garbage.
        if ((ok == 0)) || ! grep -qx '# wai_xarch_digest exit 0' "$out"; then
            echo "xarch: FAIL reference $arch did not run cleanly (see $out, $out.stderr)"
            failed=$((failed + 1))
        fi
        continue
    fi
    if ((ok == 1)) && diff -q "$ref" "$out" >/dev/null; then
        echo "xarch: ok   $arch identical to $ref_arch ($lines lines)"
        passed=$((passed + 1))
    else
        echo "xarch: FAIL $arch differs from $ref_arch ($out; stderr in $out.stderr):"
        diff -u "$ref" "$out" | head -n 40 || true
        failed=$((failed + 1))
    fi
done
grep -h '^counts:' "$ref" 2>/dev/null | sed 's/^/xarch: /' || true
echo "$passed passed, $failed failed"
((failed == 0))
