#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The `wai` tool's contract: commands, help pages, JSON shapes and exit
# statuses (0 done, 1 refused, 2 usage or I/O error).
# usage: tests/tool/test_cli.sh WAI_BINARY
set -u
WAI=${1:?usage: test_cli.sh WAI_BINARY}
WAI=$(cd "$(dirname "$WAI")" && pwd)/$(basename "$WAI")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# expect_out NAME TEXT: the last command's stdout equals TEXT exactly.
expect_out() {
    if [ "$(cat "$TMP/out")" = "$2" ]; then ok; else fail "$1: got '$(cat "$TMP/out")', want '$2'"; fi
}

# Every line of the last stdout is one JSON text (checked by python3's strict reader).
expect_json_lines() {
    if python3 -c '
import json, sys
for line in open(sys.argv[1]):
    json.loads(line, object_pairs_hook=lambda p: dict(p))
' "$TMP/out" 2>"$TMP/jerr"; then ok; else fail "$1: not JSON: $(cat "$TMP/jerr")"; fi
}

printf 'WIV1\x02rest' >"$TMP/v2.wiv1"
printf 'WIH1\x01' >"$TMP/ok.wih1"
printf 'XYZ' >"$TMP/short"
printf '{"frames": []}' >"$TMP/json_form"
printf 'WIF1\x01\x00\x00\x00' >"$TMP/f0.wif1"
clip="$ROOT/examples/hello.wiv1"

# --- help and usage ---------------------------------------------------------
expect_exit 0 "--help" -- "$WAI" --help
for c in inspect decode digest capabilities; do
    expect_contains "--help lists $c" "  $c" "$TMP/out"
done
expect_exit 0 "--version" -- "$WAI" --version
expect_exit 2 "no command" -- "$WAI"
expect_exit 2 "unknown command" -- "$WAI" frobnicate
expect_exit 2 "help of unknown command" -- "$WAI" help frobnicate
expect_exit 0 "help decode" -- "$WAI" help decode
for opt in --capability --set --max-cost --json "-o OUT" "FILE..."; do
    expect_contains "help decode documents $opt" "$opt" "$TMP/out"
done
expect_exit 0 "decode --help" -- "$WAI" decode --help
expect_contains "decode --help is its page" "--max-cost N" "$TMP/out"
expect_exit 0 "help inspect" -- "$WAI" help inspect
expect_contains "help inspect documents --capability" "--capability CAP" "$TMP/out"
expect_exit 0 "help digest" -- "$WAI" help digest
for opt in --sha256 --blake3; do expect_contains "help digest documents $opt" "$opt" "$TMP/out"; done
expect_exit 0 "help capabilities" -- "$WAI" help capabilities
expect_contains "help capabilities documents --json" "--json" "$TMP/out"

# --- digest usage -------------------------------------------------------------
expect_exit 0 "digest without algorithm is BLAKE3" -- "$WAI" digest "$clip"
cp "$TMP/out" "$TMP/b3default"
expect_exit 0 "digest --blake3" -- "$WAI" digest --blake3 "$clip"
if cmp -s "$TMP/out" "$TMP/b3default"; then ok; else fail "digest with no flag is not --blake3"; fi
expect_exit 2 "digest with both algorithms" -- "$WAI" digest --sha256 --blake3 "$clip"
expect_exit 2 "digest of a missing file" -- "$WAI" digest --sha256 "$TMP/missing"
expect_exit 0 "digest of the example" -- "$WAI" digest --sha256 "$clip"
expect_out "digest matches sha256sum" "$(sha256sum "$clip")"

