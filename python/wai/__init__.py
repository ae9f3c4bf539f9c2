# SPDX-License-Identifier: BSD-2-Clause
"""libwai from Python: decode, inspect, and the rANS coder, over the C API.

    import wai
    d = wai.decode(open("photo.wih1", "rb").read(), set="examples/hello_set")
    d.outputs[0].array          # numpy uint8 [h, w, 3]
    d.report                    # the wai-neural-dispatch/1 report, a dict
    wai.inspect(payload)        # capability, header fields, declared cost
    e = wai.encode_image(rgb, set="examples/hyperprior/sets/q3")   # a WIH1
    e.payload, e.psnr, e.bpp    # its bytes, and what its decode measures

Errors raise wai.WaiError, whose .code is the spec's code verbatim
("cost_over_limit", "stream_exhausted", ...). numpy in and out; Debian's
python3-numpy is enough. The C library is found as wai/_lib.py says.

One memory limit everywhere: max_memory (default DEFAULT_MAX_MEMORY, 2 GiB,
the tool's and the GStreamer plugin's; NO_LIMIT lifts it) bounds a
decode's declared memory and, before anything is read, a set's members
together: a member that would take them past it is refused
(cost_over_limit) unread."""
import ctypes
import hashlib
import json
import math
import os
import stat
import threading

try:
    import numpy as np
except ModuleNotFoundError as e:  # pragma: no cover - the message is the point
    raise ModuleNotFoundError(
        "wai needs numpy. Debian's python3-numpy serves /usr/bin/python3 only: run "
        "/usr/bin/python3 (or a venv made by '/usr/bin/python3 -m venv "
        "--system-site-packages'), or 'pip install numpy' into this Python "
        f"({__import__('sys').executable})") from e

from . import _lib
from ._lib import lib

__all__ = ["WaiError", "status_meaning", "Output", "Decoded", "Decoder", "decode", "inspect", "Encoded", "encode_image",
           "quality_set", "quality_points", "rans_encode", "rans_decode", "version", "set_listing",
           "set_pin", "write_listing", "DEFAULT_MAX_MEMORY", "NO_LIMIT", "FileRefused"]

NO_LIMIT = (1 << 64) - 1
# The memory a decode and its set may take unless told otherwise: the
# tool's CLI_DEFAULT_MAX_MEMORY and the GStreamer plugin's max-memory.
DEFAULT_MAX_MEMORY = 2 << 30
LISTING = "listing.json"   # a set's listing member (WAI_SET_LISTING)


class WaiError(Exception):
    """A libwai status other than ok: .code is its name (the spec's code
    verbatim), .status its number, .meaning the line libwai's table gives
    it (what the tool prints beside the code); .report the
    wai-neural-dispatch/1 report (a dict) when the decode reached the
    dispatch, else None: for not_dispatchable it says why each offered path
    was refused."""

    def __init__(self, status, what="", report=None):
        self.status = int(status)
        name = lib.wai_status_name(self.status)
        self.code = name.decode() if name else f"status {self.status}"
        meaning = lib.wai_status_meaning(self.status)
        self.meaning = meaning.decode() if meaning else ""
        self.report = report
        text = f"{self.code} ({self.meaning})" if self.meaning else self.code
        super().__init__(f"{what}: {text}" if what else text)


def status_meaning(code):
    """What a status code ("stream_exhausted") means, in libwai's words;
    "" for a name that is not a code."""
    for i in range(256):
        n = lib.wai_status_name(i)
        if n and n.decode() == code:
            return lib.wai_status_meaning(i).decode()
    return ""


def _check(status, what=""):
    if status != 0:
        raise WaiError(status, what)


def version():
    """libwai's version string."""
    return lib.wai_version().decode()


class Output:
    """One decoded output: kind ("frame", "image", "pcm" or "planes"), array
    (numpy: [h, w, 3] uint8 for a frame or image, [n] int16 for pcm, [n,
    side, side] uint8 for planes), index (its number in the stream) and
    sample_rate (pcm)."""

    def __init__(self, kind, array, index, sample_rate):
        self.kind, self.array, self.index, self.sample_rate = kind, array, index, sample_rate

    def __repr__(self):
        return f"Output({self.kind}, {self.array.dtype}{list(self.array.shape)}, index {self.index})"


class Decoded:
    """What decode returns: outputs (a list of Output), cost (the declared
    cost: output_bytes, entropy_steps, macs, working_bytes), capability,
    report (the dispatch report as a dict, for a neural capability that
    reached the dispatch; else None) and symbols_digest (hex, or None)."""

    def __init__(self, outputs, cost, capability, report, symbols_digest):
        self.outputs, self.cost, self.capability = outputs, cost, capability
        self.report, self.symbols_digest = report, symbols_digest


def _cpu_level(name):
    """A level's number from its name (None: no cap)."""
    if name is None:
        return 0
    level = ctypes.c_int()
    if not lib.wai_cpu_level_from_name(str(name).encode(), ctypes.byref(level)):
        raise ValueError(f"cpu_level {name!r}: not a level (host, portable, avx2, avx512, "
                         "avx512bw, avx512vnni, wasm128, neon)")
    return level.value


