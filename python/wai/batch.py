# SPDX-License-Identifier: BSD-2-Clause
"""Many payloads decoded (or receipts verified) as Dask tasks.

    import wai.batch
    results = wai.batch.decode(paths, set="examples/hyperprior/sets/q3")       # a LocalCluster
    results = wai.batch.decode(paths, set=..., address="tcp://sched:8786")  # a real scheduler
    for r in results: r.path, r.status, r.sha256, r.worker

Tasks of a few files each, on any distributed.Client: the one given, one made for a
scheduler's address, or a LocalCluster of n_workers processes (one thread
each: libwai's own threads are the `threads` argument). Each worker process
keeps one decoder per (set directory, capability): the set's files are read
and loaded once a worker, not once a file. A refusal is a result (its
status the spec's code), not an error. Results come back one per path, in
the order given: a task whose worker dies is run again elsewhere by the
scheduler (a decode is a pure function of its file, so running it twice
gives the same result, and the result is taken once); one that kills
`retries` + 1 workers in a row ends as status "worker_lost" for each of
its files, so every file still ends with exactly one result. A task holds
a few files (`chunk`; by default about four tasks a worker thread): fewer
tasks for the scheduler and the client to move on a small machine.

Debian's python3-distributed (and python3-dask) serve /usr/bin/python3.
verify() runs the `wai` tool's `receipt verify` (libsodium's Ed25519 lives
in the tool, not in this module): WAI_TOOL or `tool=` names it."""
import hashlib
import os
import subprocess
import time
from dataclasses import dataclass, field

__all__ = ["Result", "decode", "verify", "local_client"]


@dataclass
class Result:
    """One file's outcome: status ("ok", a refusal's code, or
    "worker_lost" / "io_error"), sha256 (each output's), seconds (the
    task's own time on its worker) and worker (its address)."""
    path: str
    status: str
    sha256: list = field(default_factory=list)
    seconds: float = 0.0
    worker: str = ""
    detail: str = ""


# ---- on the workers -------------------------------------------------------------------------

# A worker process's decoders: (pid, set directory, capability, limits) ->
# wai.Decoder. The pid keys it so a forked child never uses its parent's.
_DECODERS = {}


def _decoder(set_dir, capability, max_cost, max_memory, threads):
    import wai
    key = (os.getpid(), set_dir, capability, max_cost, max_memory, threads)
    d = _DECODERS.get(key)
    if d is None:
        d = _DECODERS[key] = wai.Decoder(capability=capability, set=set_dir, max_cost=max_cost,
                                         max_memory=max_memory, threads=threads)
    return d


def _capability_of(payload):
    """The capability the payload's magic names, or None."""
    from wai._lib import lib
    cap = lib.wai_capability_detect(payload, len(payload))
    return cap[0].decode() if cap else None


def _worker_name():
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


def _decode_task(path, set_dir, capability, max_cost, max_memory, threads):
    import wai
    t = time.perf_counter()
    try:
        with open(path, "rb") as f:
            payload = f.read()
    except OSError as e:
        return Result(path, "io_error", detail=str(e), worker=_worker_name())
    cap = capability or _capability_of(payload)
    if cap is None:
        return Result(path, "bad_magic", [], time.perf_counter() - t, _worker_name())
    try:
        if cap.endswith(".frame"):
            # A frame of a stream: alone (its file is no group's next frame).
            with wai.Decoder(capability=cap, set=set_dir, max_cost=max_cost,
                             max_memory=max_memory, threads=threads) as d:
                outs = d.send(payload)
        else:
            outs = _decoder(set_dir, cap, max_cost, max_memory, threads).send(payload)
        status, digests = "ok", [hashlib.sha256(o.array.tobytes()).hexdigest() for o in outs]
    except wai.WaiError as e:
        status, digests = e.code, []
    return Result(path, status, digests, time.perf_counter() - t, _worker_name())


def _verify_task(receipt, payload, pubkey, tool):
    t = time.perf_counter()
    cmd = [tool, "receipt", "verify", receipt] + ([payload] if payload else [])
    cmd += ["--pubkey", pubkey] if pubkey else []
    r = subprocess.run(cmd, capture_output=True, text=True)
    line = (r.stdout + r.stderr).strip().splitlines()
    status = "ok" if r.returncode == 0 else ("refused" if r.returncode == 1 else "error")
    return Result(receipt, status, [], time.perf_counter() - t, _worker_name(),
                  line[-1] if line else "")


