# SPDX-License-Identifier: BSD-2-Clause
"""The Python module against the repository's examples and corpus, and
against the `wai` tool's own decode of the same payloads.

    WAI_LIBRARY=build/release/libwai_python.so PYTHONPATH=python \
        /usr/bin/python3 -m unittest discover -s python/tests -v

WAI_TOOL (optional) names a build's `wai`, whose decode the module's
outputs are held to byte for byte. Prints "N passed, N failed"."""
import hashlib
import json
import os
import subprocess
import sys
import unittest

import numpy as np

import wai

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def read(rel):
    with open(os.path.join(REPO, rel), "rb") as f:
        return f.read()


HYPER = "examples/hyperprior/sets/q3"
CHELSEA = "/usr/lib/python3/dist-packages/skimage/data/chelsea.png"


def psnr(a, b):
    mse = np.mean((a.astype(np.int64) - b.astype(np.int64)) ** 2)
    return 10 * np.log10(255 ** 2 / mse)


class EncodeImage(unittest.TestCase):
    """wai.encode_image with the shipped trained set: the reference
    encoder's bytes, and the decode's PSNR."""

    def picture(self):
        from PIL import Image  # python3-pil (tests/ci/install-deps.sh)
        return np.asarray(Image.open(CHELSEA).convert("RGB"))

    def test_the_reference_bytes_and_psnr(self):
        rgb = np.ascontiguousarray(self.picture()[:256, :448])
        e = wai.encode_image(rgb, set=os.path.join(REPO, HYPER))
        self.assertEqual(e.payload, read("examples/hyperprior/chelsea.wih1"))
        got = wai.decode(e.payload, set=os.path.join(REPO, HYPER)).outputs[0].array
        self.assertAlmostEqual(e.psnr, psnr(got, rgb), places=9)
        self.assertEqual((e.coded_h, e.coded_w, e.samples), (256, 448, rgb.size))

    def test_a_picture_padded_to_64(self):
        rgb = np.ascontiguousarray(self.picture()[100:170, 200:300])
        e = wai.encode_image(rgb, set=os.path.join(REPO, HYPER), threads=2)
        self.assertEqual((e.h, e.w, e.coded_h, e.coded_w), (70, 100, 128, 128))
        got = wai.decode(e.payload, set=os.path.join(REPO, HYPER)).outputs[0].array
        self.assertEqual(got.shape, (128, 128, 3))
        self.assertAlmostEqual(e.psnr, psnr(got[:70, :100], rgb), places=9)

    def test_refusals(self):
        members = {n: read(os.path.join(HYPER, n)) for n in ("g_s.whm", "h_s.whm", "entropy.json")}
        rgb = np.zeros((64, 64, 3), dtype=np.uint8)
        with self.assertRaises(wai.WaiError) as c:
            wai.encode_image(rgb, set=members)
        self.assertEqual(c.exception.code, "set_incomplete")
        with self.assertRaises(ValueError):
            wai.encode_image(np.zeros((64, 64), dtype=np.uint8), set=members)

    def test_quality_picks_a_rate_point(self):
        # quality=Q is the folder's qQ, as `wai encode --quality` picks it:
        # the same payload as naming that set; a point the folder lacks, or
        # the folder given as a set, is an error that lists its points.
        sets = os.path.join(REPO, "examples/hyperprior/sets")
        rgb = np.ascontiguousarray(self.picture()[:64, :128])
        points = wai.quality_points(sets)
        self.assertIn(3, points)
        for q in points:
            with self.subTest(quality=q):
                self.assertEqual(wai.encode_image(rgb, set=sets, quality=q).payload,
                                 wai.encode_image(rgb, set=os.path.join(sets, f"q{q}")).payload)
        missing = next(q for q in range(1, 9) if q not in points)
        with self.assertRaises(ValueError) as c:
            wai.encode_image(rgb, set=sets, quality=missing)
        self.assertIn(f"has no q{missing}", str(c.exception))
        self.assertIn(str(points[-1]), str(c.exception))
        with self.assertRaises(ValueError) as c:
            wai.encode_image(rgb, set=sets)
        self.assertIn("quality=Q", str(c.exception))
        for bad, kind in ((0, ValueError), (9, ValueError), ("3", TypeError), (3.0, TypeError), (True, TypeError)):
            with self.subTest(bad=bad):
                with self.assertRaises(kind):
                    wai.encode_image(rgb, set=sets, quality=bad)
        with self.assertRaises(TypeError):
            wai.encode_image(rgb, set={"entropy.json": b""}, quality=3)

    def test_only_uint8_rgb_is_coded(self):
        # A float picture in [0, 1] was once cast to uint8: a black picture,
        # coded, its report claiming 45 dB. Nothing is cast now.
        full = os.path.join(REPO, HYPER)
        rgb = self.picture()[:64, :64]
        cases = [(rgb.astype(np.float32) / 255, TypeError, "float32"),
                 (rgb.astype(np.float64), TypeError, "float64"),
                 (rgb.astype(np.int64), TypeError, "int64"),
                 (rgb.tolist(), TypeError, "list"),
                 (rgb[..., 0], ValueError, "grey"),
                 (np.dstack([rgb, rgb[..., :1]]), ValueError, "[64, 64, 4]"),
                 (rgb.transpose(2, 0, 1).copy(), ValueError, "[3, 64, 64]"),
                 (np.zeros((0, 64, 3), np.uint8), ValueError, "empty")]
        for bad, kind, word in cases:
            with self.subTest(word=word):
                with self.assertRaises(kind) as c:
                    wai.encode_image(bad, set=full)
                self.assertIn(word, str(c.exception))
        # A view that is not contiguous is the picture it shows.
        view = self.picture()[:128:2, :128:2]
        self.assertFalse(view.flags["C_CONTIGUOUS"])
        self.assertEqual(wai.encode_image(view, set=full).payload,
                         wai.encode_image(view.copy(), set=full).payload)