class _Context:
    def __init__(self, threads, cpu_level=None):
        s = _lib.Settings()
        lib.wai_settings_default(ctypes.byref(s))
        s.n_threads = threads
        s.cpu_level = _cpu_level(cpu_level)
        self.ptr = ctypes.c_void_p()
        _check(lib.wai_context_create(ctypes.byref(s), ctypes.byref(self.ptr)), "context")
        # The native WebNN (libwai_webnn, in the module's library) runs the
        # float capabilities' networks on the CPU: every backend the build has.
        st = lib.wai_context_add_backend(self.ptr, lib.wai_webnn_backend())
        if st != 0:
            self.close()
            _check(st, "the native WebNN backend")

    @property
    def cpu_level(self):
        return lib.wai_cpu_level_name(lib.wai_context_cpu_level(self.ptr)).decode()

    def close(self):
        if self.ptr:
            lib.wai_context_destroy(self.ptr)
            self.ptr = ctypes.c_void_p()


_READ = []   # every name a path of some capability reads (filled once)


def _read_names():
    """The files some path of some capability reads from a set: its
    members, its backends' programs and its encoder's members."""
    if not _READ:
        ctx = _Context(1)
        try:
            names = set()
            for i in range(lib.wai_capability_count()):
                cap = lib.wai_capability_at(i)
                names.update(m.decode() for m in cap[0].set_members if m)
                enc = lib.wai_capability_encoder_members(cap)
                k = 0
                while enc and enc[k]:
                    names.add(enc[k].decode())
                    k += 1
                k = 0
                while lib.wai_context_program_member(ctx.ptr, cap, k):
                    names.add(lib.wai_context_program_member(ctx.ptr, cap, k).decode())
                    k += 1
            _READ.extend(sorted(names))
        finally:
            ctx.close()
    return _READ


def _stays(d, name):
    """Whether d/name may be opened as a member: not a link, or a link to
    a name in the same folder (a few such links at most). A link whose
    target holds a '/' may leave the set, where no listing or pin vouches
    for it: not read, as the tool does (docs/spec-readings.md, L5a)."""
    target = name
    for _ in range(8):
        p = os.path.join(d, target)
        if not os.path.islink(p):
            return True
        target = os.readlink(p)
        if "/" in target or target in (".", ".."):
            return False
    return False


def _limit(max_memory):
    """max_memory as a number: None is the default, DEFAULT_MAX_MEMORY."""
    return DEFAULT_MAX_MEMORY if max_memory is None else int(max_memory)


def _room(max_memory, members):
    """What a decode may declare beside its set: the members stay in memory
    through it, so they share the limit (as in the tool's decode)."""
    limit = _limit(max_memory)
    if limit >= NO_LIMIT:
        return NO_LIMIT
    return max(0, limit - sum(len(v) for v in (members or {}).values()))


class FileRefused(OSError):
    """A file not read: .code is "not_regular_file" (a FIFO, a device, a
    folder) or "cost_over_limit" (past the memory left), .detail why."""

    def __init__(self, path, code, detail):
        super().__init__(f"{path}: {detail}")
        self.path, self.code, self.detail = path, code, detail


def _kind(mode):
    """What a file that is not a regular one is, in the tool's words."""
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "a special file"


