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
and loaded once a worker, not once a file. A task holds a few files
(`chunk`; by default about four tasks a worker thread): fewer tasks for the
scheduler and the client to move on a small machine.

Every path ends with exactly one Result, in the order given, within the
time the batch allows; a refusal is a result (its status the spec's code),
not an error:
- A path is opened without blocking (O_NONBLOCK: a FIFO never holds the
  open), fstat'ed, and read only when it is a regular file within
  max_memory (default wai.DEFAULT_MAX_MEMORY, 2 GiB): else "not_regular_file"
  (detail: a FIFO, a character device, a directory...) or "cost_over_limit"
  (detail: its size), unread; "io_error" where it cannot be opened (detail:
  the system's reason).
- A task whose worker dies is run again elsewhere by the scheduler (a
  decode is a pure function of its file: a second run gives the same
  result, taken once) until it has been on allowed-failures + 1 dying
  workers (distributed.scheduler.allowed-failures, 3 by default); then its
  files are run again ONE FILE A TASK, so the good files of its chunk are
  still decoded. The scheduler counts a death against every task its
  worker held, queued ones too, so a good file queued behind the killer
  can be lost with it: a lone file lost so runs once more ALONE, nothing
  else on the cluster, after the rest; only a file whose own task kills
  workers then ends "worker_lost".
- A task has `timeout` seconds a file from when it starts on a worker (the
  task tells the client; the client keeps the clock). One not done by then
  is cancelled and its worker process ended (a stuck decode's thread cannot
  be stopped otherwise; a nanny, as a LocalCluster's, starts a fresh one);
  its files are run again one a task, and a file whose own task overruns
  ends "timeout". When no task is running and none has started or ended
  for as long as the largest task may take and STALL_GRACE (30 s) more,
  the files not done end "timeout" too (no worker took them). Each Result
  states the timeout.

Debian's python3-distributed (and python3-dask) serve /usr/bin/python3.
verify() runs the `wai` tool's `receipt verify` (libsodium's Ed25519 lives
in the tool, not in this module): WAI_TOOL or `tool=` names it."""
import hashlib
import os
import queue
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass, field

from . import DEFAULT_MAX_MEMORY

__all__ = ["Result", "decode", "verify", "local_client", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 60.0   # seconds a file
# What a stalled batch waits beyond its largest task's time: a worker's
# (re)start, a nanny's included, before the files not done end "timeout".
STALL_GRACE = 30.0


@dataclass
class Result:
    """One file's outcome: status ("ok", a refusal's code, or one of
    "not_regular_file", "io_error", "worker_lost", "timeout", "error"),
    sha256 (each output's), seconds (the task's own time on its worker),
    worker (its address), detail (why, for a status other than ok) and
    timeout (the seconds a file the batch allowed)."""
    path: str
    status: str
    sha256: list = field(default_factory=list)
    seconds: float = 0.0
    worker: str = ""
    detail: str = ""
    timeout: float = None


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


def _result(path, status, t, detail="", digests=()):
    return Result(path, status, list(digests), time.perf_counter() - t, _worker_name(), detail)


def _decode_task(path, set_dir, capability, max_cost, max_memory, threads):
    import wai
    t = time.perf_counter()
    try:
        payload = wai._read_file(path, wai._limit(max_memory))   # never blocks, bounded
    except wai.FileRefused as e:
        return _result(path, e.code, t, e.detail)
    except OSError as e:
        return _result(path, "io_error", t, e.strerror or str(e))
    try:
        return _result(path, "ok", t, digests=_decode_payload(payload, set_dir, capability,
                                                              max_cost, max_memory, threads))
    except wai.WaiError as e:
        return _result(path, e.code, t, str(e))
    except OSError as e:   # the set's folder
        return _result(path, "io_error", t, str(e))


def _decode_payload(payload, set_dir, capability, max_cost, max_memory, threads):
    """Each output's SHA-256 (hex); a refusal raises wai.WaiError."""
    import wai
    cap = capability or _capability_of(payload)   # None: the library says why (bad_magic)
    if cap is not None and cap.endswith(".frame"):
        # A frame of a stream: alone (its file is no group's next frame).
        with wai.Decoder(capability=cap, set=set_dir, max_cost=max_cost,
                         max_memory=max_memory, threads=threads) as d:
            outs = d.send(payload)
    else:
        outs = _decoder(set_dir, cap, max_cost, max_memory, threads).send(payload)
    return [hashlib.sha256(o.array.tobytes()).hexdigest() for o in outs]


def _verify_task(receipt, payload, pubkey, tool, timeout=None):
    t = time.perf_counter()
    cmd = [tool, "receipt", "verify", receipt] + ([payload] if payload else [])
    cmd += ["--pubkey", pubkey] if pubkey else []
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return _result(receipt, "timeout", t, f"the tool ran past {timeout:g} s: ended")
    line = (r.stdout + r.stderr).strip().splitlines()
    status = "ok" if r.returncode == 0 else ("refused" if r.returncode == 1 else "error")
    return _result(receipt, status, t, line[-1] if line else "")


_STARTED = "wai.batch.started"   # the topic a task's start is told on


def _each(fn, chunk, run=None):
    """fn(*item) for the items of one task, in order. It first tells the
    client's run that it started: the task's time runs from there."""
    if run is not None:
        _tell_started(run)
    return [fn(*it) for it in chunk]


def _tell_started(run):
    try:
        from distributed import get_worker
        w = get_worker()
    except (ImportError, ValueError):
        return
    w.log_event(_STARTED, {"run": run, "key": w.get_current_task(), "worker": w.address})


def _exit_soon():
    # After run() has answered, so the worker's end is no failed call.
    threading.Timer(0.2, os._exit, (70,)).start()


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


# The runs under way in this process, by id: where a task's start goes.
_RUNS = {}
_RUNS_LOCK = threading.Lock()


def _on_started(event):
    _, msg = event
    run = _RUNS.get(msg.get("run"))
    if run is not None:
        run.started[msg["key"]] = (time.monotonic(), msg["worker"])
        run.progress = time.monotonic()


class _Run:
    """One run's tasks, on the client: each outstanding task's future and
    item indices, when it started (as the task told), what came back."""

    def __init__(self, client, fn, items, retries, timeout):
        self.client, self.fn, self.items = client, fn, items
        self.retries, self.timeout = retries, float(timeout)
        self.id = uuid.uuid4().hex
        self.out = [None] * len(items)
        self.tasks = {}     # key -> (future, [item index])
        self.started = {}   # key -> (monotonic seconds, worker address)
        self.done = queue.Queue()
        self.alone = []         # lone files lost with a worker: run again, one at a time
        self.ran_alone = set()
        self.progress = time.monotonic()

    def submit(self, idxs):
        f = self.client.submit(_each, self.fn, [self.items[i] for i in idxs], self.id,
                               pure=False, retries=self.retries)
        self.tasks[f.key] = (f, idxs)
        f.add_done_callback(self.done.put)

    def run(self, spans):
        with _RUNS_LOCK:
            _RUNS[self.id] = self
            self.client.subscribe_topic(_STARTED, _on_started)
        try:
            for idxs in spans:
                self.submit(idxs)
            self.wait()
        finally:
            with _RUNS_LOCK:
                del _RUNS[self.id]
                if not any(r.client is self.client for r in _RUNS.values()):
                    self.client.unsubscribe_topic(_STARTED)
        for r in self.out:
            r.timeout = self.timeout
        return self.out

    def wait(self):
        """Takes each task as it ends, and every tick ends those past their
        time; then runs the files held for a run alone, one at a time."""
        tick = min(1.0, max(0.05, self.timeout / 10))
        next_check = time.monotonic() + tick
        while self.tasks or self.alone:
            if not self.tasks:
                i = self.alone.pop(0)
                self.ran_alone.add(i)
                self.submit([i])
            try:
                self.take(self.done.get(timeout=max(0.0, next_check - time.monotonic())))
            except queue.Empty:
                pass
            if time.monotonic() >= next_check:
                self.expire(time.monotonic())
                next_check = time.monotonic() + tick

    def take(self, f):
        entry = self.tasks.pop(f.key, None)
        if entry is None:
            return  # settled already: timed out and cancelled
        self.started.pop(f.key, None)
        self.progress = time.monotonic()
        try:
            # Bounded: a result whose worker died before it was fetched is computed again.
            results = f.result(timeout=self.timeout * len(entry[1]) + STALL_GRACE)
        except Exception as e:  # KilledWorker, a future cancelled elsewhere and the like
            self.failed(entry[1], _status_of(e), f"{type(e).__name__}: {e}")
            return
        for i, r in zip(entry[1], results):
            self.out[i] = r

    def failed(self, idxs, status, detail):
        """A task that did not end well: its files again, one a task, so
        those that did not cause it still end well. A lone file lost with
        its worker may only have been queued behind the file that killed it
        (the scheduler counts a death against every task the worker held):
        it runs once more alone, with nothing else on the cluster, and ends
        as that run ends."""
        i = idxs[0]
        if len(idxs) > 1:
            for k in idxs:
                self.submit([k])
        elif status == "worker_lost" and i not in self.ran_alone:
            self.alone.append(i)
        else:
            self.out[i] = Result(str(self.items[i][0]), status, detail=detail)

    def expire(self, now):
        """Ends each running task past its time, and every task when none
        runs and nothing has moved for as long as the largest may take."""
        for key, (t, worker) in list(self.started.items()):
            entry = self.tasks.get(key)
            if entry is None:
                self.started.pop(key, None)  # a start told after its end
            elif now - t > self.timeout * len(entry[1]):
                self.overdue(key, worker)
        if self.tasks and not self.started:
            most = self.timeout * max(len(idxs) for _, idxs in self.tasks.values()) + STALL_GRACE
            if now - self.progress > most:
                for key in list(self.tasks):
                    f, idxs = self.tasks.pop(key)
                    f.cancel()
                    for i in idxs:
                        self.out[i] = Result(str(self.items[i][0]), "timeout", detail=(
                            f"no worker started it in {most:g} s (timeout {self.timeout:g} s "
                            "a file): cancelled"))

    def overdue(self, key, worker):
        f, idxs = self.tasks.pop(key)
        del self.started[key]
        f.cancel()
        _end_worker(self.client, worker)
        self.failed(idxs, "timeout", f"not done in {self.timeout:g} s a file "
                    f"({len(idxs)} file(s)) on {worker}: cancelled, its worker ended")


def _status_of(e):
    """A failed task's status: its worker lost, its time out, or an error."""
    from distributed.scheduler import KilledWorker
    if isinstance(e, KilledWorker):
        return "worker_lost"
    return "timeout" if isinstance(e, TimeoutError) else "error"


def _end_worker(client, address):
    """Ends the worker process at address, whose thread is stuck in a task
    past its time (a nanny starts a fresh one). From a thread of its own: a
    run aimed at a worker that has just gone waits out the connect timeout."""
    def end():
        try:
            client.run(_exit_soon, workers=[address])
        except Exception:  # gone already, or the client closed
            pass
    threading.Thread(target=end, daemon=True).start()


def _run(fn, items, client, address, n_workers, retries, chunk=None, timeout=DEFAULT_TIMEOUT):
    """fn(*item) for every item, as tasks of one or more items; one Result
    an item, in order, each within its time (see the module's text)."""
    from distributed import Client
    own = client is None
    if own:
        client = Client(address) if address else local_client(n_workers)
    try:
        size = _chunk_size(len(items), client, chunk)
        spans = [list(range(i, min(i + size, len(items)))) for i in range(0, len(items), size)]
        return _Run(client, fn, items, retries, timeout).run(spans)
    finally:
        if own:
            cluster = client.cluster if hasattr(client, "cluster") else None
            client.close()
            if cluster is not None:
                cluster.close()


def _decode_items(paths, set, capability, max_cost, max_memory, threads):
    """decode's tasks' items: one a path."""
    set_dir = os.fspath(set) if set is not None else None
    return [(os.fspath(p), set_dir, capability, max_cost, max_memory, threads) for p in paths]


def decode(paths, set=None, capability=None, client=None, address=None, n_workers=None,
           max_cost=None, max_memory=DEFAULT_MAX_MEMORY, threads=1, retries=2, chunk=None,
           timeout=DEFAULT_TIMEOUT):
    """Decodes each path's payload as one Dask task; returns one Result a
    path, in order. set: a directory (each worker loads it once). client: a
    distributed.Client to use; else address (a scheduler's) or a
    LocalCluster of n_workers processes, made and closed here. max_cost,
    max_memory: wai.decode's (max_memory, default 2 GiB, bounds each file
    and the set, each refused unread past it; wai.NO_LIMIT lifts it).
    threads: libwai's threads within one decode (1: the workers are the
    parallelism). retries: how many more times the scheduler runs a task
    that raised (a refusal is a result, and a worker's death is counted by
    allowed-failures: see the module's text). chunk: files a task (default:
    about four tasks a worker thread, at most 16 files). timeout: seconds a
    file (default 60), from when its task starts; past it, "timeout"."""
    items = _decode_items(paths, set, capability, max_cost, max_memory, threads)
    return _run(_decode_task, items, client, address, n_workers, retries, chunk, timeout)


def verify(receipts, payloads=None, pubkey=None, tool=None, client=None, address=None,
           n_workers=None, retries=2, chunk=None, timeout=DEFAULT_TIMEOUT):
    """`wai receipt verify RECEIPT [PAYLOAD] [--pubkey KEY]` for each receipt
    as a Dask task; one Result a receipt: status "ok" (verified), "refused"
    (the tool's exit 1), "error", or "timeout" (the tool, or the task, ran
    past timeout seconds, default 60), detail the tool's last line."""
    tool = tool or os.environ.get("WAI_TOOL", "wai")
    payloads = payloads or [None] * len(receipts)
    items = [(os.fspath(r), os.fspath(p) if p else None, pubkey, tool, timeout)
             for r, p in zip(receipts, payloads)]
    return _run(_verify_task, items, client, address, n_workers, retries, chunk, timeout)