# --- inspect ------------------------------------------------------------------
expect_exit 0 "inspect the example" -- "$WAI" inspect "$clip"
expect_json_lines "inspect prints JSON"
expect_contains "inspect names WIV1" '"format": "WIV1"' "$TMP/out"
expect_contains "inspect names the capability" '"capability": "wai.video.int_motion"' "$TMP/out"
expect_contains "inspect accepts the example" '"status": "ok"' "$TMP/out"
expect_exit 1 "inspect a version-2 payload" -- "$WAI" inspect "$TMP/v2.wiv1"
expect_contains "version 2 is refused with version" '"status": "version"' "$TMP/out"
expect_exit 1 "inspect a short file" -- "$WAI" inspect "$TMP/short"
expect_contains "short file is bad_magic (R1)" '"status": "bad_magic"' "$TMP/out"
expect_exit 1 "inspect a tool's JSON form" -- "$WAI" inspect "$TMP/json_form"
expect_contains "JSON form is bad_magic (§10)" '"capability": null' "$TMP/out"
expect_exit 1 "inspect WIH1 as int_motion" -- "$WAI" inspect --capability wai.video.int_motion "$TMP/ok.wih1"
expect_contains "another magic is format_capability_mismatch" '"status": "format_capability_mismatch"' "$TMP/out"
expect_exit 1 "inspect several files, one refused" -- "$WAI" inspect "$clip" "$TMP/short"
expect_json_lines "inspect prints a JSON line per file"
[ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || fail "inspect: two files, two lines"
expect_exit 2 "inspect a missing file" -- "$WAI" inspect "$TMP/missing"
expect_exit 2 "inspect without FILE" -- "$WAI" inspect
expect_exit 2 "inspect --capability without value" -- "$WAI" inspect --capability

# --- decode -------------------------------------------------------------------
expect_exit 2 "decode without FILE" -- "$WAI" decode --json
expect_exit 2 "decode --max-cost not a number" -- "$WAI" decode --max-cost 12x "$clip"
expect_exit 2 "decode --max-cost past u64" -- "$WAI" decode --max-cost 18446744073709551616 "$clip"
expect_exit 2 "decode unknown option" -- "$WAI" decode --frobnicate "$clip"
expect_exit 2 "decode a missing file" -- "$WAI" decode --json "$TMP/missing"
expect_exit 0 "several clips are decoded in order through one capability" -- "$WAI" decode --json "$clip" "$clip"
if [ "$(grep -o '"kind": "frame"' "$TMP/out" | wc -l)" -eq 6 ]; then ok; else fail "two clips: not six frames: $(cat "$TMP/out")"; fi
expect_exit 1 "decode a short file" -- "$WAI" decode --json "$TMP/short"
expect_json_lines "decode --json prints one JSON object"
expect_out "decode of no magic" '{"capability": null, "status": "bad_magic", "outputs": []}'
expect_exit 1 "decode an unknown capability" -- "$WAI" decode --json --capability wai.video.nope "$clip"
expect_out "unknown capability" '{"capability": "wai.video.nope", "status": "unsupported_capability", "outputs": []}'
# Several FILEs of a frame form are one stream.
expect_exit 1 "decode a frame stream" -- "$WAI" decode --json "$TMP/f0.wif1" "$TMP/f0.wif1"
expect_out "a short WIF1 frame" '{"capability": "wai.video.int_motion.frame", "status": "stream_length", "outputs": []}'
# The shipped example: three 24x16 frames, lossless, so their hashes are the
# source frames' (examples/make_example.py computes the same).
F0=ed9b69a54efbc6e09404c1e670fa10157fcb1abbb6e8a74875edf0991c2bd3e0
F1=725d6802a5a26021d6db6d7b2386247cf772d8793e14add794887de7c7524164
F2=3d690222abb42a2fcc4be5ea14cd3cbf4d9ab9efd05cae421a7a078c41f5d2af
EXAMPLE_OUT='{"capability": "wai.video.int_motion", "status": "ok", "outputs": [{"kind": "frame", "sha256": "'$F0'", "bytes": 1152}, {"kind": "frame", "sha256": "'$F1'", "bytes": 1152}, {"kind": "frame", "sha256": "'$F2'", "bytes": 1152}]}'
expect_exit 0 "decode --json the example" -- "$WAI" decode --json "$clip"
expect_out "the example's frames" "$EXAMPLE_OUT"
expect_exit 0 "decode the example without --json" -- "$WAI" decode "$clip"
# Reading N7: the declared work is 3*16*24*3 = 3456 symbols; equal passes.
expect_exit 0 "--max-cost equal to the work" -- "$WAI" decode --json --max-cost 3456 "$clip"
expect_out "equal cost decodes" "$EXAMPLE_OUT"
expect_exit 1 "--max-cost one under the work" -- "$WAI" decode --json --max-cost 3455 "$clip"
expect_out "cost_over_limit outputs nothing" '{"capability": "wai.video.int_motion", "status": "cost_over_limit", "outputs": []}'
expect_exit 1 "decode as another capability" -- "$WAI" decode --json --capability wai.audio.int_codec "$clip"
expect_out "another format" '{"capability": "wai.audio.int_codec", "status": "format_capability_mismatch", "outputs": []}'
expect_exit 1 "decode a WIV1 clip as wai.video.int_cond" -- "$WAI" decode --json --capability wai.video.int_cond "$clip"
expect_out "a WIV1 is not a WIC1" '{"capability": "wai.video.int_cond", "status": "format_capability_mismatch", "outputs": []}'
# A clip cut short: its stream runs out, so it outputs nothing.
head -c 4000 "$clip" >"$TMP/cut.wiv1"
expect_exit 1 "decode a cut clip" -- "$WAI" decode --json "$TMP/cut.wiv1"
expect_out "cut clip" '{"capability": "wai.video.int_motion", "status": "stream_length", "outputs": []}'

# Options may follow FILEs; after "--" everything is a FILE.
expect_exit 0 "options after the file" -- "$WAI" decode "$clip" --json --max-cost 3456
expect_out "options after the file decode the same" "$EXAMPLE_OUT"
expect_exit 0 "-o after the file" -- "$WAI" decode "$clip" -o "$TMP/after.rgb"
[ "$(wc -c <"$TMP/after.rgb")" -eq 3456 ] && ok || fail "-o after the file writes 3 frames"
expect_exit 0 "inspect with the option last" -- "$WAI" inspect "$clip" --capability wai.video.int_motion
expect_contains "inspect option last" '"status": "ok"' "$TMP/out"
expect_exit 0 "digest with the option last" -- "$WAI" digest "$clip" --sha256
expect_out "digest option last" "$(sha256sum "$clip")"
cp "$clip" "$TMP/-dash.wiv1"
expect_exit 0 "a FILE after -- that looks like an option" -- "$WAI" decode --json -- "$TMP/-dash.wiv1"
(cd "$TMP" && "$WAI" digest --sha256 -- -dash.wiv1 >"$TMP/out" 2>"$TMP/err")
expect_out "digest of -dash.wiv1 after --" "$(cd "$TMP" && sha256sum -- -dash.wiv1)"

# --- one option table per command: its page and its parser -----------------
# `wai help --options COMMAND` lists the table's rows (NAME, ALIAS, VALUE;
# '-' for none). Every row is on the page as "  [ALIAS, ]NAME[ VALUE]", and
# the parser knows its name, its alias and, for a long name, its
# --name=value form (whatever else the command then says, it is not
# "unknown option").
commands=$("$WAI" --help | sed -n '/^commands:/,/^$/p' | awk '/^  [a-z]/ && $1 != "help" {print $1}')
[ "$(echo "$commands" | wc -w)" -eq 13 ] && ok || fail "the overview lists 13 commands: $commands"
mkdir "$TMP/accept"
# accepted RC WHAT: the option was taken: the tool ended by itself (0 done,
# 1 refused, 2 a usage error about something else: no FILE, a bad value),
# never by a signal or an exit status it does not give, and never with
# "unknown option" ($TMP/acc holds its stderr).
accepted() {
    if [ "$1" -gt 2 ]; then fail "$2: exit $1 (a crash or a status wai never gives): $(head -c 300 "$TMP/acc")"
    elif grep -q "unknown option" "$TMP/acc"; then fail "$2: refused: $(cat "$TMP/acc")"
    else ok; fi
}

for c in $commands; do
    sub=
    [ "$c" = receipt ] && sub=seal
    [ "$c" = set ] && sub=list
    expect_exit 0 "help --options $c" -- "$WAI" help --options "$c"
    cp "$TMP/out" "$TMP/rows"
    [ -s "$TMP/rows" ] && ok || fail "$c: no option rows"
    "$WAI" help "$c" >"$TMP/page"
    while IFS=$'\t' read -r name alias value; do
        label=$name
        [ "$alias" != - ] && label="$alias, $name"
        [ "$value" != - ] && label="$label $value"
        if grep -q -F -x -e "  $label" "$TMP/page" || grep -q -F -e "  $label  " -e "  $label " "$TMP/page"; then ok
        else fail "help $c does not document '$label'"; fi
        forms=("$name")
        [ "$alias" != - ] && forms+=("$alias")
        for f in "${forms[@]}"; do
            args=("$f")
            [ "$value" != - ] && args+=(x)
            # shellcheck disable=SC2086
            (cd "$TMP/accept" && "$WAI" $c $sub "${args[@]}" </dev/null >/dev/null 2>"$TMP/acc")
            accepted $? "wai $c $f"
        done
        if [ "$value" != - ] && [ "${name#--}" != "$name" ]; then
            # shellcheck disable=SC2086
            (cd "$TMP/accept" && "$WAI" $c $sub "$name=x" </dev/null >/dev/null 2>"$TMP/acc")
            accepted $? "wai $c $name=x"
        fi
    done <"$TMP/rows"
done
expect_exit 2 "help --options of no command" -- "$WAI" help --options frobnicate

# --name=value is --name value; a flag takes no value.
expect_exit 0 "--max-cost=N" -- "$WAI" decode --json --max-cost=3456 "$clip"
expect_out "--max-cost=N decodes as --max-cost N" "$EXAMPLE_OUT"
expect_exit 1 "--max-cost=N refuses as --max-cost N" -- "$WAI" decode --json "$clip" --max-cost=3455
expect_contains "--max-cost=N: cost_over_limit" '"status": "cost_over_limit"' "$TMP/out"
expect_exit 0 "--capability=CAP" -- "$WAI" inspect --capability=wai.video.int_motion "$clip"
expect_contains "--capability=CAP inspects" '"status": "ok"' "$TMP/out"
expect_exit 2 "--threads=N out of range" -- "$WAI" decode --threads=1025 "$clip"
expect_contains "--threads=N: the bounds" "--threads needs 0 (one per core) to 1024" "$TMP/err"
expect_exit 2 "a flag with a value" -- "$WAI" decode --json=yes "$clip"
expect_contains "a flag with a value: says so" "--json takes no value" "$TMP/err"
expect_exit 2 "--name= of an unknown option" -- "$WAI" decode --frob=1 "$clip"
expect_contains "unknown option, by its name" "unknown option '--frob'" "$TMP/err"
expect_exit 2 "a value missing at the end" -- "$WAI" decode "$clip" --threads
expect_contains "a value missing: says so" "--threads needs a value" "$TMP/err"
# --help is read by the table too: as -o's value it is a file name.
expect_exit 0 "--help after FILE" -- "$WAI" decode "$clip" --help
expect_contains "--help after FILE is the page" "usage: wai decode" "$TMP/out"
expect_exit 2 "--help as a value" -- "$WAI" decode -o --help "$clip"
expect_exit 2 "--help after --" -- "$WAI" decode --json -- --help
expect_contains "--help after -- is a FILE" "--help" "$TMP/err"

# '--' ends options in every command that takes operands: files named like
# options after it are files.
mkdir "$TMP/dd"
(
    cd "$TMP/dd" || exit 1
    cp "$clip" ./--json
    expect_exit 0 "inspect -- --json" -- "$WAI" inspect -- --json
    expect_contains "inspect read --json" '"file": "--json"' "$TMP/out"
    expect_exit 0 "decode -- --json" -- "$WAI" decode --json -- --json
    expect_out "decode read --json" "$EXAMPLE_OUT"
    expect_exit 0 "digest -- --json" -- "$WAI" digest --sha256 -- --json
    expect_out "digest read --json" "$(sha256sum -- --json)"
    expect_exit 0 "split -- --json" -- "$WAI" split -o 'f_%d.wif1' -- --json
    for f in 0 1 2; do mv "f_$f.wif1" "./--f$f"; done
    expect_exit 0 "join -- --f0 --f1 --f2" -- "$WAI" join -o joined.wiv1 -- --f0 --f1 --f2
    cmp -s joined.wiv1 ./--json && ok || fail "join after -- did not give the clip back"
    expect_exit 0 "export -- --json" -- "$WAI" export --json -o ./--form.json -- --json
    expect_exit 0 "convert -- --form.json" -- "$WAI" convert --capability wai.video.int_motion -o back.wiv1 -- --form.json
    cmp -s back.wiv1 ./--json && ok || fail "convert after -- did not give the clip back"
    printf '%s' '{"kind": "wai-webnn-graph/1", "inputs": {"x": {"dataType": "float32", "shape": [1]}},
 "operators": [{"name": "relu", "arguments": [{"input": "x"}], "outputs": "y"}], "outputs": {"y": "y"}}' >./--time.json
    expect_exit 0 "graph -- --time.json" -- "$WAI" graph -- --time.json
    expect_contains "graph read --time.json" '"graph": "--time.json"' "$TMP/out"
    if grep -q '"build_ms"' "$TMP/out"; then fail "graph: --time after -- was read as an option"; else ok; fi
    { printf 'YUV4MPEG2 W4 H2 F25:1 C444\n'; for _ in 0 1; do printf 'FRAME\n'; head -c 24 /dev/zero; done; } >./--frames.y4m
    expect_exit 0 "encode -- --frames.y4m" -- "$WAI" encode --capability wai.video.int_motion -o enc.wiv1 -- --frames.y4m
    [ -f enc.wiv1 ] && ok || fail "encode after --: not one clip file"
    expect_exit 2 "keygen -- --x" -- "$WAI" keygen -o k -- --x
    expect_contains "keygen: --x is an operand" "keygen reads no file" "$TMP/err"
    if "$WAI" keygen -o k >/dev/null 2>&1; then
        expect_exit 0 "receipt seal -- --json" -- "$WAI" receipt seal --key k -o ./--r.json -- --json
        expect_exit 0 "receipt verify -- --r.json --json" -- "$WAI" receipt verify -- --r.json --json
    fi
    echo "$passed $failed" >"$TMP/counts"
)
read -r passed failed <"$TMP/counts"