def _read_file(path, room):
    """path's bytes, read once. Opened O_NONBLOCK (a FIFO's open must not
    wait for a writer), then fstat'ed: anything but a regular file, or one
    over room bytes, is refused (FileRefused) before a byte is read. A
    file that grows while read is an OSError (what was measured is no
    longer what is there)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        # On the descriptor, before a file object (which refuses a folder its own way).
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(path, "not_regular_file",
                              f"{_kind(st.st_mode)}, not a regular file: not read")
        if st.st_size > room:
            raise FileRefused(path, "cost_over_limit",
                              f"{st.st_size} bytes, past the memory limit ({room} bytes "
                              "left of max_memory): not read")
    except BaseException:
        os.close(fd)
        raise
    with open(fd, "rb") as f:
        data = f.read(st.st_size + 1)   # one byte more: a file that grew says so
    if len(data) > st.st_size:
        raise OSError(f"{path}: grew while it was read (from {st.st_size} bytes): not used")
    return data


def _member(d, name, room):
    """Set member d/name's bytes, or None where it is no member to read:
    absent, a link out of the folder, or not a regular file (a FIFO, a
    device, a folder: opened without blocking, never read). One past room
    raises WaiError cost_over_limit, naming it and its size, unread."""
    path = os.path.join(d, name)
    if not _stays(d, name):
        return None
    try:
        return _read_file(path, room)
    except FileNotFoundError:
        return None
    except FileRefused as e:
        if e.code != "cost_over_limit":
            return None
        raise WaiError(_status("cost_over_limit"),
                       f"set member {path}: {e.detail}") from None


def _listed(text):
    """The names a listing's entries give, read by libwai
    (wai_set_listing_next: a text out of the form gives none past that
    point), those that stay in the folder."""
    at, name, names = ctypes.c_size_t(0), ctypes.create_string_buffer(256), []
    while lib.wai_set_listing_next(text, len(text), ctypes.byref(at), name, len(name)) == 0:
        n = name.value.decode()
        if "/" not in n and n not in (".", ".."):
            names.append(n)
    return names


def _members(set_, every_file=False, max_memory=DEFAULT_MAX_MEMORY):
    """A set given as a directory or a mapping of member names to bytes.
    From a directory: the files some path reads (_read_names) and
    listing.json, and with a listing every file it names (a listed set is
    checked whole); every_file: every file whose name does not start with
    '.', as `wai set list` reads one. Each is read once, by name (a stray
    file in the folder is never opened), and only when it is a regular file
    that keeps the members' total within max_memory (None: the default;
    past it: WaiError cost_over_limit before it is read). A link that
    leaves the folder is never read."""
    if set_ is None:
        return None
    limit = _limit(max_memory)
    if not isinstance(set_, (str, os.PathLike)):
        out = {str(k): bytes(v) for k, v in set_.items()}
        total = sum(len(v) for v in out.values())
        if total > limit:
            raise WaiError(_status("cost_over_limit"), f"set: {total} bytes in its members, past "
                           f"max_memory ({limit})")
        return out
    d = os.fspath(set_)
    out = {}
    if every_file:
        names = sorted(n for n in os.listdir(d) if not n.startswith("."))
    else:
        # The listing first: it names the members to read, and is one.
        listing = _member(d, LISTING, limit)
        names = set(_read_names()) | set(_listed(listing) if listing is not None else ())
        if listing is not None:
            out[LISTING] = listing
        names = sorted(names - {LISTING})
    total = sum(len(v) for v in out.values())
    for name in names:
        data = _member(d, name, limit - total)
        if data is not None:
            out[name] = data
            total += len(data)
    return out


def _pin(pin, pin_tier):
    """A pin (hex text, with the tier it states as ":tier=TOKEN", or 32
    bytes) as its digest and the decode's pin tier: the pin's, which
    pin_tier may repeat but not contradict (docs/spec-readings.md, L5b)."""
    if pin is None:
        return None, pin_tier
    if not isinstance(pin, str):
        digest = bytes(pin)
        if len(digest) != 32:
            raise ValueError("pin: a SHA-256, 64 hexadecimal digits or 32 bytes")
        return digest, pin_tier
    digest, tier = ctypes.create_string_buffer(32), ctypes.create_string_buffer(32)
    if lib.wai_pin_parse(pin.encode(), digest, tier, len(tier)) != 0:
        raise ValueError("pin: a SHA-256 in 64 hexadecimal digits, then optionally the tier it "
                         "states (:tier=TOKEN)")
    stated = tier.value.decode() or None
    if stated and pin_tier is not None and pin_tier != stated:
        raise ValueError(f"pin states tier {stated}, pin_tier says {pin_tier}")
    return digest.raw, stated or pin_tier


class _Set:
    def __init__(self, ctx, members, pin=None):
        self.ptr = ctypes.c_void_p()
        self.keep = []
        if members is None and pin is None:
            return
        _check(lib.wai_set_create(ctx.ptr, ctypes.byref(self.ptr)), "set")
        for name, data in (members or {}).items():
            # Borrowed, not copied: the bytes stay alive in self.keep.
            self.keep.append(data)
            _check(lib.wai_set_add_borrowed(self.ptr, name.encode(), data, len(data)),
                   f"set member {name}")
        if pin is not None:
            digest, _ = _pin(pin, None)
            _check(lib.wai_set_pin(self.ptr, digest), "pin")

    def close(self):
        if self.ptr:
            lib.wai_set_destroy(self.ptr)
            self.ptr = ctypes.c_void_p()


def _cost_dict(c):
    return {"output_bytes": c.output_bytes, "entropy_steps": c.entropy_steps, "macs": c.macs,
            "working_bytes": c.working_bytes}


def _array(o):
    kind = lib.wai_output_kind_name(o.kind).decode()
    raw = np.ctypeslib.as_array(o.data, shape=(o.size,)).copy() if o.size else np.zeros(0, np.uint8)
    if kind in ("frame", "image"):
        arr = raw.reshape(o.height, o.width, 3)
    elif kind == "pcm":
        arr = raw.view("<i2").astype(np.int16)
    elif kind == "planes":
        side = o.width
        arr = raw.reshape(-1, side, side) if side else raw
    else:
        arr = raw
    return Output(kind, arr, int(o.index), int(o.sample_rate))


def _dispatch_options(offer, intent, pin_tier):
    """neural-dispatch's options: offer a list or comma-separated string of
    paths ("npu,int", "cpu/onnx-runtime/float"; None: the default offer),
    the envelope's intent and the set pin's tier token. The buffers the
    struct points at are kept beside it."""
    keep = []
    o = _lib.DispatchOptions()
    if intent is not None:
        keep.append(intent.encode())
        o.intent = keep[-1]
    if pin_tier is not None:
        keep.append(pin_tier.encode())
        o.pin_tier = keep[-1]
    if offer is not None:
        text = offer if isinstance(offer, str) else ",".join(offer)
        paths = (_lib.Path * _lib.MAX_PATHS)()
        n = ctypes.c_size_t()
        _check(lib.wai_dispatch_parse_offer(text.encode(), paths, _lib.MAX_PATHS, ctypes.byref(n)),
               "offer")
        keep.append(paths)
        o.offer_n = n.value
        o.offer_paths = paths
    return (o, keep)


def _report(dec):
    """A decoder's dispatch report as a dict, or None."""
    r = lib.wai_decoder_dispatch_report(dec)
    if not r:
        return None
    text = ctypes.c_char_p()
    _check(lib.wai_dispatch_report_json_alloc(None, r, ctypes.byref(text)), "report")
    try:
        return json.loads(text.value.decode())
    finally:
        lib.wai_dispatch_report_json_free(None, text)


