# SPDX-License-Identifier: BSD-2-Clause
"""Issue 58 (items 1 and 2): one memory limit, applied before a byte is
read, and a batch that loses nothing. A set is read by name, each member
once, within max_memory (a stray 3 GiB file in its folder is never read; a
member past the limit is refused unread); wai.batch (a LocalCluster of 2,
skipped without python3-distributed) gives every path its own status
within its time: a FIFO, /dev/zero, a folder, a missing and an empty file
beside good pictures, a file that kills its worker, one that never ends."""
import hashlib
import inspect
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import wai

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HYPER = os.path.join(REPO, "examples", "hyperprior")
Q3 = os.path.join(HYPER, "sets", "q3")
CHELSEA = os.path.join(HYPER, "chelsea.wih1")
COFFEE = os.path.join(HYPER, "coffee.wih1")
HELLO = os.path.join(REPO, "examples", "hello.wiv1")
GIB3 = 3 << 30
TIMEOUT = 20.0   # seconds a file: far past what a good one takes here

try:
    import distributed  # noqa: F401
    import wai.batch
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False


def read(path):
    with open(path, "rb") as f:
        return f.read()


def expected(path, set_dir=None):
    """(status, digests) as a direct wai.decode gives them."""
    try:
        d = wai.decode(read(path), set=set_dir)
        return "ok", [hashlib.sha256(o.array.tobytes()).hexdigest() for o in d.outputs]
    except wai.WaiError as e:
        return e.code, []


def sparse(path, size=GIB3):
    """A file of size bytes that takes no disk: what a reader would hold."""
    if os.path.exists(path):
        os.remove(path)
    with open(path, "wb") as f:
        f.truncate(size)


def set_copy(tmp):
    """A copy of the q3 set in tmp, to add strays and faults to."""
    d = os.path.join(tmp, "q3")
    shutil.copytree(Q3, d)
    return d


# A child process decodes, so its own peak RSS is the decode's alone.
CHILD = r"""
import hashlib, json, resource, sys
import wai
set_dir, picture = sys.argv[1], sys.argv[2]
out = {}
try:
    d = wai.decode(open(picture, "rb").read(), set=set_dir)
    out["sha256"] = [hashlib.sha256(o.array.tobytes()).hexdigest() for o in d.outputs]
except wai.WaiError as e:
    out["code"], out["message"] = e.code, str(e)
try:
    wai.Decoder(set=set_dir, max_memory=None).close()   # None: the default, not no limit
    out["none"] = "ok"
except wai.WaiError as e:
    out["none"] = e.code
try:
    wai.set_listing(set_dir)   # every file of the folder, within the default limit
    out["listing"] = "ok"
except wai.WaiError as e:
    out["listing"] = e.code
out["maxrss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(out))
"""


def in_child(set_dir, picture=CHELSEA):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(wai.__file__)))
    r = subprocess.run([sys.executable, "-c", CHILD, set_dir, picture], capture_output=True,
                       text=True, timeout=60, env=env)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return json.loads(r.stdout)


