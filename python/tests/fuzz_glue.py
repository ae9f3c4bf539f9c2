# SPDX-License-Identifier: BSD-2-Clause
"""Hostile inputs through the Python module (python/wai), the glue a
libFuzzer target cannot reach: the corpus's decodable payloads and their
sets, mutated, through wai.decode, wai.inspect, wai.route, wai.set_listing
and wai.rans_decode, with options drawn at random (offers, intents, pins,
capabilities, limits).

    WAI_LIBRARY=BUILD/libwai_python.so /usr/bin/python3 python/tests/fuzz_glue.py \\
        [ITERATIONS [SEED]]

Invariants: every call returns or raises wai.WaiError (never another
exception: the glue validates before it calls C); a WaiError's code is a
status libwai names and never invalid_argument (the glue passes C only
arguments it checked); a decode's outputs have the shapes their kind says;
a refused decode that reached the dispatch carries its report. A crash of
the process is a failure of the run. Ends with "N passed, N failed"; a
failing iteration prints its number and seed, which replay it alone."""
import os
import random
import sys
import traceback

here = os.path.dirname(os.path.abspath(__file__))
if "WAI_LIBRARY" in os.environ:
    sys.path.insert(0, os.path.dirname(here))
import wai  # noqa: E402

repo = os.path.dirname(os.path.dirname(here))
corpus = os.path.join(repo, "tests", "corpus")

CAPS = ["wai.video.int_motion", "wai.video.int_motion.frame", "wai.video.int_hyper",
        "wai.video.int_hyper.frame", "wai.neural.int_hyper", "wai.audio.int_codec",
        "wai.splat.int_codec", "wai.neural.int_synth", "wai.neural.int_mlicpp",
        "wai.video.int_cond", "wai.video.int_cond.frame", "wai.neural.bmshj2018",
        "wai.unknown", ""]
PATHS = ["npu", "gpu", "cpu", "int", "wgsl", "webnn", "npu,int", "cpu/webnn/float",
         "gpu/wgsl/exact", "cpu/wai-ops/int", "x/y/z", ",", "npu,npu,npu", "cpu/onnx-runtime/float"]
INTENTS = [None, "exact", "float", "display", "archive", "", "\u00e9"]


def seeds():
    """(capability, [payload bytes...], {member: bytes} or None) of each
    decodable case of tests/corpus/index.txt."""
    out, seen = [], set()
    with open(os.path.join(corpus, "index.txt")) as f:
        for line in f:
            p = line.split()
            if len(p) < 5 or p[0] != "decode" or p[2] != "ok" or p[1] in seen:
                continue
            seen.add(p[1])
            payloads = [open(os.path.join(corpus, x), "rb").read() for x in p[4].split(",")]
            members = None
            if len(p) > 6 and p[6] != "-":
                d = os.path.join(corpus, p[6])
                members = {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))
                           if os.path.isfile(os.path.join(d, n))}
            out.append((p[1], payloads, members))
    return out


def mutate(rng, b, other):
    b = bytearray(b)
    for _ in range(rng.choice([1, 1, 1, 2, 4, 8])):
        k = rng.randrange(7)
        if k == 0 and b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif k == 1 and b:
            b[rng.randrange(len(b))] = rng.choice([0, 1, 0x7F, 0x80, 0xFF, 0xFE])
        elif k == 2 and b:
            del b[rng.randrange(len(b)):]
        elif k == 3:
            at = rng.randrange(len(b) + 1)
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
        elif k == 4 and len(b) > 4:
            at = rng.randrange(len(b) - 4)
            b[at:at + 4] = rng.randrange(1 << 32).to_bytes(4, "little")
        elif k == 5 and other:
            at = rng.randrange(len(b) + 1)
            b[at:] = other[rng.randrange(len(other) + 1):]
        elif k == 6 and b:
            at = rng.randrange(len(b))
            n = rng.randrange(1, 17)
            b[at:at] = b[at:at + n]
    return bytes(b)


def check_decoded(d):
    assert isinstance(d.outputs, list)
    for o in d.outputs:
        a = o.array
        if o.kind in ("frame", "image"):
            assert a.ndim == 3 and a.shape[2] == 3 and str(a.dtype) == "uint8", o
        elif o.kind == "pcm":
            assert a.ndim == 1 and str(a.dtype) == "int16", o
        elif o.kind == "planes":
            assert a.ndim == 3 and a.shape[1] == a.shape[2], o
        else:
            raise AssertionError(f"output kind {o.kind}")