# wai.neural.int_mlicpp: a set of model.wmb and the analysis members, and
# the payloads tools/mlicpp/lower.py's reference encoder wrote of
# chelsea.png and coffee.png (each cropped to multiples of 64 from the
# top-left) against it. WAI_MLIC_SET and WAI_MLIC_PAYLOADS point elsewhere.
MLIC = "wai.neural.int_mlicpp"
MLIC_SET = os.environ.get("WAI_MLIC_SET", os.path.join(REPO, "examples/mlicpp/sets/q3"))
MLIC_PAYLOADS = os.environ.get("WAI_MLIC_PAYLOADS", os.path.join(REPO, "examples/mlicpp"))


class EncodeImageMlic(unittest.TestCase):
    """wai.encode_image(capability="wai.neural.int_mlicpp"): the reference
    encoder's bytes, the decode's PSNR, padding, a folder of rate points
    (model.wmb marks a set), and the refusals."""

    def picture(self, name="chelsea"):
        from PIL import Image  # python3-pil (tests/ci/install-deps.sh)
        a = np.asarray(Image.open(os.path.join(os.path.dirname(CHELSEA), name + ".png")).convert("RGB"))
        return np.ascontiguousarray(a[:a.shape[0] // 64 * 64, :a.shape[1] // 64 * 64])

    def test_the_reference_bytes_and_psnr(self):
        for name in ("chelsea", "coffee"):
            with self.subTest(name=name):
                rgb = self.picture(name)
                e = wai.encode_image(rgb, set=MLIC_SET, capability=MLIC)
                with open(os.path.join(MLIC_PAYLOADS, name + ".wim1"), "rb") as f:
                    self.assertEqual(e.payload, f.read())
                self.assertEqual(e.payload[:4], b"WIM1")
                got = wai.decode(e.payload, set=MLIC_SET).outputs[0].array
                self.assertAlmostEqual(e.psnr, psnr(got, rgb), places=9)
                self.assertEqual((e.coded_h, e.coded_w), rgb.shape[:2])

    def test_a_picture_padded_to_64(self):
        rgb = np.ascontiguousarray(self.picture()[100:170, 200:300])
        e = wai.encode_image(rgb, set=MLIC_SET, capability=MLIC, threads=2)
        self.assertEqual((e.h, e.w, e.coded_h, e.coded_w), (70, 100, 128, 128))
        got = wai.decode(e.payload, set=MLIC_SET).outputs[0].array
        self.assertEqual(got.shape, (128, 128, 3))
        self.assertAlmostEqual(e.psnr, psnr(got[:70, :100], rgb), places=9)

    def test_a_folder_of_rate_points(self):
        import shutil
        import tempfile
        rgb = np.ascontiguousarray(self.picture()[:64, :128])
        with tempfile.TemporaryDirectory() as d:
            shutil.copytree(MLIC_SET, os.path.join(d, "q3"))
            with self.assertRaises(ValueError) as c:
                wai.encode_image(rgb, set=d, capability=MLIC)
            self.assertIn("quality=Q", str(c.exception))
            self.assertEqual(wai.encode_image(rgb, set=d, quality=3, capability=MLIC).payload,
                             wai.encode_image(rgb, set=MLIC_SET, capability=MLIC).payload)

    def test_refusals(self):
        rgb = np.zeros((64, 64, 3), dtype=np.uint8)
        with self.assertRaises(wai.WaiError) as c:
            wai.encode_image(rgb, set={"model.wmb": read(os.path.join(MLIC_SET, "model.wmb"))},
                             capability=MLIC)
        self.assertEqual(c.exception.code, "set_incomplete")
        # A WIH1 set is not one: it has no model.wmb.
        with self.assertRaises(wai.WaiError) as c:
            wai.encode_image(rgb, set=os.path.join(REPO, HYPER), capability=MLIC)
        self.assertEqual(c.exception.code, "set_incomplete")
        for bad in ("wai.video.int_motion", "wai.neural.int_mlic", None):
            with self.subTest(capability=bad):
                with self.assertRaises(ValueError):
                    wai.encode_image(rgb, set=MLIC_SET, capability=bad)


class PayloadFolder(unittest.TestCase):
    """wai.data.PayloadFolder: a torch Dataset over a folder of WIH1s."""

    def setUp(self):
        try:
            import torch  # noqa: F401  (python3-torch)
        except ImportError:
            self.skipTest("no torch")

    def test_items_are_the_decodes(self):
        import tempfile
        import shutil
        import torch
        from wai.data import PayloadFolder
        full = os.path.join(REPO, HYPER)
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "sub"))
            shutil.copy(os.path.join(REPO, "examples/hyperprior/coffee.wih1"), os.path.join(d, "b.wih1"))
            shutil.copy(os.path.join(REPO, "examples/hyperprior/chelsea.wih1"),
                        os.path.join(d, "sub", "a.wih1"))
            with open(os.path.join(d, "notes.txt"), "w") as f:
                f.write("not a payload")
            ds = PayloadFolder(d, set=full)
            self.assertEqual([os.path.basename(f) for f in ds.files], ["b.wih1", "a.wih1"])
            want = [wai.decode(open(f, "rb").read(), set=full).outputs[0].array for f in ds.files]
            for i, w in enumerate(want):
                x = ds[i]
                self.assertEqual(x.dtype, torch.uint8)
                self.assertTrue(np.array_equal(x.permute(1, 2, 0).numpy(), w))
            hwc = PayloadFolder(d, set=full, layout="hwc", crop=(100, 200))
            self.assertTrue(np.array_equal(hwc[1].numpy(), want[1][:100, :200]))
            # Two worker processes, each with its decoder: the same tensors.
            loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
            for i, x in enumerate(loader):
                self.assertTrue(np.array_equal(x.permute(1, 2, 0).numpy(), want[i]))
            # A refused payload names its file.
            with open(os.path.join(d, "sub", "a.wih1"), "r+b") as f:
                f.truncate(100)
            with self.assertRaises(wai.WaiError) as c:
                ds[1]
            self.assertEqual(c.exception.code, "stream_length")
            self.assertIn("a.wih1", str(c.exception))
            with self.assertRaises(FileNotFoundError):
                PayloadFolder(os.path.join(d, "sub"), set=full, suffix=".wiv1")


