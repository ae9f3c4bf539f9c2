#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The GStreamer plugin (gst/, docs/gstreamer.md) against the wai tool: every
# pipeline's bytes are `wai decode`'s; refusals end in an element error
# carrying the spec's code (mutated payloads: tests/gst/hostile.c);
# timestamps follow waiparse's framerate; the dispatch report is posted.
#   tests/gst/test_gst.sh BUILD      (BUILD/gst/libgstwai.so, BUILD/tools/wai/wai)
set -u
BUILD=$(cd "${1:?usage: test_gst.sh BUILD}" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WAI=$BUILD/tools/wai/wai
source "$ROOT/tests/tool/lib.bash"
export GST_PLUGIN_PATH=$BUILD/gst GST_REGISTRY=$TMP/registry.bin
C=$ROOT/tests/corpus
# launch ARGS...: gst-launch-1.0 under a timeout, tried again (three times
# at most) when it hangs: gst-launch 1.22 can miss an error posted while
# its pipeline is still being set to PAUSED (its main loop is quit before
# it runs) and then waits forever. Seen with a refusal on the first payload,
# in push and pull mode alike, about one run in ten under load; the
# elements have ended by then (the pipeline is not stuck: gst-launch is).
launch() {
    local try rc
    for try in 1 2 3; do
        timeout 20 gst-launch-1.0 "$@"
        rc=$?
        [ $rc -ne 124 ] && return $rc
    done
    return 124
}
gst() { launch -q "$@" >"$TMP/gst.out" 2>&1; }

# gst-inspect lists the plugin's elements and its typefinder.
gst-inspect-1.0 wai >"$TMP/inspect" 2>&1 && ok || fail "gst-inspect-1.0 wai"
for e in waiparse waidec waiaudiodec application/x-wai; do
    expect_contains "gst-inspect lists $e" "$e" "$TMP/inspect"
done

# same NAME PIPELINE-OUT TOOL-OUT [W]: the bytes match; with W (the
# frames' width), the pipeline's rows first lose GStreamer's stride padding
# (RGB rows are 4-byte aligned in video/x-raw).
same() {
    if [ -n "${4:-}" ]; then
        /usr/bin/python3 -c '
import sys
w, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
row, b = w * 3, open(src, "rb").read()
stride = (row + 3) & ~3
open(dst, "wb").write(b"".join(b[i:i + row] for i in range(0, len(b), stride)))
' "$4" "$2" "$2.rows"
        set -- "$1" "$2.rows" "$3"
    fi
    cmp -s "$2" "$3" && ok || fail "$1: the pipeline's bytes are not wai decode's"
}
width() { "$WAI" inspect "$1" | sed -n 's/.*"w": \([0-9]*\).*/\1/p'; }

# Clips: RGB rows a multiple of 4 bytes (hello, 24 wide) and not (29, 2).
for clip in "$ROOT/examples/hello.wiv1" "$C/motion/valid/clip04.wiv1" "$C/motion/valid/clip02.wiv1"; do
    n=$(basename "$clip")
    w=$(width "$clip")
    "$WAI" decode "$clip" -o "$TMP/w.rgb" -y 2>/dev/null
    gst filesrc location="$clip" ! waiparse ! waidec ! filesink location="$TMP/g.rgb" && ok || fail "$n: pipeline"
    same "$n" "$TMP/g.rgb" "$TMP/w.rgb" "$w"
    gst filesrc location="$clip" ! decodebin ! filesink location="$TMP/d.rgb" && ok || fail "$n: decodebin"
    same "$n (decodebin)" "$TMP/d.rgb" "$TMP/w.rgb" "$w"
done

# A picture against its set; the dispatch report as an element message.
img=$ROOT/examples/hyperprior/chelsea.wih1
"$WAI" decode --set "$ROOT/examples/hyperprior/sets/q3" "$img" -o "$TMP/w.rgb" -y 2>/dev/null
launch -m filesrc location="$img" ! waiparse ! waidec set-dir="$ROOT/examples/hyperprior/sets/q3" \
    ! filesink location="$TMP/g.rgb" >"$TMP/gst.out" 2>&1 && ok || fail "WIH1 pipeline"
same "chelsea.wih1" "$TMP/g.rgb" "$TMP/w.rgb"
expect_contains "the dispatch report is posted" 'wai-neural-dispatch, report=(string)' "$TMP/gst.out"

# A frame stream, one file a frame (multifilesrc), at 30 frames a second.
mkdir "$TMP/fr"
"$WAI" split "$C/motion/valid/clip00.wiv1" -o "$TMP/fr/f_%d.wif1" 2>/dev/null
n=$(ls "$TMP/fr" | wc -l)
"$WAI" decode "$TMP"/fr/*.wif1 -o "$TMP/w.rgb" -y 2>/dev/null
gst multifilesrc location="$TMP/fr/f_%d.wif1" index=0 stop-index=$((n - 1)) ! waiparse framerate=30/1 \
    ! waidec ! filesink location="$TMP/g.rgb" && ok || fail "WIF1 stream pipeline"
same "the WIF1 stream" "$TMP/g.rgb" "$TMP/w.rgb" 3
launch multifilesrc location="$TMP/fr/f_%d.wif1" index=0 stop-index=$((n - 1)) \
    ! waiparse framerate=30/1 ! waidec ! fakesink silent=false -v >"$TMP/gst.out" 2>&1
expect_contains "frame 1 at 1/30 s" "pts: 0:00:00.033333333" "$TMP/gst.out"
# One WIF1 file from filesrc (pulled whole: one frame, not one a 4 KiB
# block), and a clip through a pipe (fdsrc: pushed in blocks, gathered).
"$WAI" decode "$TMP/fr/f_0.wif1" -o "$TMP/w.rgb" -y 2>/dev/null
gst filesrc location="$TMP/fr/f_0.wif1" ! waiparse ! waidec ! filesink location="$TMP/g.rgb" &&
    ok || fail "one WIF1 from filesrc"
same "one WIF1 from filesrc" "$TMP/g.rgb" "$TMP/w.rgb" 3
clip=$C/motion/valid/clip02.wiv1
"$WAI" decode "$clip" -o "$TMP/w.rgb" -y 2>/dev/null
timeout 60 gst-launch-1.0 -q fdsrc fd=0 ! waiparse ! waidec ! filesink location="$TMP/g.rgb" <"$clip" >"$TMP/gst.out" 2>&1 &&
    ok || fail "a clip through fdsrc: $(tail -c 300 "$TMP/gst.out")"
same "a clip through fdsrc" "$TMP/g.rgb" "$TMP/w.rgb" "$(width "$clip")"

# WIA1 through waiaudiodec: S16LE at the payload's rate.
a=$C/neural/audio
"$WAI" decode --set "$a/set0" "$a/clip0.wia1" --format s16le -o "$TMP/w.raw" -y 2>/dev/null
gst filesrc location="$a/clip0.wia1" ! waiparse ! waiaudiodec set-dir="$a/set0" ! filesink location="$TMP/g.raw" &&
    ok || fail "WIA1 pipeline"
same "clip0.wia1" "$TMP/g.raw" "$TMP/w.raw"

# Refusals: an element error whose message carries the code and its meaning.
refuse() {  # refuse NAME CODE PIPELINE...
    local name=$1 code=$2
    shift 2
    launch "$@" >"$TMP/gst.out" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && [ $rc -lt 124 ] && ok || fail "$name: exit $rc"
    expect_contains "$name: the code" "refused: $code" "$TMP/gst.out"
}
refuse "a clip whose stream runs out" stream_exhausted filesrc location="$C/motion/refuse/stream_exhausted.wiv1" ! waiparse ! waidec ! fakesink
head -c 100 "$ROOT/examples/hello.wiv1" >"$TMP/cut.wiv1"
refuse "truncated clip" stream_length filesrc location="$TMP/cut.wiv1" ! waiparse ! waidec ! fakesink
refuse "no set" set_incomplete filesrc location="$img" ! waiparse ! waidec ! fakesink
refuse "over max-cost" cost_over_limit filesrc location="$ROOT/examples/hello.wiv1" ! waiparse ! waidec max-cost=10 ! fakesink
refuse "over max-memory" cost_over_limit filesrc location="$ROOT/examples/hello.wiv1" ! waiparse ! waidec max-memory=100 ! fakesink
launch filesrc location="$a/set0/model.wam" ! waiparse ! waidec ! fakesink >"$TMP/gst.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 124 ] && ok || fail "not a payload: exit $rc"
expect_contains "not a payload: bad_magic" "wai-status=bad_magic" "$TMP/gst.out"

# Hostile payloads are tests/gst/hostile.c's (CI's gst-hostile and
# gst-hostile-asan steps): mutated payloads of every format, hello.wiv1 and
# a WIH1 with its set among them, through waiparse ! waidec (or
# waiaudiodec), pushed in chunks and pulled from filesrc, with limits drawn
# at random, in a driver of its own that fails on a crash or a hang; no
# gst-launch (1.22 can hang on a refusal in preroll). Hostile sets:
mkdir "$TMP/badset"
cp "$ROOT/examples/hyperprior/sets/q3"/* "$TMP/badset/"
head -c 1000 "$ROOT/examples/hyperprior/sets/q3/g_s.whm" >"$TMP/badset/g_s.whm"
# The set's listing names g_s.whm as it was: set_incomplete (L5a) ...
refuse "a cut set member, the listing kept" set_incomplete filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/badset" ! fakesink
# ... and with no listing, the cut network itself is refused.
rm "$TMP/badset/listing.json"
refuse "a cut set member" model_mismatch filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/badset" ! fakesink
# set-dir reads what a path reads and what the listing names (L5a): a stray
# file is never read, a member linked out of the folder is not either.
mkdir "$TMP/strayset"
cp "$ROOT/examples/hyperprior/sets/q3"/* "$TMP/strayset/"
printf 'not a member' >"$TMP/strayset/notes.txt"
gst filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/strayset" ! fakesink && ok ||
    fail "a stray file in set-dir: $(tail -c 300 "$TMP/gst.out")"
mv "$TMP/strayset/g_s.whm" "$TMP/g_s.whm"
ln -s "$TMP/g_s.whm" "$TMP/strayset/g_s.whm"
refuse "a member linked out of set-dir" set_incomplete filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/strayset" ! fakesink
# ... whether the link is absolute or relative: a target with a '/' may
# leave the folder (here ../g_s.whm, the very bytes the listing names).
rm "$TMP/strayset/g_s.whm"
ln -s ../g_s.whm "$TMP/strayset/g_s.whm"
refuse "a member linked out of set-dir by ../" set_incomplete filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/strayset" ! fakesink

# One limit (issue 58): max-memory holds before a payload is gathered. A
# 3 GiB file (sparse: no disk) that starts as a WIV1 is refused unread from
# filesrc (its size), fdsrc on the file (its size) and fdsrc on a pipe (the
# bytes gathered pass the limit), each in well under 200 MB.
head -c 64 "$ROOT/examples/hello.wiv1" >"$TMP/big.wiv1"
truncate -s 3G "$TMP/big.wiv1"
# peak_mb CMD...: runs CMD; its exit status in $TMP/rc, its peak memory (MB).
# Tried again on a timeout (124), at most three times, as launch() does:
# gst-launch 1.22 can miss an error posted during preroll and hang.
peak_mb() {
    /usr/bin/python3 -c '
import resource, subprocess, sys
for _ in range(3):
    rc = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1] + "/gst.out", "w"),
                        stderr=subprocess.STDOUT).returncode
    if rc != 124:
        break
open(sys.argv[1] + "/rc", "w").write(str(rc))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$TMP" "$@"
}
big_refused() {  # big_refused NAME MB: refused cost_over_limit, in under 200 MB
    local rc; rc=$(cat "$TMP/rc")
    [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ] && ok || fail "$1: exit $rc"
    expect_contains "$1: cost_over_limit" "refused: cost_over_limit" "$TMP/gst.out"
    [ "$2" -lt 200 ] && ok || fail "$1: $2 MB at its peak"
}
mb=$(peak_mb timeout 20 gst-launch-1.0 -q filesrc location="$TMP/big.wiv1" ! waiparse ! waidec max-memory=1000000 ! fakesink)
big_refused "3 GiB from filesrc" "$mb"
expect_contains "3 GiB from filesrc: refused unread" "3221225472 bytes, past the decoder's max-memory (1000000 bytes), not read" "$TMP/gst.out"
mb=$(peak_mb bash -c 'exec timeout 20 gst-launch-1.0 -q fdsrc fd=0 ! waiparse ! waidec max-memory=1000000 ! fakesink <"$1"' - "$TMP/big.wiv1")
big_refused "3 GiB from fdsrc on the file" "$mb"
mb=$(peak_mb bash -c 'cat "$1" | timeout 20 gst-launch-1.0 -q fdsrc fd=0 ! waiparse ! waidec max-memory=1000000 ! fakesink' - "$TMP/big.wiv1")
big_refused "3 GiB through a pipe into fdsrc" "$mb"
expect_contains "through a pipe: refused once past the limit" "bytes or more, past the decoder's max-memory (1000000 bytes), not read further" "$TMP/gst.out"
# (The limit reaching waiparse through a queue is tests/gst/hostile.c's:
# gst-launch 1.22 hung on that refusal in preroll three tries running.)
# Past the most any valid payload of its format holds (a WIV1: about
# 4.1 GiB): too_large, unread, with no limit set (max-memory=0).
cp "$TMP/big.wiv1" "$TMP/huge.wiv1"
truncate -s 5G "$TMP/huge.wiv1"
refuse "past a format's own bound" too_large filesrc location="$TMP/huge.wiv1" ! waiparse ! waidec max-memory=0 ! fakesink
expect_contains "past a format's own bound: said" "past the most any valid payload of its format holds" "$TMP/gst.out"
# set-dir: a 3 GiB stray file is never read; a 3 GiB member is refused
# before it is read (it shares max-memory, 2 GiB by default); a FIFO in a
# member's place never blocks.
mkdir "$TMP/bigset"
cp "$ROOT/examples/hyperprior/sets/q3"/* "$TMP/bigset/"
truncate -s 3G "$TMP/bigset/stray.bin"
mb=$(peak_mb timeout 20 gst-launch-1.0 -q filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/bigset" ! filesink location="$TMP/g.rgb")
[ "$(cat "$TMP/rc")" -eq 0 ] && [ "$mb" -lt 200 ] && ok || fail "a 3 GiB stray file in set-dir: exit $(cat "$TMP/rc"), $mb MB"
"$WAI" decode --set "$ROOT/examples/hyperprior/sets/q3" "$img" -o "$TMP/w.rgb" -y 2>/dev/null
same "a 3 GiB stray file in set-dir" "$TMP/g.rgb" "$TMP/w.rgb"
rm "$TMP/bigset/stray.bin" "$TMP/bigset/listing.json"
truncate -s 3G "$TMP/bigset/g_s.whm"
mb=$(peak_mb timeout 20 gst-launch-1.0 -q filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/bigset" ! fakesink)
big_refused "a 3 GiB set member" "$mb"
expect_contains "a 3 GiB set member: named" "g_s.whm: 3221225472 bytes: past max-memory" "$TMP/gst.out"
refuse "set members past max-memory" cost_over_limit filesrc location="$img" ! waiparse ! waidec set-dir="$ROOT/examples/hyperprior/sets/q3" max-memory=1000000 ! fakesink
rm "$TMP/bigset/g_s.whm"
mkfifo "$TMP/bigset/g_s.whm"
refuse "a FIFO in a member's place" set_incomplete filesrc location="$img" ! waiparse ! waidec set-dir="$TMP/bigset" ! fakesink

# An empty file or stream is an error (bad_magic, as `wai decode` says).
: >"$TMP/empty.wiv1"
refuse "an empty file" bad_magic filesrc location="$TMP/empty.wiv1" ! waiparse ! waidec ! fakesink
expect_contains "an empty file: said" "the stream is empty" "$TMP/gst.out"
launch -q fdsrc fd=0 ! waiparse ! waidec ! fakesink </dev/null >"$TMP/gst.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 124 ] && ok || fail "an empty fdsrc stream: exit $rc"
expect_contains "an empty fdsrc stream: said" "the stream is empty: no WAI payload: refused: bad_magic" "$TMP/gst.out"

# A payload into an element that does not take it: the message names the
# one that does (not a bare not-negotiated).
splat=$C/json/splat.wis1
for t in "$a/clip0.wia1|waidec|link waiparse to waiaudiodec" "$splat|waidec|use \`wai decode\`" \
         "$ROOT/examples/hello.wiv1|waiaudiodec|link waiparse to waidec"; do
    IFS='|' read -r f el want <<<"$t"
    launch filesrc location="$f" ! waiparse ! "$el" ! fakesink >"$TMP/gst.out" 2>&1
    rc=$?
    [ $rc -ne 0 ] && [ $rc -lt 124 ] && ok || fail "$(basename "$f") into $el: exit $rc"
    expect_contains "$(basename "$f") into $el: the element named" "$want" "$TMP/gst.out"
done

# A WIA1 rate past a gint (valid: sr is any u32 >= 1) is refused by the
# audio element, naming the rate; 2^31 - 1 still plays.
for r in 2147483648 4294967295 2147483647; do
    /usr/bin/python3 -c '
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
b[8:12] = struct.pack("<I", int(sys.argv[2]))
open(sys.argv[3], "wb").write(b)' "$a/clip0.wia1" "$r" "$TMP/rate.wia1"
    launch filesrc location="$TMP/rate.wia1" ! waiparse ! waiaudiodec set-dir="$a/set0" ! filesink location="$TMP/g.raw" >"$TMP/gst.out" 2>&1
    rc=$?
    if [ "$r" = 2147483647 ]; then
        [ $rc -eq 0 ] && ok || fail "rate $r: exit $rc"
        same "rate $r" "$TMP/g.raw" "$TMP/w.raw"
    else
        [ $rc -ne 0 ] && [ $rc -lt 124 ] && ok || fail "rate $r: exit $rc"
        expect_contains "rate $r: said" "sample rate, $r Hz, is past the most GStreamer's audio caps hold" "$TMP/gst.out"
        [ ! -s "$TMP/g.raw" ] && ok || fail "rate $r: samples were written"
    fi
done

# The plugin's format lists are the codec table's (gst/formats.c): each as
# gst-inspect-1.0 prints it, against `wai capabilities --json` (what libwai
# decodes bit-exactly, with a magic; by the kind of output). No magic is
# written out in gst/.
"$WAI" capabilities --json >"$TMP/caps.json"
for el in wai waiparse waidec waiaudiodec; do gst-inspect-1.0 "$el" >"$TMP/inspect.$el" 2>&1; done
/usr/bin/python3 - "$TMP" >"$TMP/lists" <<'PY'
import json, re, sys
tmp = sys.argv[1]
carried = [c for c in json.load(open(f"{tmp}/caps.json")) if c["tier"] == "decode-equivalence"
           and c["decodes"] and re.fullmatch(r"[A-Z][A-Z0-9]{3}", c["format"])]
want = {"typefinder": {c["format"].lower() for c in carried},
        "waiparse src": {c["format"] for c in carried},
        "waidec sink": {c["format"] for c in carried if c["output"] in ("frame", "image")},
        "waiaudiodec sink": {c["format"] for c in carried if c["output"] == "pcm"}}
def template(el, which):
    block = open(f"{tmp}/inspect.{el}").read().split(f"{which} template:")[1].split("template:")[0]
    return set(re.findall(r"\(string\)(\w+)", block))
m = re.search(r"application/x-wai: (.*)", open(f"{tmp}/inspect.wai").read())
got = {"typefinder": set(m.group(1).split(", ")) if m else set(),
       "waiparse src": template("waiparse", "SRC"), "waidec sink": template("waidec", "SINK"),
       "waiaudiodec sink": template("waiaudiodec", "SINK")}
for k in want:
    print(f"{'ok' if got[k] == want[k] and want[k] else 'FAIL'}|{k}|{sorted(got[k])} vs {sorted(want[k])}")
PY
while IFS='|' read -r verdict name detail; do
    [ "$verdict" = ok ] && ok || fail "$name: the plugin's list is not the codec table's: $detail"
done <"$TMP/lists"
[ "$(wc -l <"$TMP/lists")" -eq 4 ] && ok || fail "the lists' check did not run: $(cat "$TMP/lists")"
grep -nE '"W[A-Z]{2}[0-9]"' "$ROOT"/gst/*.c "$ROOT"/gst/*.h >"$TMP/magics"
[ ! -s "$TMP/magics" ] && ok || fail "a magic written out in gst/: $(head -3 "$TMP/magics")"

# Seeking: DURATION, SEEKING, flush seeks in TIME and frames, accurate and
# key-unit, stops, segment seeks, playbin (tests/gst/test_seek.py, through
# python3-gi); its checks are counted with these.
timeout 600 /usr/bin/python3 "$ROOT/tests/gst/test_seek.py" "$BUILD" >"$TMP/seek.log" 2>&1
grep '^FAIL' "$TMP/seek.log"
read -r seek_passed _ seek_failed _ < <(tail -n 1 "$TMP/seek.log")
if [[ "$seek_passed" =~ ^[0-9]+$ && "$seek_failed" =~ ^[0-9]+$ ]]; then
    passed=$((passed + seek_passed)) failed=$((failed + seek_failed))
else
    fail "test_seek.py ended without its counts: $(tail -n 3 "$TMP/seek.log")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