def _outputs(dec):
    outputs = []
    while True:
        o = _lib.Output()
        _check(lib.wai_decoder_receive(dec, ctypes.byref(o)), "receive")
        if o.kind == 0:
            return outputs
        outputs.append(_array(o))


def _symbols_digest(dec):
    digest = (ctypes.c_uint8 * 32)()
    return bytes(digest).hex() if lib.wai_decoder_symbols_digest(dec, digest) else None


class Decoder:
    """A decoder kept across payloads: the frames of a frame-form stream
    (each send one frame, in order), or a player's run of images with its
    network memory kept. Arguments as decode's; use it as a context manager
    or call close(). frames(payload) yields a clip's frames as they are
    decoded (a streaming decoder's: about two frames of memory whatever the
    clip's length)."""

    def __init__(self, capability=None, set=None, max_cost=None, max_memory=DEFAULT_MAX_MEMORY,
                 threads=0, cpu_level=None, offer=None, intent=None, pin_tier=None, pin=None):
        self._init(capability, set, max_cost, max_memory, threads, cpu_level, offer, intent,
                   pin_tier, pin, False)

    def _init(self, capability, set, max_cost, max_memory, threads, cpu_level, offer, intent,
              pin_tier, pin, streaming):
        # A C decoder is one caller's at a time (wai_decode.h): the lock
        # serialises the threads that share this one, and each thread reads
        # its own last send's cost, report and digest.
        self._lock = threading.Lock()
        self._last = threading.local()
        # The set read here once, under the limit; frames() reuses the bytes.
        members = _members(set, max_memory=max_memory)
        self._args = (capability, members, max_cost, max_memory, threads, cpu_level, offer,
                      intent, pin_tier, pin)
        self._ctx = _Context(threads, cpu_level)
        self._dec = ctypes.c_void_p()
        self._dispatch = None
        try:
            _, pin_tier = _pin(pin, pin_tier)
            if offer is not None or intent is not None or pin_tier is not None:
                self._dispatch = _dispatch_options(offer, intent, pin_tier)
            self._set = _Set(self._ctx, members, pin)
            cfg = _lib.DecoderConfig()
            lib.wai_decoder_config_default(ctypes.byref(cfg))
            cfg.capability = capability.encode() if capability else None
            cfg.max_cost = NO_LIMIT if max_cost is None else int(max_cost)
            cfg.max_memory = _room(max_memory, members)
            cfg.set = self._set.ptr if self._set.ptr else None
            cfg.streaming = 1 if streaming else 0
            if self._dispatch is not None:
                cfg.dispatch = ctypes.cast(ctypes.byref(self._dispatch[0]), ctypes.c_void_p)
            _check(lib.wai_decoder_create(self._ctx.ptr, ctypes.byref(cfg),
                                          ctypes.byref(self._dec)), "decoder")
        except BaseException:
            self.close()
            raise
    # The last send's, as the calling thread made it (None before one).
    cost = property(lambda self: getattr(self._last, "cost", None))
    report = property(lambda self: getattr(self._last, "report", None))
    symbols_digest = property(lambda self: getattr(self._last, "symbols_digest", None))

    def send(self, payload):
        """Decodes one payload and returns its outputs (a list of Output);
        sets .cost, .report and .symbols_digest for it, as this thread
        reads them. A refusal raises WaiError (with .cost set when the cost
        was known). Threads that share a decoder take turns (a lock)."""
        payload = bytes(payload)
        cost = _lib.Cost()
        last = self._last
        last.cost = last.report = last.symbols_digest = None
        with self._lock:
            if not self._dec:
                raise ValueError("send() on a closed Decoder")
            st = lib.wai_decoder_send(self._dec, payload, len(payload), ctypes.byref(cost))
            if cost.output_bytes or cost.working_bytes:
                last.cost = _cost_dict(cost)
            last.report = _report(self._dec)
            if st != 0:
                raise WaiError(st, "decode", last.report)
            outputs = _outputs(self._dec)
            last.symbols_digest = _symbols_digest(self._dec)
        return outputs

    def frames(self, payload, start=0, count=None):
        """A clip's outputs one at a time, each decoded when asked for
        (wai_decoder_config.streaming, on a decoder of its own with this
        one's options): a generator of Output. start: the first frame
        yielded (a seek: the frames before it are decoded, as each
        predicts the next, but not converted or yielded; Output.index
        keeps the frame's number); count: the most frames yielded (None:
        to the end). A refusal part-way raises WaiError after the frames
        before it were yielded, and THOSE FRAMES BELONG TO A REFUSED CLIP
        (send() keeps integer-payloads §8's rule: a refused clip outputs
        nothing)."""
        payload = bytes(payload)  # kept alive while the frames are stepped
        start = int(start)
        if start < 0 or (count is not None and int(count) < 0):
            raise ValueError("frames(): start and count are 0 or more")
        with _StreamingDecoder(self._args) as d:
            cost = _lib.Cost()
            st = lib.wai_decoder_send(d._dec, payload, len(payload), ctypes.byref(cost))
            if st == 0 and start:
                st = lib.wai_decoder_skip(d._dec, start, None)
            if st != 0:
                raise WaiError(st, "decode")
            left = None if count is None else int(count)
            while left is None or left > 0:
                if left is not None:
                    left -= 1
                o = _lib.Output()
                st = lib.wai_decoder_receive(d._dec, ctypes.byref(o))
                if st != 0:
                    raise WaiError(st, "decode")
                if o.kind == 0:
                    return
                yield _array(o)

    @property
    def cpu_level(self):
        """The level the integer kernels run at: the cap, or the CPU's best
        below it ("portable", "avx2", ...)."""
        return self._ctx.cpu_level

    @property
    def capability(self):
        with self._lock:
            cap = lib.wai_decoder_capability(self._dec) if self._dec else None
            return cap.decode() if cap else None

    def close(self):
        with self._lock:
            if self._dec:
                lib.wai_decoder_destroy(self._dec)
                self._dec = ctypes.c_void_p()
            if getattr(self, "_set", None):
                self._set.close()
            self._ctx.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _StreamingDecoder(Decoder):
    def __init__(self, args):
        self._init(*args, True)