class Decode(unittest.TestCase):
    def test_image_against_the_set(self):
        d = wai.decode(read("examples/hello.wih1"), set=os.path.join(REPO, "examples/hello_set"))
        self.assertEqual(d.capability, "wai.neural.int_hyper")
        self.assertEqual(len(d.outputs), 1)
        o = d.outputs[0]
        self.assertEqual((o.kind, o.array.dtype, o.array.shape), ("image", np.uint8, (48, 32, 3)))
        self.assertEqual(d.cost["output_bytes"], o.array.size)
        self.assertEqual(d.report["kind"], "wai-neural-dispatch/1")
        self.assertEqual(d.report["ran"]["arithmetic"], "integer")

    def test_every_path_refused_is_not_dispatchable(self):
        set_dir = os.path.join(REPO, "examples/hello_set")
        payload = read("examples/hello.wih1")
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=set_dir, offer="npu,wgsl")
        e = c.exception
        self.assertEqual(e.code, "not_dispatchable")
        self.assertIsNone(e.report["ran"])
        self.assertEqual([(r["unit"], r["backend"], r["reason"]) for r in e.report["refused"]],
                         [("npu", "model-runtime", "dispatch_tier_refused"),
                          ("gpu", "wgsl", "dispatch_unit_absent")])
        # The integer path offered after them runs; an offer as a list.
        d = wai.decode(payload, set=set_dir, offer=["npu", "int"])
        self.assertEqual(d.report["ran"]["backend"], "wai-ops")
        self.assertEqual(d.report["refused"][0]["reason"], "dispatch_tier_refused")
        # intent replicate keeps decode-equivalence, which the integer path holds.
        d = wai.decode(payload, set=set_dir, intent="replicate", pin_tier="decode-equivalence")
        self.assertEqual(d.report["needed"], "decode-equivalence")
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=set_dir, offer="tpu")
        self.assertEqual(c.exception.code, "invalid_argument")

    def test_route(self):
        set_dir = os.path.join(REPO, "examples/hello_set")
        image, clip = read("examples/hello.wih1"), read("examples/hello.wiv1")
        fallback = {"payload": clip, "capability": "wai.video.int_motion"}
        # set_incomplete routes to the fallback.
        d = wai.route([{"payload": image}, fallback])
        self.assertEqual(d.route, [("wai.neural.int_hyper", "set_incomplete"),
                                   ("wai.video.int_motion", "ok")])
        self.assertEqual((d.capability, len(d.outputs)), ("wai.video.int_motion", 3))
        # not_dispatchable routes; the first candidate's report is gone with it.
        d = wai.route([{"payload": image, "set": set_dir, "offer": "npu"}, fallback])
        self.assertEqual(d.route[0], ("wai.neural.int_hyper", "not_dispatchable"))
        # The first that decodes ends the route.
        d = wai.route([{"payload": image, "set": set_dir}, fallback])
        self.assertEqual(d.route, [("wai.neural.int_hyper", "ok")])
        self.assertEqual(d.report["ran"]["backend"], "wai-ops")
        # A payload refusal is final: no fallback tried.
        with self.assertRaises(wai.WaiError) as c:
            wai.route([{"payload": image[:200], "set": set_dir}, fallback])
        self.assertEqual(c.exception.code, "stream_length")
        self.assertEqual(c.exception.route, [("wai.neural.int_hyper", "stream_length")])
        # cost_over_limit on every candidate: the last one's code.
        with self.assertRaises(wai.WaiError) as c:
            wai.route([{"payload": image, "set": set_dir}, fallback], max_cost=1)
        self.assertEqual(c.exception.route, [("wai.neural.int_hyper", "cost_over_limit"),
                                             ("wai.video.int_motion", "cost_over_limit")])

    def test_pins_hold_every_file(self):
        """docs/spec-readings.md, L5a, from a folder as the tool reads one:
        each kind of shipped set (bmshj2018's with its float programs, the
        hyperprior's with its analysis networks, a one-file set pinned
        form-less) under its pin, each of its files altered, removed,
        renamed, and replaced by a link out of the folder (the same bytes),
        is set_incomplete; a file no listing names is never read; a file a
        path reads, left out of the listing, is refused."""
        import shutil
        import tempfile
        kinds = [("examples/bmshj2018/sets/q3", "examples/bmshj2018/chelsea.b18f", "decoder.f32"),
                 ("examples/hyperprior/sets/q3", "examples/hyperprior/chelsea.wih1", "h_s.whm"),
                 ("tests/corpus/neural/splat/set0", "tests/corpus/neural/splat/attrs0.wis1", None)]
        for rel, payload_rel, read_by_a_path in kinds:
            shipped = os.path.join(REPO, rel)
            payload = read(payload_rel)
            if os.path.exists(os.path.join(shipped, "listing.json")):
                pin = wai.set_pin(shipped)
                with open(os.path.join(shipped, "listing.json"), "rb") as f:
                    self.assertEqual(hashlib.sha256(f.read()).hexdigest(), pin)
            else:  # one file: form-less
                (only,) = os.listdir(shipped)
                pin = hashlib.sha256(read(os.path.join(rel, only))).hexdigest()
            with tempfile.TemporaryDirectory() as tmp:
                d = os.path.join(tmp, "set")

                def fresh():
                    shutil.rmtree(d, ignore_errors=True)
                    shutil.copytree(shipped, d)

                def refused(what):
                    with self.assertRaises(wai.WaiError, msg=f"{rel}: {what}") as c:
                        wai.decode(payload, set=d, pin=pin)
                    self.assertEqual(c.exception.code, "set_incomplete", f"{rel}: {what}")

                fresh()
                self.assertTrue(wai.decode(payload, set=d, pin=pin).outputs, rel)
                # A stray file no listing names is not read: the decode is the same.
                with open(os.path.join(d, "notes.txt"), "w") as f:
                    f.write("not part of the set")
                self.assertTrue(wai.decode(payload, set=d, pin=pin).outputs, rel)
                for name in sorted(os.listdir(shipped)):
                    fresh()
                    p = os.path.join(d, name)
                    with open(p, "r+b") as f:
                        f.seek(os.path.getsize(p) // 2)
                        b = f.read(1)
                        f.seek(-1, 1)
                        f.write(bytes([b[0] ^ 1]))
                    refused(f"{name} altered")
                    fresh()
                    os.remove(p)
                    refused(f"{name} removed")
                    fresh()
                    os.rename(p, p + ".renamed")
                    refused(f"{name} renamed")
                    fresh()
                    outside = os.path.join(tmp, name)
                    shutil.move(p, outside)
                    os.symlink(outside, p)
                    refused(f"{name} a link out of the folder")
                    os.remove(outside)
                if read_by_a_path:
                    # Read by a path and left out of the listing.
                    fresh()
                    os.rename(os.path.join(d, read_by_a_path), os.path.join(tmp, "aside"))
                    other = wai.write_listing(d)
                    os.rename(os.path.join(tmp, "aside"), os.path.join(d, read_by_a_path))
                    with self.assertRaises(wai.WaiError) as c:
                        wai.decode(payload, set=d, pin=other)
                    self.assertEqual(c.exception.code, "set_incomplete", rel)

    def test_pin_states_its_tier(self):
        """L5b: a pin's ":tier=decode-equivalence" is the decode's pin_tier:
        bmshj2018 has no path left; pin_tier may repeat it, not contradict it."""
        b = os.path.join(REPO, "examples/bmshj2018/sets/q3")
        payload = read("examples/bmshj2018/chelsea.b18f")
        pin = wai.set_pin(b)
        self.assertEqual(wai.decode(payload, set=b, pin=pin).report["needed"], "none")
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=b, pin=pin + ":tier=decode-equivalence")
        self.assertEqual(c.exception.code, "not_dispatchable")
        self.assertEqual(c.exception.report["needed"], "decode-equivalence")
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=b, pin=pin + ":tier=decode-equivalence",
                       pin_tier="decode-equivalence")
        self.assertEqual(c.exception.code, "not_dispatchable")
        for bad in (pin + ":tier=x y", pin + ":tiers=x", pin[:-1]):
            with self.assertRaises(ValueError):
                wai.decode(payload, set=b, pin=bad)
        with self.assertRaises(ValueError):
            wai.decode(payload, set=b, pin=pin + ":tier=decode-equivalence", pin_tier="none")
        # A route: the fallback's own pin, the primary's tier not its.
        h = os.path.join(REPO, "examples/hyperprior/sets/q3")
        d = wai.route([{"payload": payload, "set": b, "pin": pin + ":tier=decode-equivalence"},
                       {"payload": read("examples/hyperprior/chelsea.wih1"), "set": h,
                        "pin": wai.set_pin(h)}])
        self.assertEqual(d.route, [("wai.neural.bmshj2018", "not_dispatchable"),
                                   ("wai.neural.int_hyper", "ok")])

    def test_pin_through_the_listing(self):
        set_dir = os.path.join(REPO, "examples/hello_set")
        payload = read("examples/hello.wih1")
        members = {n: read(os.path.join("examples/hello_set", n)) for n in os.listdir(set_dir)
                   if n != "listing.json"}
        listing = wai.set_listing(members)
        self.assertTrue(listing.startswith(b'{"kind":"wai.prior.set","members":[{"name":"entropy.json"'))
        pin = wai.set_pin(members)
        tool = os.environ.get("WAI_TOOL")
        if tool:  # the tool's listing is the module's
            out = subprocess.run([tool, "set", "list", set_dir], capture_output=True, check=True)
            self.assertEqual(out.stdout, listing)
        # Several files, no listing: the pin does not resolve.
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=members, pin=pin)
        self.assertEqual(c.exception.code, "set_incomplete")
        listed = dict(members, **{"listing.json": listing})
        d = wai.decode(payload, set=listed, pin=pin)
        self.assertEqual(d.outputs[0].kind, "image")
        self.assertEqual(wai.set_pin(listed), pin)  # the listing leaves itself out
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=listed, pin="00" + pin[2:] if pin[:2] != "00" else "11" + pin[2:])
        self.assertEqual(c.exception.code, "set_incomplete")
        # Check 5 without a pin: a file read that is not the file listed.
        changed = dict(listed, **{"h_s.whm": members["h_s.whm"] + b"x"})
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(payload, set=changed)
        self.assertEqual(c.exception.code, "set_incomplete")
        with self.assertRaises(ValueError):
            wai.decode(payload, set=listed, pin="abc")

    def test_set_as_a_mapping_and_threads(self):
        set_dir = os.path.join(REPO, "examples/hello_set")
        members = {n: read(os.path.join("examples/hello_set", n)) for n in os.listdir(set_dir)}
        a = wai.decode(read("examples/hello.wih1"), set=members, threads=1)
        b = wai.decode(read("examples/hello.wih1"), set=set_dir, threads=3)
        self.assertTrue(np.array_equal(a.outputs[0].array, b.outputs[0].array))

    def test_cpu_level_cap(self):
        # Every level gives the same bytes; a cap holds the kernels to it.
        set_dir = os.path.join(REPO, "examples/hello_set")
        host = wai.decode(read("examples/hello.wih1"), set=set_dir)
        with wai.Decoder(set=set_dir, cpu_level="portable") as d:
            self.assertEqual(d.cpu_level, "portable")
            out = d.send(read("examples/hello.wih1"))
        self.assertTrue(np.array_equal(out[0].array, host.outputs[0].array))
        with wai.Decoder() as d:
            self.assertIn(d.cpu_level, ("portable", "avx2", "avx512", "avx512bw", "avx512vnni"))
        with self.assertRaises(ValueError):
            wai.decode(read("examples/hello.wiv1"), cpu_level="sse9")

    def test_clip_frames(self):
        d = wai.decode(read("examples/hello.wiv1"))
        self.assertEqual([o.index for o in d.outputs], [0, 1, 2])
        self.assertTrue(all(o.kind == "frame" and o.array.shape == (16, 24, 3) for o in d.outputs))

    @unittest.skipUnless(os.environ.get("WAI_TOOL"), "WAI_TOOL not set")
    def test_same_bytes_as_the_tool(self):
        for payload, extra in (("examples/hello.wiv1", []),
                               ("examples/hello.wih1", ["--set", "examples/hello_set"])):
            out = subprocess.run([os.environ["WAI_TOOL"], "decode", "--json", *extra, payload],
                                 cwd=REPO, capture_output=True, check=True, text=True).stdout
            want = [o["sha256"] for o in json.loads(out)["outputs"]]
            d = wai.decode(read(payload), set=os.path.join(REPO, extra[1]) if extra else None)
            got = [hashlib.sha256(o.array.tobytes()).hexdigest() for o in d.outputs]
            self.assertEqual(got, want, payload)


