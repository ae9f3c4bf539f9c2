#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""A seek into a WIV1 clip (issue 61): the time to frame N of a 60-frame
720p clip (`wai decode --start N --frames 1`: frames 0 .. N-1 decoded,
not converted or written), against its peer in the same run, the decode
of frames 0 .. N written out (`--frames N+1`, what a player without a
seek does to show frame N), and against the whole clip's decode.

    /usr/bin/python3 bench/bench_seek.py BUILD [--frames 60] [--at 30] [--size 1280x720]
                                               [--runs 5] [--format y4m|rgb] [--clip F]

The clip is bench_stream.py's (a textured pan under a moving square,
`wai encode` q 4), decoded to standard output (streamed). Each figure is the best of --runs, the commands
interleaved so the machine's drift falls on both alike. Prints the
times and the ratio seek / peer (below 1: the seek saves the conversion
and the writing of the frames before it; the decode itself is the
format's: each frame predicts the next)."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_stream import y4m_of  # noqa: E402


def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--at", type=int, default=30)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--format", default="y4m", help="y4m (the default) or rgb: the frames' format")
    ap.add_argument("--clip", default=None, help="a WIV1 to seek in instead (bench_stream.py --clip)")
    a = ap.parse_args()
    w, h = map(int, a.size.split("x"))
    wai = os.path.join(a.build, "tools", "wai", "wai")
    with tempfile.TemporaryDirectory() as tmp:
        src, clip = os.path.join(tmp, "src.y4m"), a.clip or os.path.join(tmp, "clip.wiv1")
        if not a.clip:
            y4m_of(src, a.frames, h, w)
            subprocess.run([wai, "encode", "--capability", "wai.video.int_motion", "--q", "4", src,
                            "-o", clip], check=True, stderr=subprocess.DEVNULL)
            os.remove(src)
        # To standard output: the streamed decode, which decodes a frame
        # when it is asked for (a file's decode holds §8's rule and decodes
        # the whole clip before it writes one frame).
        cmds = {
            "seek": [wai, "decode", clip, "--start", str(a.at), "--frames", "1",
                     "--format", a.format, "-o", "-"],
            "peer": [wai, "decode", clip, "--frames", str(a.at + 1), "--format", a.format,
                     "-o", "-"],
            "whole": [wai, "decode", clip, "--format", a.format, "-o", "-"],
        }
        best = {k: float("inf") for k in cmds}
        for _ in range(a.runs):
            for k, c in cmds.items():
                best[k] = min(best[k], timed(c))
        size = os.path.getsize(clip)
    print(f"clip: {a.frames} frames of {w}x{h}, {size} bytes; frame {a.at} as {a.format}")
    print(f"seek  (--start {a.at} --frames 1):  {best['seek'] * 1000:.0f} ms")
    print(f"peer  (--frames {a.at + 1}, all written): {best['peer'] * 1000:.0f} ms")
    print(f"whole ({a.frames} frames written):     {best['whole'] * 1000:.0f} ms")
    print(f"seek / peer: {best['seek'] / best['peer']:.2f}; seek / whole: "
          f"{best['seek'] / best['whole']:.2f}")


if __name__ == "__main__":
    sys.exit(main())
