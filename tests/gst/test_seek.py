#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Seeking in the GStreamer plugin (docs/gstreamer.md, "Seeking"), through
GObject introspection (python3-gi, gir1.2-gstreamer-1.0): a WIV1 clip, a
keyframe-1 clip and a WIC1 clip, each in filesrc ! waiparse ! waidec !
appsink, answer DURATION (TIME and DEFAULT) and SEEKING, and are seeked to
ten positions each in TIME and in DEFAULT, ACCURATE and KEY_UNIT, flushing:
after every seek the position is the one asked for, the preroll is the
frame shown there, and every frame to the end is `wai decode`'s frame of
that number, byte for byte, with its timestamp. Also: a segment seek ends
in SEGMENT_DONE, a stop ends the frames early, a seek past the end gives
EOS and no frame, a rate other than 1 is refused, and playbin seeks a
clip as gst-play-1.0 would.

usage: test_seek.py BUILD        (ends "N passed, N failed")
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

BUILD = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WAI = os.path.join(BUILD, "tools", "wai", "wai")
TMP = tempfile.mkdtemp()
os.environ["GST_PLUGIN_PATH"] = os.path.join(BUILD, "gst")
os.environ["GST_REGISTRY"] = os.path.join(TMP, "registry.bin")

import gi  # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)
passed = failed = 0
FPS = (30, 1)
WAIT = 20 * Gst.SECOND


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what, flush=True)
    return ok


def frame_time(k):
    return Gst.util_uint64_scale(k, Gst.SECOND * FPS[1], FPS[0])


def y4m(path, n, h, w):
    """n frames of a moving pattern as 4:4:4 Y4M."""
    yy, xx = np.mgrid[0:h, 0:w]
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F30:1 Ip A1:1 C444\n".encode())
        for k in range(n):
            y = (64 + 40 * np.sin((xx + 3 * k) / 7.0) + 40 * np.cos((yy - 2 * k) / 5.0)).astype(np.uint8)
            u = ((xx * 2 + k * 5) % 256).astype(np.uint8)
            v = ((yy * 3 + 128) % 256).astype(np.uint8)
            f.write(b"FRAME\n" + y.tobytes() + u.tobytes() + v.tobytes())