class Threads(unittest.TestCase):
    """A Decoder shared by threads takes turns (docs/python.md): every
    result is the thread's own, and each thread's .cost is its own send's."""

    CLIPS = [f"tests/corpus/motion/valid/clip{i:02d}.wiv1" for i in range(4)]

    def run_threads(self, decoders, rounds=25):
        import threading
        clips = [read(c) for c in self.CLIPS]
        want = [[hashlib.sha256(o.array.tobytes()).hexdigest() for o in wai.decode(c).outputs]
                for c in clips]
        wrong, errors = [], []

        def worker(k):
            d = decoders[k % len(decoders)]
            try:
                for _ in range(rounds):
                    out = d.send(clips[k])
                    got = [hashlib.sha256(o.array.tobytes()).hexdigest() for o in out]
                    size = sum(o.array.nbytes for o in out)
                    if got != want[k] or d.cost["output_bytes"] != size:
                        wrong.append((k, len(got), len(want[k])))
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(wrong, [])

    def test_four_threads_on_one_decoder(self):
        with wai.Decoder() as d:
            self.run_threads([d])

    def test_four_threads_on_four_decoders(self):
        ds = [wai.Decoder() for _ in range(4)]
        try:
            self.run_threads(ds)
        finally:
            for d in ds:
                d.close()

    def test_send_after_close(self):
        d = wai.Decoder()
        d.close()
        with self.assertRaises(ValueError):
            d.send(read("examples/hello.wiv1"))


