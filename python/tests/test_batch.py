# SPDX-License-Identifier: BSD-2-Clause
"""wai.batch on a LocalCluster (Debian's python3-distributed; skipped
without it): the results are wai.decode's, one a file in order; a worker
killed mid-run loses nothing and counts nothing twice."""
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import unittest

import wai

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(REPO, "tests", "corpus")

try:
    import distributed  # noqa: F401
    import wai.batch
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False


def expected(path, set_dir=None):
    try:
        with open(path, "rb") as f:
            d = wai.decode(f.read(), set=set_dir)
        return "ok", [hashlib.sha256(o.array.tobytes()).hexdigest() for o in d.outputs]
    except wai.WaiError as e:
        return e.code, []


@unittest.skipUnless(HAVE_DASK, "no python3-distributed")
class Batch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = wai.batch.local_client(2)

    @classmethod
    def tearDownClass(cls):
        cluster = cls.client.cluster
        cls.client.close()
        cluster.close()

    def test_results_are_the_decodes(self):
        paths = [os.path.join(CORPUS, "motion", "valid", f"clip0{i}.wiv1") for i in range(5)]
        paths += [os.path.join(CORPUS, "motion", "refuse", "stream_exhausted.wiv1"),
                  os.path.join(REPO, "examples", "hello.wiv1"),
                  os.path.join(REPO, "examples", "hello_set", "entropy.json"),
                  os.path.join(REPO, "no-such-file.wiv1")]
        got = wai.batch.decode(paths, client=self.client)
        self.assertEqual([r.path for r in got], paths)
        for r in got[:-2]:
            self.assertEqual((r.status, r.sha256), expected(r.path), r.path)
        self.assertEqual(got[-2].status, "bad_magic")
        self.assertEqual(got[-1].status, "io_error")
        # A set each worker loads once: the hyperprior's pictures.
        hyper = os.path.join(REPO, "examples", "hyperprior")
        pics = [os.path.join(hyper, n) for n in ("chelsea.wih1", "coffee.wih1")] * 3
        got = wai.batch.decode(pics, set=os.path.join(hyper, "sets", "q3"), client=self.client)
        want = expected(pics[0], os.path.join(hyper, "sets", "q3"))
        self.assertEqual((got[0].status, got[0].sha256), want)
        self.assertEqual(len({r.worker for r in got}) >= 1, True)

    def test_chunks_keep_the_order(self):
        src = [os.path.join(CORPUS, "motion", "valid", f"clip0{i}.wiv1") for i in range(5)]
        paths = [src[i % 5] for i in range(23)] + [os.path.join(REPO, "no-such-file.wiv1")]
        for chunk in (1, 3, 7, 100):
            got = wai.batch.decode(paths, client=self.client, chunk=chunk)
            self.assertEqual([r.path for r in got], paths, chunk)
            self.assertEqual([r.status for r in got], ["ok"] * 23 + ["io_error"], chunk)

    def test_workers_keep_their_working_memory(self):
        # Dask's default MALLOC_TRIM_THRESHOLD_=65536 nearly doubles a small decode's time.
        if "MALLOC_TRIM_THRESHOLD_" in os.environ:
            self.skipTest("MALLOC_TRIM_THRESHOLD_ is set in this environment (kept, as documented)")
        got = self.client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
        self.assertEqual(set(got.values()), {None}, got)

    @unittest.skipUnless(os.environ.get("WAI_TOOL"), "no WAI_TOOL")
    def test_receipts_verified(self):
        r = os.path.join(CORPUS, "receipts")
        cases = []  # (receipt, payload, exit status) of the fixtures with a clip or nothing
        with open(os.path.join(r, "index.txt")) as f:
            for line in f:
                p = line.split()
                if len(p) >= 5 and p[4] in ("clip", "-") and not line.startswith("#"):
                    cases.append((os.path.join(r, p[0]),
                                  os.path.join(r, "clip.wiv1") if p[4] == "clip" else None, int(p[1])))
        probe = subprocess.run([os.environ["WAI_TOOL"], "receipt", "verify", cases[0][0]],
                               capture_output=True, text=True)
        if "libsodium" in probe.stderr:
            self.skipTest("the tool was built without libsodium")
        got = wai.batch.verify([c[0] for c in cases], [c[1] for c in cases], client=self.client)
        self.assertEqual(len(got), len(cases))
        for (rec, _, want), g in zip(cases, got):
            self.assertEqual(g.status, "ok" if want == 0 else "refused", (rec, g.detail))
        self.assertIn("ok", {g.status for g in got})
        self.assertIn("refused", {g.status for g in got})

    def test_a_worker_killed_mid_run(self):
        src = [os.path.join(CORPUS, "motion", "valid", f"clip0{i}.wiv1") for i in range(5)]
        src.append(os.path.join(CORPUS, "motion", "refuse", "stream_exhausted.wiv1"))
        want = {s: expected(s) for s in src}
        tmp = tempfile.mkdtemp()
        try:
            paths, origin = [], {}
            for i in range(200):  # 200 distinct files
                p = os.path.join(tmp, f"p{i:03d}.wiv1")
                shutil.copy(src[i % len(src)], p)
                paths.append(p)
                origin[p] = src[i % len(src)]
            # Each decode a little slow, so the run is under way when a worker dies.
            pids = self.client.run(os.getpid)
            victim = sorted(pids.values())[0]
            killer = threading.Timer(1.0, lambda: os.kill(victim, signal.SIGKILL))
            killer.start()
            got = _slow_decode(paths, self.client)
            killer.join()
            self.assertEqual(len(got), 200)
            self.assertEqual([r.path for r in got], paths)
            for r in got:
                self.assertEqual((r.status, r.sha256), want[origin[r.path]], r.path)
            workers = {r.worker for r in got}
            self.assertGreaterEqual(len(workers), 2, "the killed worker's tasks ran elsewhere")
        finally:
            shutil.rmtree(tmp)


# The workers cannot import this file: its functions travel by value.
if HAVE_DASK:
    import sys
    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _slow(path, *rest):
    time.sleep(0.02)
    return wai.batch._decode_task(path, *rest)


def _slow_decode(paths, client):
    items = [(p, None, None, None, None, 1) for p in paths]
    return wai.batch._run(_slow, items, client, None, None, 3)


if __name__ == "__main__":
    unittest.main()