class OneLimit(unittest.TestCase):
    """Item 1: the set reader and the default limit."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_the_default_is_the_tools(self):
        with open(os.path.join(REPO, "tools", "wai", "cli.h")) as f:
            m = re.search(r"#define CLI_DEFAULT_MAX_MEMORY \(\(uint64_t\)(\d+) << (\d+)\)", f.read())
        self.assertEqual(wai.DEFAULT_MAX_MEMORY, int(m.group(1)) << int(m.group(2)))
        self.assertEqual(wai.DEFAULT_MAX_MEMORY, 2 << 30)
        takers = [wai.decode, wai.Decoder, wai.route, wai.set_listing, wai.set_pin,
                  wai.write_listing, wai.inspect, wai.encode_image]
        takers += [wai.batch.decode] if HAVE_DASK else []
        for fn in takers:
            self.assertEqual(inspect.signature(fn).parameters["max_memory"].default,
                             wai.DEFAULT_MAX_MEMORY, fn.__name__)

    def test_a_stray_file_is_never_read(self):
        d = set_copy(self.tmp)
        sparse(os.path.join(d, "stray.bin"))
        got = in_child(d)
        self.assertEqual((got.get("sha256"), got["none"]), (expected(CHELSEA, Q3)[1], "ok"), got)
        self.assertLess(got["maxrss_kb"], 200 * 1024, "peak RSS of a decode beside a 3 GiB stray")
        # Every file of the folder (a listing): the stray is past 2 GiB, refused unread.
        self.assertEqual(got["listing"], "cost_over_limit")

    def test_a_member_past_the_limit_is_refused_unread(self):
        d = set_copy(self.tmp)
        sparse(os.path.join(d, "g_s.whm"))   # a member the decode reads
        got = in_child(d)
        self.assertEqual((got.get("code"), got["none"]), ("cost_over_limit",) * 2, got)
        self.assertIn("g_s.whm", got["message"])
        self.assertIn(f"{GIB3} bytes", got["message"])
        self.assertLess(got["maxrss_kb"], 200 * 1024, "the 3 GiB member was read")
        # A real member past a small limit: named, with its size.
        with self.assertRaises(wai.WaiError) as c:
            wai.Decoder(set=Q3, max_memory=1000000)
        self.assertEqual(c.exception.code, "cost_over_limit")
        size = os.path.getsize(os.path.join(Q3, "analysis.f32"))
        self.assertIn(f"analysis.f32: {size} bytes", str(c.exception))
        # NO_LIMIT lifts the limit.
        with wai.Decoder(set=Q3, max_memory=wai.NO_LIMIT) as dec:
            self.assertEqual(len(dec.send(read(CHELSEA))), 1)

    def test_each_member_read_once(self):
        reads = []
        real = wai._read_file

        def counted(path, room):
            data = real(path, room)   # a name that is not there raises: no read
            reads.append(os.path.basename(path))
            return data
        wai._read_file = counted
        try:
            with wai.Decoder(set=Q3) as dec:
                dec.send(read(CHELSEA))
                list(dec.frames(read(CHELSEA)))   # a streaming decoder of its own: no new read
        finally:
            wai._read_file = real
        self.assertEqual(sorted(reads), sorted(set(reads)), reads)
        self.assertEqual(set(reads), set(os.listdir(Q3)), "the listed members, each once")

    def test_a_fifo_member_never_blocks(self):
        d = set_copy(self.tmp)
        os.remove(os.path.join(d, "h_s.whm"))
        os.mkfifo(os.path.join(d, "h_s.whm"))
        # In a child: a blocking open would hang it, not this suite.
        got = in_child(d)
        self.assertEqual(got.get("code"), "set_incomplete", got)

    def test_a_route_moves_on_past_a_set_over_the_limit(self):
        fallback = {"payload": read(HELLO), "capability": "wai.video.int_motion"}
        d = wai.route([{"payload": read(CHELSEA), "set": Q3}, fallback], max_memory=1000000)
        self.assertEqual(d.route, [("wai.neural.int_hyper", "cost_over_limit"),
                                   ("wai.video.int_motion", "ok")])
        with self.assertRaises(wai.WaiError) as c:
            wai.route([{"payload": read(CHELSEA), "set": Q3}], max_memory=1000000)
        self.assertEqual(c.exception.route, [("wai.neural.int_hyper", "cost_over_limit")])


@unittest.skipUnless(HAVE_DASK, "no python3-distributed")
class BatchFaults(unittest.TestCase):
    """Item 2, on one LocalCluster of 2 workers."""

    @classmethod
    def setUpClass(cls):
        cls.client = wai.batch.local_client(2)
        cls.tmp = tempfile.mkdtemp()
        cls.fifo = os.path.join(cls.tmp, "fifo.wih1")
        os.mkfifo(cls.fifo)
        cls.empty = os.path.join(cls.tmp, "empty.wih1")
        open(cls.empty, "wb").close()
        cls.folder = os.path.join(cls.tmp, "folder.wih1")
        os.mkdir(cls.folder)
        cls.missing = os.path.join(cls.tmp, "missing.wih1")

    @classmethod
    def tearDownClass(cls):
        cluster = cls.client.cluster
        cls.client.close()
        cluster.close()
        shutil.rmtree(cls.tmp)

    def assertGood(self, r):
        self.assertEqual((r.status, r.sha256), expected(r.path, Q3), (r.path, r.detail))

    def test_each_bad_path_its_own_status(self):
        paths = [CHELSEA, self.fifo, HELLO, "/dev/zero", COFFEE, self.folder, self.missing,
                 CHELSEA, self.empty, HELLO]
        t = time.monotonic()
        got = wai.batch.decode(paths, set=Q3, client=self.client, chunk=3, timeout=TIMEOUT)
        self.assertLess(time.monotonic() - t, TIMEOUT)
        self.assertEqual([r.path for r in got], paths)
        self.assertEqual({r.timeout for r in got}, {TIMEOUT})
        by = dict(zip(paths, got))
        for p in (CHELSEA, HELLO, COFFEE):
            self.assertGood(by[p])
        for p, kind in ((self.fifo, "a FIFO"), ("/dev/zero", "a character device"),
                        (self.folder, "a directory")):
            self.assertEqual((by[p].status, by[p].detail), ("not_regular_file",
                             f"{kind}, not a regular file: not read"), p)
        self.assertEqual((by[self.missing].status, by[self.missing].detail),
                         ("io_error", os.strerror(2)))
        with self.assertRaises(wai.WaiError) as c:
            wai.Decoder().send(b"")
        self.assertEqual(by[self.empty].status, c.exception.code)

    def test_a_file_past_max_memory_is_refused_unread(self):
        got = wai.batch.decode([HELLO, CHELSEA], client=self.client, max_memory=5000,
                               timeout=TIMEOUT)
        self.assertEqual(got[0].status, "cost_over_limit")
        self.assertIn(f"{os.path.getsize(HELLO)} bytes", got[0].detail)
        # Under the limit: read, and the decode's own answer (its declared memory).
        try:
            wai.decode(read(CHELSEA), max_memory=5000)
            want = "ok"
        except wai.WaiError as e:
            want = e.code
        self.assertEqual(got[1].status, want, got[1].detail)

    def test_a_worker_killed_by_its_own_file(self):
        poison = os.path.join(self.tmp, "poison.wiv1")
        shutil.copy(HELLO, poison)
        paths = [CHELSEA, HELLO, poison, COFFEE, HELLO, CHELSEA]
        items = wai.batch._decode_items(paths, Q3, None, None, wai.DEFAULT_MAX_MEMORY, 1)
        got = wai.batch._run(_deadly, items, self.client, None, None, 0, chunk=3,
                             timeout=TIMEOUT)
        self.assertEqual([r.path for r in got], paths)
        self.assertEqual(got[2].status, "worker_lost", got[2].detail)
        self.assertIn("KilledWorker", got[2].detail)
        for r in got[:2] + got[3:]:   # the killer's chunk-mates too
            self.assertGood(r)

    def test_a_file_past_its_time(self):
        slow = os.path.join(self.tmp, "slow.wiv1")
        shutil.copy(HELLO, slow)
        paths = [HELLO, slow, CHELSEA, COFFEE]
        items = wai.batch._decode_items(paths, Q3, None, None, wai.DEFAULT_MAX_MEMORY, 1)
        limit = 2.0
        t = time.monotonic()
        got = wai.batch._run(_sleepy, items, self.client, None, None, 0, chunk=2, timeout=limit)
        # The pair's 2 x 2 s, then the slow file's own 2 s, and the workers' restarts.
        self.assertLess(time.monotonic() - t, 6 * limit + 10)
        self.assertEqual(got[1].status, "timeout", got[1].detail)
        self.assertIn(f"not done in {limit:g} s a file", got[1].detail)
        for r in (got[0], got[2], got[3]):   # its chunk-mate too
            self.assertGood(r)


# The workers cannot import this file: its functions travel by value.
if HAVE_DASK:
    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _deadly(path, *rest):
    """decode's task, but a file named poison* kills its worker."""
    if os.path.basename(path).startswith("poison"):
        os.kill(os.getpid(), signal.SIGKILL)
    return wai.batch._decode_task(path, *rest)


def _sleepy(path, *rest):
    """decode's task, but a file named slow* takes 30 s (as a hung read;
    long enough to fail the test, short enough not to hang it)."""
    if os.path.basename(path).startswith("slow"):
        time.sleep(30)
    return wai.batch._decode_task(path, *rest)


if __name__ == "__main__":
    unittest.main()