class Frames(unittest.TestCase):
    """Decoder.frames: a clip streamed a frame at a time."""

    def test_the_frames_of_decode(self):
        clip = read("tests/corpus/motion/valid/clip03.wiv1")
        with wai.Decoder() as d:
            got = [o.array for o in d.frames(clip)]
            want = [o.array for o in d.send(clip)]
        self.assertEqual(len(got), len(want))
        self.assertTrue(all(np.array_equal(a, b) for a, b in zip(got, want)))

    def test_from_a_start(self):
        # Every start and count against the full decode's frames, for a
        # motion clip, a keyframe-1 clip and a WIC1 (each with its set).
        cases = [("tests/corpus/motion/valid/clip03.wiv1", None),
                 ("tests/corpus/neural/video/clip0.wiv1", "tests/corpus/neural/hyper/set0"),
                 ("tests/corpus/neural/cond/valid/six_frames/clip.wic1",
                  "tests/corpus/neural/cond/valid/six_frames")]
        for path, set_dir in cases:
            clip = read(path)
            with wai.Decoder(set=os.path.join(REPO, set_dir) if set_dir else None) as d:
                want = d.send(clip)
                n = len(want)
                self.assertEqual(wai.inspect(clip)["outputs"], n)
                for start in range(n + 2):
                    for count in (None, 0, 1, 2):
                        got = list(d.frames(clip, start=start, count=count))
                        end = n if count is None else min(n, start + count)
                        self.assertEqual([o.index for o in got], list(range(start, end)), path)
                        self.assertTrue(all(np.array_equal(g.array, want[g.index].array)
                                            for g in got), path)
        with self.assertRaises(ValueError):
            list(wai.Decoder().frames(read("examples/hello.wiv1"), start=-1))

    def test_a_refusal_after_its_frames(self):
        bad = read("tests/corpus/motion/refuse/stream_exhausted.wiv1")
        seen = []
        with self.assertRaises(wai.WaiError) as c:
            for o in wai.Decoder().frames(bad):
                seen.append(o.index)
        self.assertEqual(c.exception.code, "stream_exhausted")
        self.assertEqual(seen, [0, 1])
        with self.assertRaises(wai.WaiError):
            wai.decode(bad)  # send keeps §8: nothing out of a refused clip