# --- wai encode: one table, the encoder by the capability's registry row ------
{ printf 'YUV4MPEG2 W8 H8 F25:1 C444\n'; for _ in 0 1 2; do printf 'FRAME\n'; head -c 192 /dev/urandom; done; } >"$TMP/e.y4m"
E=("$WAI" encode -y)
mkdir "$TMP/by_flag" "$TMP/by_cap"
expect_exit 0 "encode --frames" -- "${E[@]}" --capability wai.video.int_motion --frames --q 4 "$TMP/e.y4m" -o "$TMP/by_flag"
expect_exit 0 "encode the frame form's capability" -- "${E[@]}" --capability wai.video.int_motion.frame --q 4 "$TMP/e.y4m" -o "$TMP/by_cap"
same=0
for f in 0 1 2; do cmp -s "$TMP/by_flag/frame_00000$f.wif1" "$TMP/by_cap/frame_00000$f.wif1" || same=1; done
[ "$same" -eq 0 ] && ok || fail "the frame form's capability writes otherwise than --frames"
expect_exit 2 "the frame form writes no '-'" -- "${E[@]}" --capability wai.video.int_motion.frame "$TMP/e.y4m" -o -
expect_exit 2 "a WIH1 capability is the picture encoder" -- "${E[@]}" --capability wai.neural.int_hyper "$TMP/e.y4m" -o "$TMP/x.wih1"
expect_contains "the picture encoder's usage" "for wai.neural.int_hyper: --set DIR PICTURE" "$TMP/err"
expect_exit 2 "int_synth is the latents encoder" -- "${E[@]}" --capability wai.neural.int_synth "$TMP/e.y4m" -o "$TMP/x.bin"
expect_contains "the latents encoder's usage" "for wai.neural.int_synth: --size HxW" "$TMP/err"
expect_exit 2 "a capability with no encoder" -- "${E[@]}" --capability wai.audio.int_codec "$TMP/e.y4m" -o "$TMP/x"
expect_contains "lists what encodes" "this build encodes wai.video.int_motion, wai.video.int_hyper, wai.neural.int_hyper, wai.video.int_motion.frame, wai.video.int_hyper.frame, wai.neural.int_synth and wai.neural.int_mlicpp" "$TMP/err"
# An option of another mode is a usage error naming it and the capability.
for bad in "wai.neural.int_hyper --q 4" "wai.neural.int_hyper --frames" "wai.neural.int_synth --threads 2" \
    "wai.video.int_motion --size 8" "wai.video.int_motion --set $TMP" "wai.video.int_hyper --receipt $TMP/r.json" \
    "wai.video.int_motion.frame --channels 3" "wai.neural.int_hyper --key $TMP/k"; do
    read -r cap opt val <<<"$bad"
    # shellcheck disable=SC2086 # $val is absent for a flag
    expect_exit 2 "encode $cap refuses $opt" -- "${E[@]}" --capability "$cap" $opt $val "$TMP/e.y4m" -o "$TMP/x"
    expect_contains "encode $cap names $opt" "$opt is not an option of $cap" "$TMP/err"
done
[ ! -e "$TMP/x" ] && ok || fail "a refused encode wrote its output"

# --- capabilities -------------------------------------------------------------
expect_exit 0 "capabilities" -- "$WAI" capabilities
expect_contains "capabilities lists int_hyper" "wai.neural.int_hyper" "$TMP/out"
expect_exit 0 "capabilities --json" -- "$WAI" capabilities --json
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" && ok || fail "capabilities --json is JSON"
[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$TMP/out")" = 12 ] && ok || fail "capabilities --json lists 12"
expect_exit 2 "capabilities bad arg" -- "$WAI" capabilities --frob

# The shipped neural example is the corpus's image1 and its set.
for f in hello.wih1:image1.wih1 hello_set/g_s.whm:set1/g_s.whm hello_set/h_s.whm:set1/h_s.whm \
    hello_set/entropy.json:set1/entropy.json; do
    cmp -s "$ROOT/examples/${f%%:*}" "$ROOT/tests/corpus/neural/hyper/${f#*:}" && ok ||
        fail "examples/${f%%:*} is not the corpus's ${f#*:}"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
