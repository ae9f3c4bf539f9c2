#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Streaming a WIV1 clip to a pipe (issue 33): peak resident memory and the
time to the first frame, streamed (`wai decode -o -`, a frame at a time)
against the whole decode (`-o FILE`, which holds the clip).

    /usr/bin/python3 bench/bench_stream.py BUILD [--frames 60] [--size 1280x720] [--runs 3]

The clip is `wai encode`'s (q 4, block 16, search 8) of a synthetic scene:
a textured background panning one pixel a frame under a moving square.
Peak memory is the decode process's maximum resident set (getrusage of the
child); the first frame is the moment the reader has a whole Y4M frame of
bytes; the whole decode's time is the process's. Each figure is the best
of --runs. Prints both and the goals' bounds: peak <= payload + 4 frames +
16 MiB, first frame <= 1/30 of the whole decode."""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np


def y4m_of(path, n, h, w):
    rng = np.random.default_rng(33)
    tex = rng.integers(0, 256, (h, w + n, 3), dtype=np.uint8)
    tex = ((tex.astype(np.uint16) + np.roll(tex, 1, 1) + np.roll(tex, 1, 0)) // 3).astype(np.uint8)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F30:1 Ip A1:1 C444\n".encode())
        for k in range(n):
            fr = np.ascontiguousarray(tex[:, k:k + w])
            y0, x0 = (h // 4 + 3 * k) % (h - 64), (w // 4 + 5 * k) % (w - 64)
            fr[y0:y0 + 64, x0:x0 + 64] = (255, 128, 0)
            # RGB as the Y4M's three planes (the encoder reads 4:4:4 as RGB).
            f.write(b"FRAME\n")
            f.write(fr.transpose(2, 0, 1).tobytes())


def child_peak_kib():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def run_whole(wai, clip, out):
    t = time.perf_counter()
    subprocess.run([wai, "decode", "-y", clip, "--format", "y4m", "-o", out], check=True,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def run_streamed(wai, clip, frame_bytes):
    """(first frame s, whole s) with the reader taking the pipe's bytes."""
    t = time.perf_counter()
    p = subprocess.Popen([wai, "decode", clip, "--format", "y4m", "-o", "-"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, bufsize=0)
    got, first = 0, None
    header = None
    while True:
        b = p.stdout.read(1 << 20)
        if not b:
            break
        got += len(b)
        if header is None:
            header = got  # the stream header and the first FRAME tag arrive with the frame
        if first is None and got >= frame_bytes + 64:
            first = time.perf_counter() - t
    p.wait()
    return first, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--clip", default=None, help="keep the clip there (bench/bench_gst.sh reads it)")
    a = ap.parse_args()
    w, h = map(int, a.size.split("x"))
    wai = os.path.join(a.build, "tools", "wai", "wai")
    with tempfile.TemporaryDirectory() as tmp:
        src, clip, out = (os.path.join(tmp, n) for n in ("src.y4m", "clip.wiv1", "out.y4m"))
        y4m_of(src, a.frames, h, w)
        subprocess.run([wai, "encode", "--capability", "wai.video.int_motion", "--q", "4", src,
                        "-o", clip], check=True, stderr=subprocess.DEVNULL)
        os.remove(src)
        if a.clip:
            import shutil
            shutil.copy(clip, a.clip)
        payload = os.path.getsize(clip)
        rgb_frame = h * w * 3
        y4m_frame = h * w * 3 * 2  # C444p16: two bytes a sample
        # Each measurement in a fresh child, so ru_maxrss is that child's.
        def measure(fn):
            r, w_ = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                res = fn()
                os.write(w_, repr((res, child_peak_kib())).encode())
                os._exit(0)
            os.close(w_)
            data = b""
            while True:
                b = os.read(r, 4096)
                if not b:
                    break
                data += b
            os.waitpid(pid, 0)
            return eval(data)
        whole = [measure(lambda: run_whole(wai, clip, out)) for _ in range(a.runs)]
        streamed = [measure(lambda: run_streamed(wai, clip, y4m_frame)) for _ in range(a.runs)]
    whole_s = min(x[0] for x in whole)
    whole_peak = min(x[1] for x in whole) * 1024
    first = min(x[0][0] for x in streamed)
    stream_s = min(x[0][1] for x in streamed)
    stream_peak = min(x[1] for x in streamed) * 1024
    bound = payload + 4 * rgb_frame + 16 * 2**20
    mb = lambda v: f"{v / 2**20:.1f} MiB"
    print(f"clip: {a.frames} frames of {w}x{h}, {payload} bytes; a frame {mb(rgb_frame)} (RGB)")
    print(f"whole (-o FILE):   {whole_s * 1000:.0f} ms, peak {mb(whole_peak)}")
    print(f"streamed (-o -):   {stream_s * 1000:.0f} ms, peak {mb(stream_peak)}, first frame "
          f"{first * 1000:.0f} ms")
    print(f"goal: peak <= payload + 4 frames + 16 MiB = {mb(bound)}: "
          f"{'met' if stream_peak <= bound else 'missed'}; first frame <= 1/30 of the whole "
          f"decode ({whole_s * 1000 / 30:.0f} ms): {'met' if first <= whole_s / 30 else 'missed'} "
          f"({first / whole_s * 30:.2f}/30)")


if __name__ == "__main__":
    sys.exit(main())