class Errors(unittest.TestCase):
    def assertCode(self, code, fn, *a, **k):
        with self.assertRaises(wai.WaiError) as e:
            fn(*a, **k)
        self.assertEqual(e.exception.code, code)

    def test_the_spec_codes(self):
        clip = read("examples/hello.wiv1")
        self.assertCode("cost_over_limit", wai.decode, clip, max_cost=10)
        self.assertCode("cost_over_limit", wai.decode, clip, max_memory=100)
        self.assertCode("bad_magic", wai.decode, b"NOPE" + clip[4:])
        self.assertCode("set_incomplete", wai.decode, read("examples/hello.wih1"))
        self.assertCode("stream_length", wai.decode, clip[:40])
        # Asked of a payload without decoding it: the library's codes.
        self.assertCode("unsupported_capability", wai.inspect, clip, capability="wai.video.nope")
        self.assertCode("bad_magic", wai.inspect, b"NOPE" + clip[4:])

    def test_each_code_says_what_it_means(self):
        # The one table in C: the module prints what the tool prints.
        with self.assertRaises(wai.WaiError) as c:
            wai.decode(read("examples/hello.wih1"))
        e = c.exception
        self.assertEqual(e.meaning, "the parameter set lacks a file this decode reads, or a file differs from its listing or pin")
        self.assertIn(f"set_incomplete ({e.meaning})", str(e))
        self.assertEqual(wai.status_meaning("set_incomplete"), e.meaning)
        self.assertEqual(wai.status_meaning("no_such_code"), "")
        tool = os.environ.get("WAI_TOOL")
        if tool:
            r = subprocess.run([tool, "decode", os.path.join(REPO, "examples/hello.wih1")],
                               capture_output=True, text=True)
            self.assertIn(f"refused: set_incomplete ({e.meaning})", r.stderr)

    def test_the_conformance_corpus(self):
        """Every decode case of tests/corpus/index.txt (MODE CAPABILITY
        STATUS MAXCOST FILES HASHES [SET [OFFER]]): the files sent in order
        through one Decoder (with the dispatch offer where there is one),
        the first refusal's code (or ok) and the SHA-256 of each output
        before it."""
        root = os.path.join(REPO, "tests/corpus")
        checked = 0
        with open(os.path.join(root, "index.txt")) as f:
            lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
        for mode, cap, status, maxcost, files, hashes, *rest in lines:
            if mode != "decode":
                continue
            set_dir = os.path.join(root, rest[0]) if rest and rest[0] != "-" else None
            offer = rest[1] if len(rest) > 1 else None
            got_status, got_hashes = "ok", []
            try:
                with wai.Decoder(cap, set_dir, None if maxcost == "-" else int(maxcost),
                                 offer=offer) as d:
                    for name in files.split(","):
                        with open(os.path.join(root, name), "rb") as g:
                            for o in d.send(g.read()):
                                got_hashes.append(hashlib.sha256(o.array.tobytes()).hexdigest())
            except wai.WaiError as e:
                got_status = e.code
            self.assertEqual(got_status, status, files)
            self.assertEqual(",".join(got_hashes) or "-", hashes, files)
            checked += 1
        self.assertGreater(checked, 200)
        print(f"  ({checked} corpus cases)", file=sys.stderr)