def decode(payload, set=None, capability=None, max_cost=None, max_memory=DEFAULT_MAX_MEMORY,
           threads=0, cpu_level=None, offer=None, intent=None, pin_tier=None, pin=None):
    """Decodes one payload (bytes): a clip, an image, a clip of samples or
    one frame. set: the parameter set of a neural capability, a directory
    or a {name: bytes} mapping. capability: None for the one the magic
    names. max_cost / max_memory: refuse a payload whose declared work or
    memory is above them (cost_over_limit) before any symbol; max_memory
    (default DEFAULT_MAX_MEMORY, 2 GiB; None: the same; NO_LIMIT: none;
    max_cost None: none) bounds the set's members too, each refused
    (cost_over_limit, naming it and its size) before it is read. threads: the
    context's threads (0: one per core); the bytes are the same for any.
    cpu_level: the highest level the integer kernels may use ("portable",
    "avx2", ...; None: the CPU's best); the bytes are the same at every one.
    offer, intent, pin_tier: neural-dispatch's options (the paths offered,
    in order, as a list or "npu,int"; the envelope's intent; the set pin's
    tier token); when every path is refused the WaiError is
    not_dispatchable, its .report saying why for each. pin: the set's pin
    (hex or 32 bytes): its listing.json's SHA-256 (set_listing), or a
    one-file set's file's, the hex optionally followed by the tier the pin
    states (":tier=decode-equivalence", which is then the decode's
    pin_tier); one that does not resolve is set_incomplete."""
    with Decoder(capability, set, max_cost, max_memory, threads, cpu_level, offer, intent,
                 pin_tier, pin) as d:
        outputs = d.send(payload)
        return Decoded(outputs, d.cost, d.capability, d.report, d.symbols_digest)


def route(candidates, max_cost=None, max_memory=DEFAULT_MAX_MEMORY, threads=0, cpu_level=None):
    """Decodes the first of candidates the sink can decode through
    (integer-payloads §8): each a dict with "payload" and optionally "set",
    "capability", "offer", "intent", "pin_tier" (decode's meanings; a
    candidate's pin_tier is its own set's), as a WAI1's capability and its
    fallback, or a WAI2's entries, give them. A routing refusal
    (set_incomplete, not_dispatchable, unsupported_capability,
    cost_over_limit) moves on to the next; any other ends the route.
    max_memory bounds each candidate's set on its own (as each of the tool's
    attempts) and the decode: a set past it is that candidate's
    cost_over_limit, unread. Returns a Decoded whose .route lists each
    candidate tried as (capability, code); a refusal raises WaiError with
    .route (and .report) set."""
    candidates = list(candidates)
    if not candidates:
        raise ValueError("route: no candidates")
    names = [_candidate_name(c) for c in candidates]
    members, refused = _route_sets(candidates, max_memory)
    offered = [i for i in range(len(candidates)) if i not in refused]
    if not offered:
        e = refused[len(candidates) - 1]
        e.route = [(names[i], "cost_over_limit") for i in range(len(candidates))]
        raise e
    ctx = _Context(threads, cpu_level)
    keep, sets = [], []
    dec = ctypes.c_void_p()
    try:
        arr = (_lib.RouteCandidate * len(offered))()
        for c, i in zip(arr, offered):
            cand = candidates[i]
            payload = bytes(cand["payload"])
            keep.append(payload)
            c.payload, c.len = payload, len(payload)
            if cand.get("capability") is not None:
                keep.append(cand["capability"].encode())
                c.capability = keep[-1]
            sets.append(_Set(ctx, members[i], cand.get("pin")))
            c.set = sets[-1].ptr if sets[-1].ptr else None
            _, tier = _pin(cand.get("pin"), cand.get("pin_tier"))   # the candidate's own pin
            if any(v is not None for v in (cand.get("offer"), cand.get("intent"), tier)):
                opts = _dispatch_options(cand.get("offer"), cand.get("intent"), tier)
                keep.append(opts)
                c.dispatch = ctypes.cast(ctypes.byref(opts[0]), ctypes.c_void_p)
        cfg = _lib.DecoderConfig()
        lib.wai_decoder_config_default(ctypes.byref(cfg))
        cfg.max_cost = NO_LIMIT if max_cost is None else int(max_cost)
        cfg.max_memory = _limit(max_memory)
        ended = ctypes.c_size_t()
        statuses = (ctypes.c_int * len(offered))()
        st = lib.wai_decode_route(ctx.ptr, ctypes.byref(cfg), arr, len(offered),
                                  ctypes.byref(dec), ctypes.byref(ended), statuses)
        codes = {i: "cost_over_limit" for i in refused}
        codes.update((offered[k], lib.wai_status_name(statuses[k]).decode())
                     for k in range(ended.value + 1))
        end = offered[ended.value]
        if st != 0 and codes[end] in _ROUTING:
            end = len(candidates) - 1   # those after it all refused: the last one's refusal
        tried = [(names[i], codes[i]) for i in range(end + 1)]
        report = _report(dec) if dec else None
        if st != 0:
            e = refused[end] if end in refused else WaiError(st, "route", report)
            e.route = tried
            raise e
        d = Decoded(_outputs(dec), None, lib.wai_decoder_capability(dec).decode(), report,
                    _symbols_digest(dec))
        d.route = tried
        return d
    finally:
        if dec:
            lib.wai_decoder_destroy(dec)
        for s in sets:
            s.close()
        ctx.close()


