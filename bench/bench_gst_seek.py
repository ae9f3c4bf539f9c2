#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The GStreamer plugin on a 60-frame 720p WIV1 (issue 61), through
python3-gi: filesrc ! waiparse ! waidec ! appsink (sync=false).

- first frame: from the pipeline set to PLAYING to the first frame at the
  appsink, against the whole clip (to EOS) in the same run: the goal is
  1/30 of the whole;
- seek: a flushing, accurate seek in PAUSED to frame N until its preroll,
  against the decode of frames 0 .. N from the start (PLAYING, to frame N's
  sample) in the same run.

    /usr/bin/python3 bench/bench_gst_seek.py BUILD [--clip CLIP] [--at 30] [--runs 5]

Without --clip, bench_stream.py's clip is made (a minute's encode). Each
figure is the best of --runs, each run a new pipeline."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("build")
ap.add_argument("--clip")
ap.add_argument("--at", type=int, default=30)
ap.add_argument("--runs", type=int, default=5)
a = ap.parse_args()
build = os.path.abspath(a.build)
os.environ["GST_PLUGIN_PATH"] = os.path.join(build, "gst")
tmp = tempfile.mkdtemp()
os.environ["GST_REGISTRY"] = os.path.join(tmp, "registry.bin")

import gi  # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)
WAIT = 60 * Gst.SECOND


def pipeline(clip):
    p = Gst.parse_launch(f'filesrc location="{clip}" ! waiparse framerate=30/1 ! waidec '
                         "! appsink name=s sync=false max-buffers=2")
    return p, p.get_by_name("s")


def first_and_whole(clip):
    p, s = pipeline(clip)
    t = time.perf_counter()
    p.set_state(Gst.State.PLAYING)
    s.emit("try-pull-sample", WAIT)
    first = time.perf_counter() - t
    while s.emit("try-pull-sample", WAIT) is not None:
        pass
    whole = time.perf_counter() - t
    p.set_state(Gst.State.NULL)
    return first, whole


def seek_and_peer(clip, at):
    p, s = pipeline(clip)
    p.set_state(Gst.State.PAUSED)
    p.get_state(WAIT)
    t = time.perf_counter()
    p.seek_simple(Gst.Format.DEFAULT, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE, at)
    p.get_state(WAIT)
    sample = s.emit("pull-preroll")
    seek = time.perf_counter() - t
    assert sample.get_buffer().offset == at
    p.set_state(Gst.State.NULL)
    p, s = pipeline(clip)
    t = time.perf_counter()
    p.set_state(Gst.State.PLAYING)
    for _ in range(at + 1):
        sample = s.emit("try-pull-sample", WAIT)
    peer = time.perf_counter() - t
    assert sample.get_buffer().offset == at
    p.set_state(Gst.State.NULL)
    return seek, peer


def main():
    clip = a.clip
    if not clip:
        clip = os.path.join(tmp, "clip.wiv1")
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "bench_stream.py"),
                        build, "--runs", "1", "--clip", clip], check=True, stdout=subprocess.DEVNULL)
    runs = [first_and_whole(clip) for _ in range(a.runs)]
    first, whole = min(r[0] for r in runs), min(r[1] for r in runs)
    seeks = [seek_and_peer(clip, a.at) for _ in range(a.runs)]
    seek, peer = min(r[0] for r in seeks), min(r[1] for r in seeks)
    print(f"first frame out of waidec: {first * 1000:.0f} ms; the whole clip {whole * 1000:.0f} ms "
          f"({first / whole * 30:.2f}/30; goal <= 1/30: {'met' if first <= whole / 30 else 'missed'})")
    print(f"seek to frame {a.at} (PAUSED, to its preroll): {seek * 1000:.0f} ms; frames 0..{a.at} "
          f"played: {peer * 1000:.0f} ms; seek / peer {seek / peer:.2f}")


if __name__ == "__main__":
    sys.exit(main())