class Inspect(unittest.TestCase):
    def test_header_and_cost(self):
        i = wai.inspect(read("examples/hello.wiv1"))
        self.assertEqual(i["capability"], "wai.video.int_motion")
        self.assertEqual((i["header"]["h"], i["header"]["w"], i["header"]["n_frames"]), (16, 24, 3))
        self.assertEqual(i["cost"]["output_bytes"], 3 * 16 * 24 * 3)
        j = wai.inspect(read("examples/hello.wih1"), set=os.path.join(REPO, "examples/hello_set"))
        self.assertEqual(j["capability"], "wai.neural.int_hyper")
        self.assertIn("macs", j["cost"])
        self.assertEqual(wai.inspect(read("examples/hello.wih1"))["cost_status"], "set_incomplete")


class Rans(unittest.TestCase):
    def test_round_trip_several_tables(self):
        rng = np.random.default_rng(7)
        t0 = ([0, 20000, 45000, 60000, 65536], -3)
        t1 = ([0, 1, 65535, 65536], 100)
        table_of = rng.integers(0, 2, 5000).astype(np.uint32)
        base = np.where(table_of == 0, -3, 100)
        sym = (base + rng.integers(0, 6, 5000) - np.where(rng.random(5000) < 0.01, 1000, 0))
        stream = wai.rans_encode(sym, [t0, t1], table_of)
        back = wai.rans_decode(stream, sym.size, [t0, t1], table_of)
        self.assertTrue(np.array_equal(back, sym.astype(np.int32)))

    def test_refusals(self):
        t = ([0, 20000, 45000, 60000, 65536], 0)
        stream = wai.rans_encode([0, 1, 2, 3], [t])
        with self.assertRaises(wai.WaiError) as e:
            wai.rans_decode(stream, 3, [t])
        self.assertEqual(e.exception.code, "stream_noncanonical")
        with self.assertRaises(wai.WaiError) as e:
            wai.rans_encode([0], [([0, 5, 5, 65536], 0)])
        self.assertEqual(e.exception.code, "cdf_malformed")


if __name__ == "__main__":
    unittest.main()