def check_error(e):
    assert isinstance(e.code, str) and e.code, e
    # An offer's text is the caller's to get right (wai_dispatch_parse_offer
    # judges it); every other argument the glue passes C, it made itself.
    assert e.code != "invalid_argument" or str(e).startswith("offer:"), \
        f"the glue passed C an argument it did not check: {e}"


OUTCOMES = {}


def note(what):
    OUTCOMES[what] = OUTCOMES.get(what, 0) + 1


def one(rng, cases):
    cap, payloads, members = rng.choice(cases)
    other = rng.choice(cases)[1][0]
    payload = payloads[0] if len(payloads) == 1 or rng.random() < 0.5 else rng.choice(payloads)
    if rng.random() < 0.9:
        payload = mutate(rng, payload, other)
    s = dict(members) if members else None
    if s and rng.random() < 0.3:
        name = rng.choice(sorted(s))
        if rng.random() < 0.2:
            del s[name]
        else:
            s[name] = mutate(rng, s[name], other)
    opts = {"max_cost": rng.choice([None, 0, 1, 1 << 16, 1 << 22]),
            "max_memory": rng.choice([None, 1 << 20, 1 << 28]), "threads": rng.choice([0, 1, 2])}
    if opts["max_cost"] is None:
        opts["max_cost"] = 1 << 24  # a mutated payload may declare minutes of legal work
    if rng.random() < 0.3:
        opts["offer"] = rng.choice(PATHS)
        opts["intent"] = rng.choice(INTENTS)
    which = rng.randrange(5)
    try:
        if which == 0:
            check_decoded(wai.decode(payload, set=s, capability=rng.choice([None, cap, rng.choice(CAPS)]),
                                     **opts))
        elif which == 1:
            r = wai.inspect(payload, set=s, capability=rng.choice([None, cap]))
            assert isinstance(r, dict) and "capability" in r
        elif which == 2:
            cands = [{"payload": payload, "set": s, "capability": cap}]
            for _ in range(rng.randrange(3)):
                c2, p2, m2 = rng.choice(cases)
                cands.append({"payload": mutate(rng, p2[0], other) if rng.random() < 0.5 else p2[0],
                              "set": m2, "capability": c2})
            d = wai.route(cands, max_cost=opts["max_cost"], max_memory=opts["max_memory"],
                          threads=opts["threads"])
            check_decoded(d)
        elif which == 3 and s:
            listing = wai.set_listing(s)
            assert isinstance(listing, bytes) and listing.startswith(b"{")
            pin = wai.set_pin(s)
            if rng.random() < 0.8:
                s["listing.json"] = listing  # a pin over several files resolves through it
            d = wai.decode(payloads[0], set=s, capability=cap, pin=pin if rng.random() < 0.5 else
                           mutate(rng, bytes.fromhex(pin), b"")[:32].ljust(32, b"\0"), **opts)
            check_decoded(d)
        else:
            n = rng.randrange(64)
            cdf = [0] + sorted(rng.randrange(1 << 16) for _ in range(rng.randrange(1, 5))) + [1 << 16]
            tables = [(cdf, rng.randrange(-8, 8))]
            out = wai.rans_decode(mutate(rng, payload[:64], other), n, tables)
            assert len(out) == n
    except wai.WaiError as e:
        check_error(e)
        note(e.code)
    except ValueError as e:
        # The glue's own refusal of a table or pin it will not pass to C.
        if which not in (3, 4):
            raise AssertionError(f"ValueError from call {which}: {e}")
        note("ValueError")
    else:
        note(("decode", "inspect", "route", "pin", "rans_decode")[which] + " ok")


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261204
    cases = seeds()
    passed = failed = 0
    for i in range(iterations):
        rng = random.Random(seed * 1000003 + i)
        try:
            one(rng, cases)
            passed += 1
        except Exception:
            failed += 1
            print(f"FAIL iteration {i} (seed {seed})")
            traceback.print_exc()
    print(f"fuzz_glue: {iterations} iterations over {len(cases)} capabilities, seed {seed}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(OUTCOMES.items(), key=lambda kv: -kv[1])))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
