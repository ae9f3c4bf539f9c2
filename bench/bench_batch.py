#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""wai.batch on Dask (issue 33): payloads a second on 1 and 2 local
workers, on 64 WIH1 pictures, and the per-task overhead against `wai
decode` of the same files.

    WAI_LIBRARY=BUILD/libwai_python.so /usr/bin/python3 bench/bench_batch.py BUILD [--n 64] [--runs 3]

The pictures are 64 different 256 x 256 crops of python3-skimage's
photographs, coded by wai.encode_image with examples/hyperprior/sets/q3. Each
batch runs on a LocalCluster made beforehand (its start is not timed; its
workers' first decode loads the set, which is). The tool's figure is the
same files decoded one `wai decode` process each, in turn. Best of --runs.
With --warm, the workers are not restarted between runs and a first batch
loads the set before the timed ones: the rate of a cluster that is already
up, as a long job sees it."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(repo, "python"))
import wai  # noqa: E402
import wai.batch  # noqa: E402

SET = os.path.join(repo, "examples", "hyperprior", "sets", "q3")


def pictures(n, tmp):
    from PIL import Image
    sk = "/usr/lib/python3/dist-packages/skimage/data"
    srcs = [np.asarray(Image.open(os.path.join(sk, f)).convert("RGB"))
            for f in ("astronaut.png", "chelsea.png", "coffee.png", "rocket.jpg")]
    rng = np.random.default_rng(64)
    paths = []
    for i in range(n):
        a = srcs[i % len(srcs)]
        y, x = rng.integers(0, a.shape[0] - 256), rng.integers(0, a.shape[1] - 256)
        e = wai.encode_image(np.ascontiguousarray(a[y:y + 256, x:x + 256]), set=SET, threads=2)
        p = os.path.join(tmp, f"p{i:02d}.wih1")
        with open(p, "wb") as f:
            f.write(e.payload)
        paths.append(p)
    return paths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warm", action="store_true", help="workers started and their set loaded first")
    a = ap.parse_args()
    tool = os.path.join(a.build, "tools", "wai", "wai")
    with tempfile.TemporaryDirectory() as tmp:
        paths = pictures(a.n, tmp)
        rate = {}
        for workers in (1, 2):
            client = wai.batch.local_client(workers)
            try:
                best = float("inf")
                if a.warm:
                    wai.batch.decode(paths, set=SET, client=client)
                for _ in range(a.runs):
                    if not a.warm:
                        client.restart()  # each run loads the set afresh on every worker
                    t = time.perf_counter()
                    res = wai.batch.decode(paths, set=SET, client=client)
                    best = min(best, time.perf_counter() - t)
                    assert all(r.status == "ok" for r in res), [r.status for r in res]
                rate[workers] = a.n / best
            finally:
                cluster = client.cluster
                client.close()
                cluster.close()
        best = float("inf")
        for _ in range(a.runs):
            t = time.perf_counter()
            for p in paths:
                subprocess.run([tool, "decode", "--threads", "1", "--set", SET, p], check=True,
                               capture_output=True)
            best = min(best, time.perf_counter() - t)
        tool_per = best / a.n
        # In this process, one decoder with the set loaded once: the floor a task adds to.
        best = float("inf")
        with wai.Decoder(set=SET, threads=1) as d:
            d.send(open(paths[0], "rb").read())
            for _ in range(a.runs):
                t = time.perf_counter()
                for p in paths:
                    with open(p, "rb") as f:
                        d.send(f.read())
                best = min(best, time.perf_counter() - t)
        own_per = best / a.n
    per1 = 1 / rate[1]
    print(f"{a.n} WIH1 pictures of 256x256 (examples/hyperprior/sets/q3)"
          + (", workers warm" if a.warm else ", workers restarted before each run"))
    print(f"1 worker:  {rate[1]:.1f} payloads/s ({per1 * 1000:.1f} ms a payload)")
    print(f"2 workers: {rate[2]:.1f} payloads/s: {rate[2] / rate[1]:.2f}x (goal >= 1.8x)")
    print(f"wai decode, a process a file: {tool_per * 1000:.1f} ms a file; a Dask task on 1 worker "
          f"{per1 * 1000:.1f} ms ({(per1 - tool_per) * 1000:+.1f} ms)")
    print(f"one wai.Decoder in this process: {own_per * 1000:.1f} ms a file; Dask adds "
          f"{(per1 - own_per) * 1000:+.1f} ms a file on 1 worker")


if __name__ == "__main__":
    sys.exit(main())
