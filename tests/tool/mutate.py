#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Mutation run of `wai decode --json` (issue 10).

Takes the corpus's valid payloads and their parameter sets, mutates a
payload or one set member (byte flips, runs of 0x00/0xFF, interesting u32s
written over a field, cuts, extensions, repeated chunks), and decodes each
mutant through the tool. Every run must:
  - exit 0 or 1 with one JSON object carrying "status" on stdout;
  - finish within the timeout (never a hang);
  - peak at no more resident memory than the payload's declared memory
    (`wai inspect --cost`'s working_bytes, which holds the output) plus the
    inputs' bytes plus the tool's fixed overhead (docs/reading-inputs.md).
Under a sanitizer (ASAN_OPTIONS set) the memory check is skipped: the
shadow memory is not the decode's.

usage: mutate.py WAI N [SEED]     prints "N passed, N failed"
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "corpus")
OVERHEAD = 32 << 20          # the tool's fixed overhead, docs/reading-inputs.md
TIMEOUT = 60
INTERESTING = [0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 1 << 20, 1 << 26,
               (1 << 26) + 1, 1 << 30, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF]


def cases():
    """(payload path, set dir or None) of every valid case with one payload."""
    out = []
    with open(os.path.join(CORPUS, "index.txt")) as f:
        for line in f:
            p = line.split()
            if len(p) < 6 or p[0] != "decode" or p[2] != "ok" or "," in p[4]:
                continue
            s = os.path.join(CORPUS, p[6]) if len(p) > 6 and p[6] != "-" else None
            out.append((os.path.join(CORPUS, p[4]), s))
    return out


def mutate(rng, data):
    b = bytearray(data)
    kind = rng.randrange(7)
    if kind == 0 and b:
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    elif kind == 1 and b:
        at = rng.randrange(len(b))
        n = rng.randint(1, 16)
        b[at:at + n] = bytes([rng.choice([0, 0xFF])]) * len(b[at:at + n])
    elif kind == 2 and len(b) >= 4:
        at = rng.randrange(0, len(b) - 3) & ~3
        b[at:at + 4] = rng.choice(INTERESTING).to_bytes(4, rng.choice(["little", "big"]))
    elif kind == 3 and b:
        del b[rng.randrange(len(b)):]
    elif kind == 4:
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif kind == 5 and b:
        at = rng.randrange(len(b))
        b[at:at] = b[at:at + rng.randint(1, 256)]
    elif b:
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def run(cmd):
    """(exit code or None on timeout, stdout bytes, peak RSS in bytes)."""
    with tempfile.TemporaryFile() as out, open(os.devnull, "wb") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        hung = [False]

        def on_alarm(*_):
            hung[0] = True
            p.kill()
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(TIMEOUT)
        _, status, ru = os.wait4(p.pid, 0)
        signal.alarm(0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return (None if hung[0] else p.returncode), out.read(), ru.ru_maxrss * 1024


def declared(wai, payload, set_dir):
    cmd = [wai, "inspect", "--cost"] + (["--set", set_dir] if set_dir else []) + [payload]
    _, out, _ = run(cmd)
    try:
        return json.loads(out.decode().splitlines()[0]).get("cost", {}).get("working_bytes", 0)
    except (ValueError, IndexError):
        return 0


def main():
    wai, n = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    check_rss = not os.environ.get("ASAN_OPTIONS")
    base = cases()
    passed = failed = 0
    statuses = {}
    peak = 0
    work = tempfile.mkdtemp(prefix="wai_mutate.")
    try:
        amp = os.path.join(CORPUS, "neural", "amplify")
        for i in range(n):
            payload, set_dir = base[rng.randrange(len(base))]
            # One case in a hundred: the set that declares 243 MB for 16
            # units of work, whose decode must stay within what it declares.
            if rng.random() < 0.01:
                payload, set_dir = os.path.join(amp, "attrs.wis1"), os.path.join(amp, "set")
            data = open(payload, "rb").read()
            mset = None
            what = "payload"
            if set_dir and rng.random() < 0.3:
                mset = os.path.join(work, "set")
                shutil.rmtree(mset, ignore_errors=True)
                shutil.copytree(set_dir, mset)
                members = sorted(os.listdir(mset))
                m = os.path.join(mset, rng.choice(members))
                what = "member " + os.path.basename(m)
                with open(m, "rb") as f:
                    mutant = mutate(rng, f.read())
                with open(m, "wb") as f:
                    f.write(mutant)
            else:
                data = mutate(rng, data)
            use_set = mset or set_dir
            path = os.path.join(work, "p" + os.path.splitext(payload)[1])
            with open(path, "wb") as f:
                f.write(data)
            cmd = [wai, "decode", "--json"] + (["--set", use_set] if use_set else []) + [path]
            rc, out, rss = run(cmd)
            why = None
            if rc is None:
                why = "hung past %d s" % TIMEOUT
            elif rc not in (0, 1):
                why = "exit %d" % rc
            else:
                try:
                    obj = json.loads(out.decode())
                    if "status" not in obj:
                        why = "no status"
                except ValueError:
                    why = "not one JSON object: %r" % out[:200]
            if not why and check_rss and rss > OVERHEAD:
                inputs = len(data) + sum(os.path.getsize(os.path.join(use_set, m))
                                         for m in os.listdir(use_set)) if use_set else len(data)
                bound = declared(wai, path, use_set) + inputs + OVERHEAD
                if rss > bound:
                    why = "resident %d bytes past declared + inputs + overhead %d" % (rss, bound)
            peak = max(peak, rss)
            if rc in (0, 1) and not why:
                st = json.loads(out.decode())["status"]
                statuses[st] = statuses.get(st, 0) + 1
            if why:
                failed += 1
                keep = os.path.join(work, "fail%d" % failed)
                os.makedirs(keep)
                shutil.copy(path, keep)
                if mset:
                    shutil.copytree(mset, os.path.join(keep, "set"))
                print("FAIL case %d (%s of %s): %s" % (i, what, os.path.relpath(payload, CORPUS), why))
            else:
                passed += 1
    finally:
        if not failed:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("failing cases kept in " + work)
    print("statuses: " + ", ".join("%s %d" % kv for kv in sorted(statuses.items(),
                                                                   key=lambda kv: -kv[1])))
    print("largest resident set: %.1f MiB%s" % (peak / 2**20, "" if check_rss else
                                                 " (sanitizer: not checked)"))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
