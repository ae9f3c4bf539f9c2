#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The README's player and pipeline snippets, run as the README writes them
# (read from the README itself, so an edit there is what runs here): the
# decode to a pipe, the GStreamer pipeline, the Dask batch, the ffmpeg round
# trip and the rate-distortion table's command. What a
# headless CI machine cannot open is swapped for what reads the same bytes
# (ffplay: a file compared with the tool's own decode; autovideosink:
# fakesink); `wai` and build/release become the build under test. Nothing
# is skipped: a tool the snippets need and this machine lacks is a failure
# (tests/ci/install-deps.sh installs ffmpeg, GStreamer and Dask).
# usage: tests/ci/readme_snippets.sh BUILD_DIR
set -u
BUILD=$(cd "${1:?usage: readme_snippets.sh BUILD_DIR}" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/tool/lib.bash"
WAI=$BUILD/tools/wai/wai
cd "$ROOT"

# snippet TEXT: the README's fenced block holding TEXT, its lines joined
# where they end in a backslash.
snippet() {
    awk -v want="$1" '
        /^```/ { if (inside) { if (index(block, want)) { printf "%s", block; exit } inside = 0; block = "" }
                 else { inside = 1; block = "" } next }
        inside { block = block $0 "\n" }' README.md
}

# as_built TEXT: the snippet with this build's tool and folders.
as_built() {
    sed -e "s#build/release#$BUILD#g" -e "s#^wai #\"$WAI\" #" -e "s#| *wai #| \"$WAI\" #"
}

# The decode to a pipe: the README's command, its reader a file.
pipe=$(snippet "| ffplay -")
[ -n "$pipe" ] && ok || fail "the README has no decode to a pipe"
cmd=$(printf '%s' "$pipe" | as_built | sed -e "s#clip.wiv1#examples/hello.wiv1#" \
      -e "s#| *ffplay -.*#> \"$TMP/pipe.y4m\"#")
bash -c "$cmd" 2>"$TMP/err" && ok || fail "the pipe snippet: $(head -c 300 "$TMP/err")"
"$WAI" decode examples/hello.wiv1 --fps 30 -o "$TMP/file.y4m" >/dev/null 2>&1
cmp -s "$TMP/pipe.y4m" "$TMP/file.y4m" && ok || fail "the pipe's Y4M is not the file's"

# The GStreamer pipeline: to fakesink, with the frame count checked.
gst=$(snippet "gst-launch-1.0")
[ -n "$gst" ] && ok || fail "the README has no GStreamer pipeline"
if [ -e "$BUILD/gst/libgstwai.so" ] && command -v gst-launch-1.0 >/dev/null; then
    cmd=$(printf '%s' "$gst" | as_built | tr -d '\\\n' |
          sed -e 's#autovideosink#fakesink silent=false#' -e 's#gst-launch-1.0#gst-launch-1.0 -v#')
    bash -c "$cmd" >"$TMP/gst" 2>&1 && ok || fail "the GStreamer snippet: $(tail -c 300 "$TMP/gst")"
    frames=$("$WAI" inspect examples/hello.wiv1 | sed -n 's/.*"n_frames": \([0-9]*\).*/\1/p' | head -1)
    got=$(grep -c 'fakesink0: last-message = chain' "$TMP/gst")
    [ -n "$frames" ] && [ "$got" -eq "$frames" ] && ok || fail "fakesink got $got frames, the clip has $frames"
else
    fail "the GStreamer plugin is not built in $BUILD"
fi

# The Dask batch: one line a picture, each ok, its digest the tool's.
dask=$(snippet "wai.batch.decode(")
[ -n "$dask" ] && ok || fail "the README has no Dask batch"
if /usr/bin/python3 -c 'import distributed' 2>/dev/null; then
    cmd=$(printf '%s' "$dask" | as_built)
    bash -c "$cmd" >"$TMP/dask" 2>"$TMP/err" && ok || fail "the Dask snippet: $(tail -c 300 "$TMP/err")"
    for pic in examples/hyperprior/*.wih1; do
        "$WAI" decode "$pic" --set examples/hyperprior/sets/q3 --json >"$TMP/j" 2>/dev/null
        want=$(sed -n 's/.*"sha256": "\([0-9a-f]\{16\}\).*/\1/p' "$TMP/j")
        grep -qx "$pic ok $want" "$TMP/dask" && ok || fail "the batch's line for $pic: $(cat "$TMP/dask")"
    done
    # The same loop over the pictures and a refused one (cut short): a line
    # for it with its code, and the loop goes on.
    mkdir -p "$TMP/pics" && cp examples/hyperprior/*.wih1 "$TMP/pics/"
    head -c 100 examples/hyperprior/chelsea.wih1 >"$TMP/pics/a_cut.wih1"
    bash -c "${cmd//examples\/hyperprior\/\*.wih1/$TMP/pics/*.wih1}" >"$TMP/dask2" 2>"$TMP/err" && ok ||
        fail "the Dask snippet with a refused file: $(tail -c 300 "$TMP/err")"
    grep -Eqx "$TMP/pics/a_cut.wih1 [a-z_]+ -" "$TMP/dask2" && ! grep -q "a_cut.wih1 ok" "$TMP/dask2" && ok ||
        fail "the refused file's line: $(cat "$TMP/dask2")"
    [ "$(grep -c ' ok ' "$TMP/dask2")" -eq "$(ls examples/hyperprior/*.wih1 | wc -l)" ] && ok ||
        fail "the batch with a refused file: $(cat "$TMP/dask2")"
else
    fail "no python3-distributed for /usr/bin/python3"
fi

# The ffmpeg round trip (tests/ci/install-deps.sh installs ffmpeg): lossless
# in RGB, so ffmpeg's PSNR over all frames is inf, and every frame came back.
trip=$(snippet "testsrc2")
[ -n "$trip" ] && ok || fail "the README has no ffmpeg round trip"
if command -v ffmpeg >/dev/null; then
    (cd "$TMP" && bash -c "$(printf '%s' "$trip" | as_built)") >"$TMP/ff" 2>&1 && ok ||
        fail "the ffmpeg round trip: $(tail -c 300 "$TMP/ff")"
    grep -q 'average:inf' "$TMP/ff" && ok || fail "the round trip is not lossless: $(grep PSNR "$TMP/ff")"
    n_src=$(ls "$TMP"/src_*.png 2>/dev/null | wc -l)
    n_back=$(ls "$TMP"/back_*.png 2>/dev/null | wc -l)
    [ "$n_src" -eq 30 ] && [ "$n_back" -eq "$n_src" ] && ok ||
        fail "the round trip: $n_src frames in, $n_back out"
else
    fail "no ffmpeg (tests/ci/install-deps.sh installs it)"
fi

# The rate-distortion table's command, as written, to a folder of its own:
# the pictures and codecs it names are installed (install-deps.sh), so it
# runs to its end and writes the table and the plot.
rd=$(snippet "tools/rd/rd_curves.py")
[ -n "$rd" ] && ok || fail "the README has no rate-distortion command"
cmd=$(printf '%s' "$rd" | as_built | sed -e "s#--out docs/rd/rd#--out $TMP/rd#")
if [[ "$cmd" == *"--out $TMP/rd"* ]]; then ok; else fail "the RD command writes elsewhere: $cmd"; fi
bash -c "$cmd" >"$TMP/rd.log" 2>&1 && ok || fail "the RD command: $(tail -c 400 "$TMP/rd.log")"
[ -s "$TMP/rd.md" ] && [ -s "$TMP/rd.png" ] && grep -q "BD-rate against WebP" "$TMP/rd.md" && ok ||
    fail "the RD command wrote no table and plot"
# The committed table (the README's figures come from it) is what it writes.
cmp -s "$TMP/rd.md" docs/rd/rd.md && ok ||
    fail "docs/rd/rd.md is not what the README's command writes: $(diff "$TMP/rd.md" docs/rd/rd.md | head -5)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