# The refusals a route moves on from (integer-payloads §8).
_ROUTING = ("set_incomplete", "not_dispatchable", "unsupported_capability", "cost_over_limit")


def _candidate_name(cand):
    """A route candidate's capability: as given, else the one its magic names."""
    if cand.get("capability") is not None:
        return cand["capability"]
    payload = bytes(cand["payload"])
    found = lib.wai_capability_detect(payload, len(payload))
    return found[0].decode() if found else None


def _route_sets(candidates, max_memory):
    """Each candidate's set members, read under max_memory, and the
    candidates whose set is past it ({index: WaiError}): a routing refusal
    like the library's cost_over_limit, so the route moves on."""
    members, refused = {}, {}
    for i, cand in enumerate(candidates):
        try:
            members[i] = _members(cand.get("set"), max_memory=max_memory)
        except WaiError as e:
            if e.code != "cost_over_limit":
                raise
            refused[i] = e
    return members, refused


def set_listing(set, max_memory=DEFAULT_MAX_MEMORY):
    """A set's canonical listing (bytes; docs/spec-readings.md, L5): every
    member but listing.json, by name, with its length and SHA-256. Written
    into the set as "listing.json", its SHA-256 (set_pin) pins the set.
    The members together within max_memory (cost_over_limit otherwise,
    before the one past it is read)."""
    members = _members(set, every_file=True, max_memory=max_memory) or {}
    ctx = _Context(1)
    s = _Set(ctx, members)
    try:
        need = ctypes.c_size_t()
        lib.wai_set_listing_json(s.ptr, None, 0, ctypes.byref(need))
        buf = ctypes.create_string_buffer(need.value + 1)
        _check(lib.wai_set_listing_json(s.ptr, buf, len(buf), None), "listing")
        return buf.raw[:need.value]
    finally:
        s.close()
        ctx.close()


def set_pin(set, max_memory=DEFAULT_MAX_MEMORY):
    """The pin over a set: the SHA-256 (hex) of its listing."""
    return hashlib.sha256(set_listing(set, max_memory)).hexdigest()


def write_listing(directory, max_memory=DEFAULT_MAX_MEMORY):
    """Writes directory's listing.json (set_listing of every file in it but
    the listing) and returns the pin over the set: what a tool that writes
    a set calls last, so the set is pinnable as written."""
    path = os.path.join(os.fspath(directory), LISTING)
    if os.path.lexists(path):
        os.remove(path)
    text = set_listing(directory, max_memory)
    with open(path, "wb") as f:
        f.write(text)
    return hashlib.sha256(text).hexdigest()


