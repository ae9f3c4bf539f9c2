#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The GStreamer plugin against `wai decode` on the same clip and thread
# count (issue 33's goal: within 1.05x): `gst-launch-1.0 filesrc ! waiparse
# ! waidec threads=N ! fakesink` against `wai decode --threads N CLIP
# --format rgb -o -` into /dev/null (both stream the clip a frame at a
# time; the plugin copies each frame into a GStreamer buffer), paired runs
# by farm-bench (the median ratio is the figure).
#   bench/bench_gst.sh BUILD [THREADS] [CLIP]
# Without CLIP, bench/bench_stream.py makes its 60-frame 720p clip. A
# second pair on a 3-frame clip gives the fixed cost of starting gst-launch.
set -euo pipefail
BUILD=$(cd "${1:?usage: bench_gst.sh BUILD [THREADS] [CLIP]}" && pwd)
THREADS=${2:-1}
CLIP=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z "$CLIP" ]]; then
    CLIP=$tmp/clip.wiv1
    /usr/bin/python3 "$repo/bench/bench_stream.py" "$BUILD" --runs 1 --clip "$CLIP" >/dev/null
fi
export GST_PLUGIN_PATH=$BUILD/gst GST_REGISTRY=$tmp/registry.bin
gst-inspect-1.0 waidec >/dev/null   # the registry, once, outside the timings
farm-bench -n 7 --timeout 600 \
    --vs "sh -c 'exec $BUILD/tools/wai/wai decode --threads $THREADS $CLIP --format rgb -o - >/dev/null'" \
    -- gst-launch-1.0 -q filesrc location="$CLIP" ! waiparse ! waidec threads="$THREADS" ! fakesink
# What is fixed whatever the clip (gst-launch's start: GStreamer's
# registry, the plugin's loading, the pipeline's states), from the same
# pair on the three 24x16 frames of examples/hello.wiv1.
echo "fixed cost: the same pair on examples/hello.wiv1"
farm-bench -n 7 --timeout 600 \
    --vs "sh -c 'exec $BUILD/tools/wai/wai decode --threads $THREADS $repo/examples/hello.wiv1 --format rgb -o - >/dev/null'" \
    -- gst-launch-1.0 -q filesrc location="$repo/examples/hello.wiv1" ! waiparse ! waidec threads="$THREADS" ! fakesink
