#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The tool under careless and hostile use (issue 10): the memory limit,
# bounded single-copy reads, no lost files, outputs that do what they say,
# exit codes that tell the truth, and a table of every command against each
# outcome (ok, refused, usage error, I/O error, a full device).
# usage: tests/tool/test_limits.sh WAI_BINARY
set -u
WAI=${1:?usage: test_limits.sh WAI_BINARY}
WAI=$(cd "$(dirname "$WAI")" && pwd)/$(basename "$WAI")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=$ROOT/tests/corpus
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
cd "$TMP" || exit 1

clip=$CORPUS/motion/valid/clip00.wiv1
cp "$clip" x.wiv1
sum() { sha256sum "$1" | cut -c1-64; }
X_SUM=$(sum x.wiv1)
# A 4x4 RGB Y4M (4:4:4) of two frames, and the y4m the encoder reads.
{ printf 'YUV4MPEG2 W4 H4 F25:1 C444\n'; for f in 0 1; do printf 'FRAME\n'; head -c 48 /dev/urandom; done; } >y.y4m
Y_SUM=$(sum y.y4m)

# peak_kb COMMAND...: runs COMMAND (stdout to $TMP/out, stderr to
# $TMP/err) and prints "EXIT PEAK_RSS_KB".
peak_kb() {
    "$PY" - "$@" <<'PY'
import os, subprocess, sys
with open("out", "wb") as out, open("err", "wb") as err:
    p = subprocess.Popen(sys.argv[1:], stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
print(os.waitstatus_to_exitcode(status), ru.ru_maxrss)
PY
}

# ---- 1. the memory limit ----------------------------------------------------
amp=$CORPUS/neural/amplify
read -r rc kb < <(peak_kb "$WAI" decode --json --max-cost 50000 --max-memory 100M --set "$amp/set" "$amp/attrs.wis1")
if [ "$rc" -eq 1 ]; then ok; else fail "amplifier under --max-memory 100M: exit $rc"; fi
expect_contains "amplifier refused cost_over_limit" '"status": "cost_over_limit", "outputs": []' out
# The refused decode allocates nothing of its 243 MB (resident: the
# process and its few buffers; sanitizers map more).
if [ -n "${ASAN_OPTIONS:-}" ] || [ "$kb" -lt 40000 ]; then ok; else fail "refused amplifier peaked at $kb KiB"; fi
"$WAI" inspect --cost --set "$amp/set" "$amp/attrs.wis1" >insp
expect_contains "the amplifier declares 243 MB" '"working_bytes": 243000064' insp
expect_exit 1 "the amplifier at one byte under its memory" -- "$WAI" decode --json --max-memory 243000063 --set "$amp/set" "$amp/attrs.wis1"
expect_exit 2 "--max-memory needs a byte count" -- "$WAI" decode --max-memory 12Q x.wiv1
expect_exit 2 "--max-memory past u64" -- "$WAI" decode --max-memory 99999999999999999999 x.wiv1
# A flat clip: a payload far smaller than the frames it declares.
{ printf 'YUV4MPEG2 W64 H48 F25:1 C444\n'; for i in 0 1 2; do printf 'FRAME\n'; head -c $((64 * 48 * 3)) /dev/zero | tr '\0' '\200'; done; } >flat.y4m
"$WAI" encode --quiet --capability wai.video.int_motion flat.y4m -o flat.wiv1 2>/dev/null
work=$("$WAI" inspect --cost flat.wiv1 | sed 's/.*"working_bytes": \([0-9]*\).*/\1/')
expect_exit 1 "a clip one byte over --max-memory" -- "$WAI" decode --json --max-memory $((work - 1)) flat.wiv1
expect_contains "refused cost_over_limit" '"cost_over_limit"' out
expect_exit 0 "a clip at exactly --max-memory" -- "$WAI" decode --json --max-memory "$work" flat.wiv1
expect_exit 0 "--max-memory none" -- "$WAI" decode --json --max-memory none x.wiv1

# ---- 2. bounded reads ---------------------------------------------------------
mkfifo fifo
expect_exit 2 "a FIFO payload is refused, not waited on" -- timeout 10 "$WAI" decode --json fifo
expect_contains "a FIFO says so" "a FIFO, not a regular file" err
expect_exit 2 "a device payload" -- timeout 10 "$WAI" decode --json /dev/zero
expect_exit 2 "a directory payload" -- timeout 10 "$WAI" decode --json "$TMP"
expect_exit 2 "standard input from a device stops at the limit" -- timeout 20 sh -c "'$WAI' decode --json --max-memory 10M - </dev/zero"
expect_contains "stdin past the limit" "past the memory limit" err
mkdir fifo_set && mkfifo fifo_set/model.wam
expect_exit 2 "a FIFO set member" -- timeout 10 "$WAI" decode --json --set fifo_set "$CORPUS/neural/audio/clip0.wia1"
expect_contains "a FIFO member says so" "a FIFO, not a regular file" err
mkdir big_set && truncate -s 3G big_set/g_s.whm
read -r rc kb < <(peak_kb timeout 20 "$WAI" decode --json --set big_set "$CORPUS/neural/splat/attrs0.wis1")
# A set past the memory limit is that limit's refusal (cost_over_limit,
# which routes to a fallback), its member never read.
if [ "$rc" -eq 1 ] && [ "$kb" -lt 100000 ]; then ok; else fail "a 3 GiB member: exit $rc, $kb KiB"; fi
expect_contains "the member is refused unread: cost_over_limit" '"status": "cost_over_limit"' out
truncate -s 300M big_set/g_s.whm
expect_exit 1 "a member past --max-memory" -- "$WAI" decode --max-memory 200M --set big_set "$CORPUS/neural/splat/attrs0.wis1"
expect_contains "says which member" "big_set/g_s.whm (314572800 bytes) is past the memory limit" err
head -c 3000000 /dev/zero >zeros.bin
{ head -c 8 x.wiv1; cat zeros.bin; } >big.wiv1
expect_exit 2 "a payload past --max-memory" -- "$WAI" decode --json --max-memory 1M x.wiv1 big.wiv1
expect_contains "is refused unread" "refused before reading it" err
expect_exit 1 "a nameless payload is bad_magic whatever its size" -- "$WAI" decode --json zeros.bin
expect_out() { if [ "$(cat out)" = "$2" ]; then ok; else fail "$1: $(cat out)"; fi; }
expect_out "bad_magic" '{"capability": null, "status": "bad_magic", "outputs": []}'
expect_exit 1 "inspect gives a nameless payload's size" -- "$WAI" inspect zeros.bin
expect_contains "its size" '"bytes": 3000000' out
cat x.wiv1 >piped && expect_exit 0 "a payload through a pipe" -- sh -c "cat x.wiv1 | '$WAI' decode --json -"

# ---- 3. no lost files ---------------------------------------------------------
expect_exit 2 "decode over its own input" -- "$WAI" decode x.wiv1 --format rgb -o x.wiv1
expect_exit 2 "decode over its own input, even with -y" -- "$WAI" decode -y x.wiv1 --format rgb -o x.wiv1
ln -s x.wiv1 link.wiv1
expect_exit 2 "decode over its input through a link" -- "$WAI" decode -y link.wiv1 --format rgb -o x.wiv1
expect_exit 2 "decode over the link to its input" -- "$WAI" decode -y x.wiv1 --format rgb -o link.wiv1
ln x.wiv1 hard.wiv1
expect_exit 2 "decode over a hard link to its input" -- "$WAI" decode -y x.wiv1 --format rgb -o hard.wiv1
expect_exit 2 "encode over its own input" -- "$WAI" encode -y --capability wai.video.int_motion y.y4m -o y.y4m
cp x.wiv1 s.wiv1
expect_exit 2 "decode over the file standard input reads" -- sh -c "'$WAI' decode -y --format rgb -o s.wiv1 x.wiv1 - <s.wiv1"
if [ "$(sum s.wiv1)" = "$X_SUM" ]; then ok; else fail "the file behind standard input changed"; fi
mkdir setcopy && cp "$CORPUS/neural/splat/set0/g_s.whm" setcopy/
expect_exit 2 "decode over a set member" -- "$WAI" decode -y --set setcopy "$CORPUS/neural/splat/attrs0.wis1" -o setcopy/g_s.whm --format s16le
if [ "$(sum x.wiv1)" = "$X_SUM" ] && [ "$(sum y.y4m)" = "$Y_SUM" ]; then ok; else fail "an input changed"; fi
echo keep >exists.rgb
expect_exit 2 "an existing output without -y" -- "$WAI" decode x.wiv1 -o exists.rgb
expect_contains "says -y" "give -y" err
if [ "$(cat exists.rgb)" = keep ]; then ok; else fail "the existing output was changed"; fi
expect_exit 0 "an existing output with -y" -- "$WAI" decode -y x.wiv1 -o exists.rgb
expect_exit 0 "an existing output with --force" -- "$WAI" decode --force x.wiv1 -o exists.rgb
echo keep >exists.wiv1
expect_exit 2 "encode to an existing file without -y" -- "$WAI" encode --capability wai.video.int_motion y.y4m -o exists.wiv1
expect_exit 0 "encode to an existing file with -y" -- "$WAI" encode -y --capability wai.video.int_motion y.y4m -o exists.wiv1
# A refused single-image decode leaves no file.
hyper=$CORPUS/neural/hyper
expect_exit 1 "a refused image" -- "$WAI" decode --set "$hyper/set1" "$hyper/image0.wih1" -o img.rgb
if [ ! -e img.rgb ]; then ok; else fail "a refused image left img.rgb"; fi
expect_exit 1 "a refused clip" -- "$WAI" decode --max-cost 1 x.wiv1 -o refused.y4m
if [ ! -e refused.y4m ]; then ok; else fail "a refused clip left refused.y4m"; fi
# A stream refused part-way: the frames before it stand, in complete files.
f=$CORPUS/motion/valid/clip00
head -c 40 "$f/f002.wif1" >cut.wif1
expect_exit 1 "a stream refused at its third frame" -- "$WAI" decode "$f/f000.wif1" "$f/f001.wif1" cut.wif1 -o part.rgb
size=$(stat -c %s part.rgb 2>/dev/null || echo 0)
one=$("$WAI" decode --json "$f/f000.wif1" | sed 's/.*"bytes": \([0-9]*\).*/\1/')
if [ "$size" -eq $((2 * one)) ]; then ok; else fail "part.rgb holds $size bytes, want two frames of $one"; fi
expect_exit 1 "the same to PNG frames" -- "$WAI" decode "$f/f000.wif1" "$f/f001.wif1" cut.wif1 -o 'part_%d.png'
if [ -e part_0.png ] && [ -e part_1.png ] && [ ! -e part_2.png ]; then ok; else fail "PNG frames: $(ls part_* 2>&1)"; fi
# No temporary is ever left behind.
if ls -a | grep -q '^\..*\.[A-Za-z0-9]\{6\}$'; then fail "a temporary was left: $(ls -a)"; else ok; fi
# An existing plane file stops the planes before any is written.
mkdir planes && echo keep >planes/plane_001.png
expect_exit 2 "planes over an existing file" -- "$WAI" decode --set "$CORPUS/neural/splat/set0" "$CORPUS/neural/splat/attrs0.wis1" -o planes --format png
if [ ! -e planes/plane_000.png ] && [ "$(cat planes/plane_001.png)" = keep ]; then ok; else fail "planes: $(ls planes)"; fi

# ---- 4. outputs that do what they say -----------------------------------------
expect_exit 0 "a %040d pattern" -- "$WAI" decode x.wiv1 -o 'f_%040d.png'
n=$(ls f_0000000000000000000000000000000000000*.png 2>/dev/null | wc -l)
frames=$("$WAI" decode --json x.wiv1 | grep -o '"kind"' | wc -l)
if [ "$n" -eq "$frames" ] && [ -e "f_$(printf '%040d' 1).png" ]; then ok; else fail "%040d gave $n files for $frames frames"; fi
expect_exit 2 "%100d is past the pattern's limit" -- "$WAI" decode x.wiv1 -o 'f_%0100d.png'
expect_exit 2 "a pattern for a one-file format" -- "$WAI" decode x.wiv1 -o 'x_%d.y4m'
expect_contains "says why" "writes one file" err
if [ ! -e 'x_%d.y4m' ]; then ok; else fail "x_%d.y4m was written"; fi
expect_exit 2 "a pattern for raw rgb" -- "$WAI" decode x.wiv1 -o 'x_%04d.rgb'
expect_exit 0 "encode -o - writes standard output" -- "$WAI" encode --capability wai.video.int_motion y.y4m -o -
cp out stdout.wiv1
"$WAI" encode -y --capability wai.video.int_motion y.y4m -o file.wiv1 2>/dev/null
if cmp -s stdout.wiv1 file.wiv1 && [ ! -e ./- ]; then ok; else fail "encode -o - is not the payload on stdout"; fi
expect_exit 2 "encode --frames -o -" -- "$WAI" encode --frames --capability wai.video.int_motion y.y4m -o -
expect_exit 0 "decode -o - writes standard output" -- "$WAI" decode x.wiv1 -o -
cp out stdout.rgb
"$WAI" decode -y x.wiv1 -o file.rgb
if cmp -s stdout.rgb file.rgb; then ok; else fail "decode -o - differs from -o file.rgb"; fi

# ---- 5. exit codes that tell the truth ----------------------------------------
for c in "decode --json x.wiv1" "inspect x.wiv1" "capabilities" "capabilities --json" \
         "digest x.wiv1" "digest --sha256 x.wiv1" "help" "help decode" "--help" "--version" \
         "decode --report --set $hyper/set0 $hyper/image0.wih1" "decode x.wiv1" "decode -o - x.wiv1" \
         "encode --capability wai.video.int_motion y.y4m -o -"; do
    # shellcheck disable=SC2086
    expect_exit 2 "wai $c > /dev/full" -- sh -c "'$WAI' $c >/dev/full"
    expect_contains "wai $c > /dev/full says why" "No space left on device" err
done
# A WIF1 frame whose magic was flipped to WIV1, first or later in a stream.
printf 'WIV1' | cat - <(tail -c +5 "$f/f000.wif1") >flip.wif1
expect_exit 1 "a flipped magic first in a frame stream" -- "$WAI" decode --json flip.wif1 "$f/f001.wif1"
expect_contains "is a refusal with JSON" '"status": "' out
expect_exit 1 "a flipped magic later in a frame stream" -- "$WAI" decode --json "$f/f000.wif1" flip.wif1
expect_contains "format_capability_mismatch" '"status": "format_capability_mismatch"' out
expect_exit 2 "inspect goes on past a missing file" -- "$WAI" inspect x.wiv1 nope x.wiv1
if [ "$(grep -c '"status": "ok"' out)" -eq 2 ]; then ok; else fail "inspect a nope b: $(cat out)"; fi
expect_contains "names the missing file" "nope" err
expect_exit 2 "digest goes on past a missing file" -- "$WAI" digest x.wiv1 nope x.wiv1
if [ "$(wc -l <out)" -eq 2 ]; then ok; else fail "digest a nope b: $(cat out)"; fi
{ printf 'YUV4MPEG2 W5000 H5000 F25:1 C420jpeg\nFRAME\n'; } >huge.y4m
expect_exit 1 "encode of a picture past 2^26 samples is refused" -- "$WAI" encode --capability wai.video.int_motion huge.y4m -o huge.wiv1
expect_contains "too_large" "refused: too_large" err

# ---- 6. what a user notices next ----------------------------------------------
expect_exit 0 "decode with neither -o nor --json" -- "$WAI" decode x.wiv1
expect_contains "a summary line" "wai.video.int_motion: ok, $frames frames of" out
expect_exit 0 "decode --threads 1" -- "$WAI" decode --json --threads 1 --set "$hyper/set0" "$hyper/image0.wih1"
cp out t1
expect_exit 0 "decode --threads 3" -- "$WAI" decode --json --threads 3 --set "$hyper/set0" "$hyper/image0.wih1"
if cmp -s out t1; then ok; else fail "--threads changed the output"; fi
expect_exit 2 "decode --threads past 1024" -- "$WAI" decode --threads 1025 x.wiv1
{ printf 'YUV4MPEG2 W64 H48 F25:1 C444\n'; for i in 0 1 2; do printf 'FRAME\n'; head -c $((64 * 48 * 3)) /dev/urandom; done; } >t.y4m
"$WAI" encode --capability wai.video.int_motion --threads 1 --quiet t.y4m -o t1.wiv1 2>/dev/null
"$WAI" encode --capability wai.video.int_motion --threads 4 --quiet t.y4m -o t4.wiv1 2>/dev/null
if cmp -s t1.wiv1 t4.wiv1; then ok; else fail "encode --threads changed the payload"; fi
expect_exit 0 "y4m420" -- "$WAI" decode x.wiv1 --format y4m420 -o c420.y4m
head -1 c420.y4m >hdr
expect_contains "a C420jpeg header" "C420jpeg" hdr
w=$(sed 's/.* W\([0-9]*\) .*/\1/' hdr)
h=$(sed 's/.* H\([0-9]*\) .*/\1/' hdr)
want=$(( $(wc -c <hdr) + frames * (6 + w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) ))
if [ "$(stat -c %s c420.y4m)" -eq "$want" ]; then ok; else fail "y4m420 size $(stat -c %s c420.y4m), want $want"; fi

# ---- the table: every command x (ok, refused, usage, I/O, a full device) ------
# A cell is "CODE COMMAND"; '-' where the outcome can't happen to that command.
table=(
    "inspect      | 0 inspect x.wiv1 | 1 inspect zeros.bin | 2 inspect --frob x.wiv1 | 2 inspect nope | 2 inspect x.wiv1"
    "decode       | 0 decode --json x.wiv1 | 1 decode --json zeros.bin | 2 decode --frob x.wiv1 | 2 decode --json nope | 2 decode --json x.wiv1"
    "digest       | 0 digest x.wiv1 | - | 2 digest --frob x.wiv1 | 2 digest nope | 2 digest x.wiv1"
    "capabilities | 0 capabilities | - | 2 capabilities --frob | - | 2 capabilities"
    "encode       | 0 encode -y --capability wai.video.int_motion y.y4m -o e.wiv1 | 1 encode --capability wai.video.int_motion huge.y4m -o h.wiv1 | 2 encode y.y4m -o e.wiv1 | 2 encode --capability wai.video.int_motion nope.y4m -o e.wiv1 | 2 encode --capability wai.video.int_motion y.y4m -o -"
    "help         | 0 help decode | - | 2 help nope | - | 2 help encode"
)
outcomes=(ok refused usage io full)
for row in "${table[@]}"; do
    IFS='|' read -ra cells <<<"$row"
    cmd=$(echo "${cells[0]}" | tr -d ' ')
    for k in 1 2 3 4 5; do
        cell=$(echo "${cells[k]}" | sed 's/^ *//; s/ *$//')
        [ "$cell" = - ] && continue
        code=${cell%% *}
        args=${cell#* }
        if [ "${outcomes[k - 1]}" = full ]; then
            expect_exit "$code" "table $cmd/${outcomes[k - 1]}" -- sh -c "'$WAI' $args >/dev/full"
        else
            # shellcheck disable=SC2086
            expect_exit "$code" "table $cmd/${outcomes[k - 1]}" -- "$WAI" $args
        fi
        if [ "$cmd" = decode ] && [ "$code" -le 1 ]; then
            expect_contains "table $cmd/${outcomes[k - 1]} prints JSON" '"status": ' out
        fi
    done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