def inspect(payload, set=None, capability=None, max_memory=DEFAULT_MAX_MEMORY):
    """What a payload is without decoding it: its capability, its header's
    fields (the tool's JSON), its declared cost (with the set when its
    capability needs one) and its symbols digest (the entropy stage alone,
    where the capability has one and its set is given). The set is read
    within max_memory, as decode reads it."""
    payload = bytes(payload)
    cap = (lib.wai_capability_find(capability.encode()) if capability
           else lib.wai_capability_detect(payload, len(payload)))
    if not cap:
        # The library says why (§8): unsupported_capability for a name it
        # does not know, bad_magic for bytes no capability reads.
        status = lib.wai_declared_cost(capability.encode() if capability else None, payload,
                                       len(payload), ctypes.byref(_lib.Cost()))
        raise WaiError(status or _status("bad_magic"), "inspect")
    name = cap[0].decode()
    need = ctypes.c_size_t()
    lib.wai_payload_header_json(ctypes.cast(cap, ctypes.c_void_p), payload, len(payload), None, 0,
                                ctypes.byref(need))
    buf = ctypes.create_string_buffer(need.value + 1)
    _check(lib.wai_payload_header_json(ctypes.cast(cap, ctypes.c_void_p), payload, len(payload),
                                       buf, len(buf), ctypes.byref(need)), "header")
    out = {"capability": name, "header": json.loads(buf.value.decode())}
    n = ctypes.c_uint64()
    if lib.wai_payload_outputs(name.encode(), payload, len(payload), ctypes.byref(n)) == 0:
        out["outputs"] = n.value  # a clip's frames, from its header; else 1
    members = _members(set, max_memory=max_memory)
    ctx = _Context(1)
    s = _Set(ctx, members)
    try:
        c = _lib.Cost()
        status = lib.wai_declared_cost_set(ctx.ptr, name.encode(), s.ptr if s.ptr else None,
                                           payload, len(payload), ctypes.byref(c))
        if status == 0:
            out["cost"] = _cost_dict(c)
        else:
            out["cost_status"] = lib.wai_status_name(status).decode()
        d = (ctypes.c_uint8 * 32)()
        if lib.wai_symbols_digest(ctx.ptr, name.encode(), s.ptr if s.ptr else None, payload,
                                  len(payload), d) == 0:
            out["symbols_digest"] = bytes(d).hex()
    finally:
        s.close()
        ctx.close()
    return out


def _status(name):
    for i in range(256):
        n = lib.wai_status_name(i)
        if n and n.decode() == name:
            return i
    return -1


def _tables(tables):
    """[(cdf, offset), ...] as the C arrays."""
    cdfs = [np.ascontiguousarray(c, dtype=np.uint32) for c, _ in tables]
    ptrs = (ctypes.POINTER(ctypes.c_uint32) * len(cdfs))(
        *[c.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)) for c in cdfs])
    lens = (ctypes.c_size_t * len(cdfs))(*[c.size for c in cdfs])
    offs = (ctypes.c_int32 * len(cdfs))(*[int(o) for _, o in tables])
    return cdfs, ptrs, lens, offs


def _table_of(table_of, n):
    if table_of is None:
        table_of = np.zeros(n, dtype=np.uint32)
    t = np.ascontiguousarray(table_of, dtype=np.uint32)
    if t.size != n:
        raise ValueError("table_of needs one table index a symbol")
    return t


def rans_encode(symbols, tables, table_of=None):
    """The rANS stream (integer-payloads §2, without its u32 length) of
    symbols (ints) against tables [(cdf, offset), ...], symbol i against
    tables[table_of[i]] (table 0 for all when table_of is None)."""
    sym = np.ascontiguousarray(symbols, dtype=np.int32)
    keep, ptrs, lens, offs = _tables(tables)
    tof = _table_of(table_of, sym.size)
    out, n = _lib.c_u8p(), ctypes.c_size_t()
    _check(lib.wai_rans_encode_symbols_tables(
        None, len(keep), ptrs, lens, offs, tof.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
        sym.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), sym.size, ctypes.byref(out),
        ctypes.byref(n)), "rans_encode")
    data = ctypes.string_at(out, n.value)
    lib.wai_write_free(None, out)
    return data


def rans_decode(stream, n, tables, table_of=None):
    """The n symbols of a stream rans_encode wrote (numpy int32), which must
    end canonically (stream_noncanonical otherwise)."""
    stream = bytes(stream)
    keep, ptrs, lens, offs = _tables(tables)
    tof = _table_of(table_of, n)
    out = np.zeros(n, dtype=np.int32)
    _check(lib.wai_rans_decode_symbols_tables(
        None, len(keep), ptrs, lens, offs, tof.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
        stream, len(stream), out.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), n),
        "rans_decode")
    return out


class Encoded:
    """What encode_image returns: payload (the WIH1's or WIM1's bytes); h, w (the
    picture's) and coded_h, coded_w (the payload's, each a multiple of 64:
    its decode is that size, the picture its top-left); sse and samples
    (the decode's top-left against the picture), psnr (dB; inf when sse is
    0) and bpp (bits per picture pixel); z_bytes, y_bytes (the streams)."""

    def __init__(self, r, payload):
        self.payload = payload
        for k in ("h", "w", "coded_h", "coded_w", "sse", "samples", "z_bytes", "y_bytes"):
            setattr(self, k, int(getattr(r, k)))
        self.psnr = 10 * math.log10(255 ** 2 * self.samples / self.sse) if self.sse else math.inf
        self.bpp = 8 * len(payload) / (self.h * self.w)

    def __repr__(self):
        return (f"Encoded({len(self.payload)} bytes, {self.w}x{self.h}, {self.bpp:.4f} bpp, "
                f"{self.psnr:.2f} dB)")


