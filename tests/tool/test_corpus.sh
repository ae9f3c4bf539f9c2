#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The conformance corpus through the tool: every case of tests/corpus/index.txt
# by `wai decode --json` (or `wai inspect` for parse cases), and the committed
# corpus is what its generator writes.
# usage: tests/tool/test_corpus.sh WAI_BINARY [WAI_GEN_CORPUS_BINARY]
set -u
WAI=${1:?usage: test_corpus.sh WAI_BINARY [GENERATOR]}
GEN=${2:-}
# Without a second argument, the generator of the same build, if it was built.
if [ -z "$GEN" ] && [ -x "$(dirname "$WAI")/../../tests/wai_gen_corpus" ]; then
    GEN="$(dirname "$WAI")/../../tests/wai_gen_corpus"
fi
# Absolute paths: the loop below runs inside the corpus.
WAI=$(cd "$(dirname "$WAI")" && pwd)/$(basename "$WAI")
[ -n "$GEN" ] && GEN=$(cd "$(dirname "$GEN")" && pwd)/$(basename "$GEN")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=$ROOT/tests/corpus
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

if [ -n "$GEN" ]; then
    # A generator built without libsodium writes no receipts (gen_receipts.h).
    skip=()
    "$GEN" "$TMP/gen" && [ ! -d "$TMP/gen/receipts" ] && skip=(-x receipts)
    if [ -d "$TMP/gen" ] && diff -r -q -x '*.c' -x '*.h' -x '*.md' "${skip[@]}" "$CORPUS" "$TMP/gen" >"$TMP/diff"; then
        ok
    else
        fail "the committed corpus is not what tests/corpus/generate.c writes: $(head -5 "$TMP/diff")"
    fi
fi

# kind_of CAP: the output kind its decode gives.
kind_of() {
    case "$1" in
    wai.neural.int_hyper | wai.neural.int_synth | wai.neural.int_mlicpp) echo image ;;
    wai.audio.int_codec) echo pcm ;;
    wai.splat.int_codec) echo planes ;;
    *) echo frame ;;
    esac
}

# expected_json CAP STATUS HASHES: the line `wai decode --json` must print.
expected_json() {
    local outs="" h sep="" kind
    kind=$(kind_of "$1")
    if [ "$3" != "-" ]; then
        IFS=, read -ra hs <<<"$3"
        for h in "${hs[@]}"; do
            outs="$outs$sep{\"kind\": \"$kind\", \"sha256\": \"$h\", \"bytes\": BYTES}"
            sep=", "
        done
    fi
    printf '{"capability": "%s", "status": "%s", "outputs": [%s]}' "$1" "$2" "$outs"
}

cd "$CORPUS" || exit 2
while read -r mode cap status maxcost files hashes set offer; do
    case "$mode" in ''|'#'*) continue ;; esac
    IFS=, read -ra fs <<<"$files"
    if [ "$mode" = parse ]; then
        got=$("$WAI" inspect --capability "$cap" "${fs[@]}" | sed -n 's/.*"status": "\([a-z_]*\)".*/\1/p')
        [ "$got" = "$status" ] && ok || fail "inspect $files: $got, want $status"
        continue
    fi
    args=(decode --json --capability "$cap")
    [ "$maxcost" != "-" ] && args+=(--max-cost "$maxcost")
    [ -n "$set" ] && [ "$set" != "-" ] && args+=(--set "$set")
    [ -n "$offer" ] && args+=(--offer "$offer")
    out=$("$WAI" "${args[@]}" "${fs[@]}")
    rc=$?
    want_rc=1
    [ "$status" = ok ] && want_rc=0
    # Output sizes are the frames' own; compare with them masked.
    # A neural decode carries its dispatch report (checked just below).
    masked=$(printf '%s' "$out" | sed 's/"bytes": [0-9]*/"bytes": BYTES/g; s/, "report": {.*}}$/}/')
    if [ "$status" = ok ] && [ "$(kind_of "$cap")" != frame ]; then
        ran='"ran": {"unit": "cpu", "backend": "wai-ops", "arithmetic": "integer", "tier": "decode-equivalence"'
        case "$out" in
        *"$ran"*'"reason": "dispatch_tier_refused"'*) ok ;;
        *) fail "decode $files: no report of an integer run: $(printf '%s' "$out" | head -c 300)" ;;
        esac
    fi
    want=$(expected_json "$cap" "$status" "$hashes")
    if [ "$masked" = "$want" ] && [ "$rc" -eq "$want_rc" ]; then ok; else
        fail "decode $files: exit $rc (want $want_rc): $(printf '%s' "$out" | head -c 300)"
    fi
done <index.txt

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