def run(*args):
    subprocess.run([WAI, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def full_decode(path, set_dir):
    """wai decode's frames of the clip, as bytes each."""
    out = os.path.join(TMP, "full.rgb")
    run("decode", path, "--format", "rgb", "-o", out, "-y", *(["--set", set_dir] if set_dir else []))
    data = open(out, "rb").read()
    js = subprocess.run([WAI, "decode", path, "--json", *(["--set", set_dir] if set_dir else [])],
                        capture_output=True, text=True, check=True).stdout
    n = js.count('"sha256"')
    size = len(data) // n
    return [data[i * size:(i + 1) * size] for i in range(n)]


def frame_of(sample):
    """A sample's RGB bytes without GStreamer's row padding, its offset and PTS."""
    buf, caps = sample.get_buffer(), sample.get_caps()
    s = caps.get_structure(0)
    w, h = s.get_value("width"), s.get_value("height")
    ok, m = buf.map(Gst.MapFlags.READ)
    raw = bytes(m.data)
    buf.unmap(m)
    row, stride = w * 3, (w * 3 + 3) & ~3
    return b"".join(raw[y * stride:y * stride + row] for y in range(h)), buf.offset, buf.pts


def wait_state(p, state):
    p.set_state(state)
    r, cur, _ = p.get_state(WAIT)
    return r != Gst.StateChangeReturn.FAILURE and cur == state


def frames_to_end(sink):
    """Every sample until EOS (None when one does not come in time)."""
    got = []
    while True:
        s = sink.emit("try-pull-sample", WAIT)
        if s is None:
            return got if sink.get_property("eos") else None
        got.append(frame_of(s))


def seek_checks(name, path, set_dir, frames):
    n = len(frames)
    desc = (f'filesrc location="{path}" ! waiparse framerate={FPS[0]}/{FPS[1]} ! waidec name=dec '
            + (f'set-dir="{set_dir}" ' if set_dir else "")
            + "! appsink name=sink sync=false max-buffers=0 emit-signals=false")
    p = Gst.parse_launch(desc)
    sink = p.get_by_name("sink")
    # What waidec pushes, before the sink's clipping: frames before a
    # seek's target must not be converted or pushed at all.
    pushed = []
    p.get_by_name("dec").get_static_pad("src").add_probe(
        Gst.PadProbeType.BUFFER, lambda pad, info: pushed.append(info.get_buffer().offset) or
        Gst.PadProbeReturn.OK)
    if not check(wait_state(p, Gst.State.PAUSED), f"{name}: prerolls"):
        p.set_state(Gst.State.NULL)
        return
    ok, d = p.query_duration(Gst.Format.TIME)
    check(ok and d == frame_time(n), f"{name}: DURATION in TIME {d}, want {frame_time(n)}")
    ok, d = p.query_duration(Gst.Format.DEFAULT)
    check(ok and d == n, f"{name}: DURATION in frames {d}, want {n}")
    q = Gst.Query.new_seeking(Gst.Format.TIME)
    ok = p.query(q)
    _, seekable, lo, hi = q.parse_seeking()
    check(ok and seekable and lo == 0 and hi == frame_time(n), f"{name}: SEEKING {seekable} {lo}..{hi}")
    # Ten positions: frames and times between frames, first to last.
    step = frame_time(1)
    times = sorted({0, step // 2, step, step + 1, frame_time(n // 3) + step // 3,
                    frame_time(n // 2), frame_time(n // 2) + step - 1, frame_time(max(n - 2, 0)) + 7,
                    frame_time(n - 1), frame_time(n - 1) + step // 2})
    for fmt in (Gst.Format.TIME, Gst.Format.DEFAULT):
        for key in (False, True):
            for t in times:
                k = next(i for i in range(n - 1, -1, -1) if frame_time(i) <= t)
                if fmt == Gst.Format.DEFAULT:
                    t, at = k, frame_time(k)
                else:
                    at = frame_time(k) if key else t
                flags = Gst.SeekFlags.FLUSH | (Gst.SeekFlags.KEY_UNIT if key else Gst.SeekFlags.ACCURATE)
                what = f"{name}: seek {'frame' if fmt == Gst.Format.DEFAULT else 'time'} {t} " \
                       f"{'key-unit' if key else 'accurate'}"
                pushed.clear()
                if not check(p.seek_simple(fmt, flags, t), what + ": refused"):
                    continue
                p.get_state(WAIT)
                ok, pos = p.query_position(Gst.Format.TIME)
                check(ok and pos == at, f"{what}: position {pos}, want {at}")
                ok, pos = p.query_position(Gst.Format.DEFAULT)
                check(ok and pos == k, f"{what}: position in frames {pos}, want {k}")
                pre = sink.emit("pull-preroll")
                if check(pre is not None, f"{what}: a preroll"):
                    data, off, pts = frame_of(pre)
                    check(off == k and data == frames[k] and pts == frame_time(k),
                          f"{what}: the preroll is frame {off} (pts {pts}), want {k}")
                wait_state(p, Gst.State.PLAYING)
                got = frames_to_end(sink)
                if check(got is not None, f"{what}: EOS"):
                    check([g[1] for g in got] == list(range(k, n)),
                          f"{what}: frames {[g[1] for g in got]}, want {k}..{n - 1}")
                    check(all(g[0] == frames[g[1]] and g[2] == frame_time(g[1])
                              for g in got if g[1] < n),
                          f"{what}: a frame is not wai decode's, or its timestamp is wrong")
                    check(pushed == list(range(k, n)), f"{what}: waidec pushed {pushed}")
                wait_state(p, Gst.State.PAUSED)
    # A stop: frames from 1 to the one before the stop.
    if n >= 3:
        p.seek(1.0, Gst.Format.DEFAULT, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
               Gst.SeekType.SET, 1, Gst.SeekType.SET, n - 1)
        p.get_state(WAIT)
        wait_state(p, Gst.State.PLAYING)
        got = frames_to_end(sink)
        check(got is not None and [g[1] for g in got] == list(range(1, n - 1)),
              f"{name}: a stop at frame {n - 1}: {got and [g[1] for g in got]}")
        wait_state(p, Gst.State.PAUSED)
    # A segment seek: SEGMENT_DONE on the bus, no EOS.
    bus = p.get_bus()
    p.seek(1.0, Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.SEGMENT,
           Gst.SeekType.SET, 0, Gst.SeekType.NONE, -1)
    p.get_state(WAIT)
    wait_state(p, Gst.State.PLAYING)
    m = bus.timed_pop_filtered(WAIT, Gst.MessageType.SEGMENT_DONE | Gst.MessageType.ERROR)
    check(m is not None and m.type == Gst.MessageType.SEGMENT_DONE, f"{name}: a segment seek's SEGMENT_DONE")
    # Paused with no more data to preroll on: the next seek brings it.
    p.set_state(Gst.State.PAUSED)
    # Past the end: EOS, no frame. A rate of 2: refused.
    check(p.seek_simple(Gst.Format.DEFAULT, Gst.SeekFlags.FLUSH, n + 5), f"{name}: a seek past the end")
    p.get_state(WAIT)
    wait_state(p, Gst.State.PLAYING)
    got = frames_to_end(sink)
    check(got == [], f"{name}: past the end gave {got and [g[1] for g in got]}")
    check(not p.seek(2.0, Gst.Format.TIME, Gst.SeekFlags.FLUSH, Gst.SeekType.SET, 0,
                     Gst.SeekType.NONE, -1), f"{name}: a rate of 2 is refused")
    p.set_state(Gst.State.NULL)


def playbin_checks(name, path, frames):
    """playbin (typefinder, decodebin, waiparse, waidec), seeked in the
    middle: what gst-play-1.0 does."""
    n = len(frames)
    p = Gst.ElementFactory.make("playbin")
    sink = Gst.parse_bin_from_description(
        "videoconvert ! video/x-raw,format=RGB ! appsink name=sink sync=false", True)
    p.set_property("uri", Gst.filename_to_uri(path))
    p.set_property("video-sink", sink)
    p.set_property("audio-sink", Gst.ElementFactory.make("fakesink"))
    app = sink.get_by_name("sink")
    if not check(wait_state(p, Gst.State.PAUSED), f"{name}: playbin prerolls"):
        p.set_state(Gst.State.NULL)
        return
    ok, d = p.query_duration(Gst.Format.TIME)
    # playbin's waiparse runs at its default rate, 25/1.
    check(ok and d == Gst.util_uint64_scale(n, Gst.SECOND, 25), f"{name}: playbin's duration {d}")
    k = n // 2
    check(p.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
                        Gst.util_uint64_scale(k, Gst.SECOND, 25)), f"{name}: playbin seeks")
    p.get_state(WAIT)
    wait_state(p, Gst.State.PLAYING)
    got = frames_to_end(app)
    check(got is not None and [g[0] for g in got] == frames[k:],
          f"{name}: playbin's frames after the seek are not frames {k}..{n - 1}")
    p.set_state(Gst.State.NULL)


def main():
    motion = os.path.join(TMP, "clip.wiv1")
    y4m(os.path.join(TMP, "in.y4m"), 24, 48, 58)
    run("encode", "--capability", "wai.video.int_motion", "--q", "3", "--quiet",
        os.path.join(TMP, "in.y4m"), "-o", motion)
    keyed = os.path.join(TMP, "keyed.wiv1")
    hyper = os.path.join(ROOT, "examples", "hyperprior", "sets", "q3")
    y4m(os.path.join(TMP, "in64.y4m"), 12, 64, 64)
    run("encode", "--capability", "wai.video.int_hyper", "--set", hyper, "--quiet",
        os.path.join(TMP, "in64.y4m"), "-o", keyed)
    cond_dir = os.path.join(ROOT, "tests", "corpus", "neural", "cond", "valid", "six_frames")
    clips = [("WIV1", motion, None), ("keyframe-1 WIV1", keyed, hyper),
             ("WIC1", os.path.join(cond_dir, "clip.wic1"), cond_dir)]
    for name, path, set_dir in clips:
        frames = full_decode(path, set_dir)
        check(len(frames) >= 6, f"{name}: {len(frames)} frames")
        seek_checks(name, path, set_dir, frames)
    playbin_checks("WIV1", motion, full_decode(motion, None))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