# ---- on the client --------------------------------------------------------------------------

def local_client(n_workers=None):
    """A distributed.Client on a LocalCluster of n_workers processes (default:
    one per core), one thread each."""
    import dask
    from distributed import Client, LocalCluster
    n = n_workers or os.cpu_count() or 1
    # The workers import this very module (a build's, or an installed one).
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    with dask.config.set({"distributed.nanny.pre-spawn-environ": _pre_spawn_environ()}):
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=None, env={"PYTHONPATH": path})
    return Client(cluster)


def _pre_spawn_environ():
    """Dask's nanny environment for the workers, less its
    MALLOC_TRIM_THRESHOLD_=65536: glibc then hands a decode's working memory
    back to the system after each file and faults it in again for the next
    (a 256x256 WIH1: 18 ms a file becomes 32 ms). One set in the environment
    by the caller is kept."""
    import dask
    env = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        env.pop("MALLOC_TRIM_THRESHOLD_", None)
    return env


def _each(fn, chunk):
    """fn(*item) for the items of one task, in order."""
    return [fn(*it) for it in chunk]


def _chunk_size(n_items, client, chunk):
    """Items a task: as given, else about four tasks a worker thread (fewer
    tasks for the scheduler and client to move, still enough to balance),
    at most 16 items, at least one."""
    if chunk:
        return max(1, int(chunk))
    try:
        threads = sum(client.nthreads().values()) or 1
    except Exception:  # a client without workers yet
        threads = 1
    return max(1, min(16, n_items // (4 * threads)))


def _run(fn, items, client, address, n_workers, retries, chunk=None):
    """fn(*item) for every item, as tasks of one or more items; one Result
    an item, in order."""
    from distributed import Client, as_completed
    own = client is None
    if own:
        client = Client(address) if address else local_client(n_workers)
    try:
        size = _chunk_size(len(items), client, chunk)
        spans = [(i, min(i + size, len(items))) for i in range(0, len(items), size)]
        futures = [client.submit(_each, fn, items[a:b], pure=False, retries=retries)
                   for a, b in spans]
        index = {f.key: k for k, f in enumerate(futures)}
        out = [None] * len(items)
        for f in as_completed(futures):
            a, b = spans[index[f.key]]
            if out[a] is not None:
                continue  # taken once
            try:
                out[a:b] = f.result()
            except Exception as e:  # KilledWorker, a cancelled future and the like
                out[a:b] = [Result(str(it[0]), "worker_lost",
                                   detail=f"{type(e).__name__}: {e}") for it in items[a:b]]
        return out
    finally:
        if own:
            cluster = client.cluster if hasattr(client, "cluster") else None
            client.close()
            if cluster is not None:
                cluster.close()


def decode(paths, set=None, capability=None, client=None, address=None, n_workers=None,
           max_cost=None, max_memory=None, threads=1, retries=2, chunk=None):
    """Decodes each path's payload as one Dask task; returns one Result a
    path, in order. set: a directory (each worker loads it once). client: a
    distributed.Client to use; else address (a scheduler's) or a
    LocalCluster of n_workers processes, made and closed here. threads:
    libwai's threads within one decode (1: the workers are the
    parallelism). retries: how many more times the scheduler may run a task
    whose worker died. chunk: files a task (default: about four tasks a
    worker thread, at most 16 files)."""
    set_dir = os.fspath(set) if set is not None else None
    items = [(os.fspath(p), set_dir, capability, max_cost, max_memory, threads) for p in paths]
    return _run(_decode_task, items, client, address, n_workers, retries, chunk)


def verify(receipts, payloads=None, pubkey=None, tool=None, client=None, address=None,
           n_workers=None, retries=2, chunk=None):
    """`wai receipt verify RECEIPT [PAYLOAD] [--pubkey KEY]` for each receipt
    as a Dask task; one Result a receipt: status "ok" (verified), "refused"
    (the tool's exit 1) or "error", detail the tool's last line."""
    tool = tool or os.environ.get("WAI_TOOL", "wai")
    payloads = payloads or [None] * len(receipts)
    items = [(os.fspath(r), os.fspath(p) if p else None, pubkey, tool)
             for r, p in zip(receipts, payloads)]
    return _run(_verify_task, items, client, address, n_workers, retries, chunk)