def _rgb8(rgb):
    """rgb as a C-contiguous uint8 [h, w, 3], or a TypeError / ValueError
    that says what was given. Nothing is converted: a float picture in
    [0, 1] cast to uint8 would be a black one, coded without complaint."""
    if not isinstance(rgb, np.ndarray):
        raise TypeError(f"rgb must be a numpy uint8 array [h, w, 3], not {type(rgb).__name__}")
    if rgb.dtype != np.uint8:
        hint = (" (a float picture in [0, 1]: (np.clip(x, 0, 1) * 255 + 0.5).astype(np.uint8))"
                if rgb.dtype.kind == "f" else "")
        raise TypeError(f"rgb must be uint8 (0..255), not {rgb.dtype}{hint}")
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"rgb must be [h, w, 3] (RGB, channels last), not {list(rgb.shape)}"
                         + (" (a grey picture: np.repeat(x[..., None], 3, axis=2))"
                            if rgb.ndim == 2 else ""))
    if rgb.shape[0] < 1 or rgb.shape[1] < 1:
        raise ValueError(f"rgb is empty: {list(rgb.shape)}")
    return np.ascontiguousarray(rgb)


QUALITY_MAX = 8


def quality_set(sets, quality):
    """The set of rate point `quality` (1..8) in the folder of rate points
    `sets` (one set a point, named q1, q3, ...: examples/hyperprior/sets),
    as `wai encode --quality` picks it: sets/qQ. A quality the folder lacks
    is a ValueError naming those it has, never the nearest one: a payload
    decodes against the set it was coded with alone."""
    if isinstance(quality, bool) or not isinstance(quality, int):
        raise TypeError(f"quality must be an int 1..{QUALITY_MAX}, not {type(quality).__name__}")
    if not 1 <= quality <= QUALITY_MAX:
        raise ValueError(f"quality must be 1..{QUALITY_MAX}, not {quality}")
    if not isinstance(sets, (str, os.PathLike)):
        raise TypeError("quality picks a set from a folder of rate points: give the folder's path as set")
    d = os.path.join(os.fspath(sets), f"q{quality}")
    if not os.path.isdir(d):
        raise ValueError(f"quality {quality}: {os.fspath(sets)} has no q{quality} "
                         f"(its rate points: {quality_points(sets) or 'none'})")
    return d


def quality_points(sets):
    """The rate points (ints, ascending) a folder of sets holds."""
    out = []
    for name in os.listdir(os.fspath(sets)):
        if (name[:1] == "q" and name[1:].isdigit() and 1 <= int(name[1:]) <= QUALITY_MAX
                and os.path.isdir(os.path.join(os.fspath(sets), name))):
            out.append(int(name[1:]))
    return sorted(out)


# The picture encoders: capability -> (the member that marks one of its sets,
# the library's encoder, its result, the result's free).
_IMAGE_ENCODERS = {
    "wai.neural.int_hyper": ("entropy.json", "wai_hyper_encode", _lib.HyperEncodeResult,
                             "wai_hyper_encode_result_free"),
    "wai.neural.int_mlicpp": ("model.wmb", "wai_mlic_encode", _lib.MlicEncodeResult,
                              "wai_mlic_encode_result_free"),
}


def encode_image(rgb, set, threads=0, quality=None, max_memory=DEFAULT_MAX_MEMORY,
                 capability="wai.neural.int_hyper"):
    """A picture's payload: a WIH1 (capability "wai.neural.int_hyper", the
    default) or a WIM1 ("wai.neural.int_mlicpp", coded in 4 channel
    slices), of rgb (a numpy uint8 array [h, w, 3]; anything else is a
    TypeError or ValueError saying what it got: nothing is cast) against a
    set of the capability that holds the encoder's members too
    (analysis.webnn.json, analysis.f32): a directory or a mapping of names
    to bytes. With quality (1..8), set is a folder of rate points and the
    set is quality_set(set, quality): decode the payload against that one.
    The library's encoder (wai_hyper_encode, wai_mlic_encode): the analysis
    in float, then the decoder's integer arithmetic; the payload is decoded
    again and measured. The set is read within max_memory, as decode reads
    it."""
    if capability not in _IMAGE_ENCODERS:
        raise ValueError(f"capability must be one of {', '.join(sorted(_IMAGE_ENCODERS))}, "
                         f"not {capability!r}")
    marker, encode, result, free = _IMAGE_ENCODERS[capability]
    if quality is not None:
        set = quality_set(set, quality)
    elif isinstance(set, (str, os.PathLike)) and os.path.isdir(os.fspath(set)) \
            and not os.path.exists(os.path.join(os.fspath(set), marker)):
        points = quality_points(set)
        if points:
            raise ValueError(f"{os.fspath(set)} is a folder of rate points {points}: "
                             "pick one with quality=Q")
    a = _rgb8(rgb)
    members = _members(set, max_memory=max_memory)
    ctx = _Context(threads)
    s = _Set(ctx, members)
    try:
        r = result()
        _check(getattr(lib, encode)(ctx.ptr, s.ptr, a.ctypes.data_as(ctypes.c_char_p), a.shape[0],
                                    a.shape[1], None, ctypes.byref(r)), "encode_image")
        try:
            payload = ctypes.string_at(r.payload, r.payload_len)
            return Encoded(r, payload)
        finally:
            getattr(lib, free)(ctx.ptr, ctypes.byref(r))
    finally:
        s.close()
        ctx.close()
