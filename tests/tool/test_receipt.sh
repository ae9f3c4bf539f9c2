#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Receipts through the tool (integer-payloads §15, docs/receipts.md): every
# fixture of tests/corpus/receipts/index.txt by `wai receipt verify`; then
# keygen, seal and verify, an encode with its receipt, the energy meter on a
# machine with no counter, each member of a sealed receipt tampered, and
# the usage errors.
# usage: tests/tool/test_receipt.sh WAI_BINARY
set -u
WAI=${1:?usage: test_receipt.sh WAI_BINARY}
WAI=$(cd "$(dirname "$WAI")" && pwd)/$(basename "$WAI")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
R=$ROOT/tests/corpus/receipts
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

if ! "$WAI" keygen -o "$TMP/probe.key" >/dev/null 2>"$TMP/err"; then
    if grep -q 'no Ed25519' "$TMP/err"; then
        echo "test_receipt: this wai has no Ed25519 (libsodium): skipped"
        echo "0 passed, 0 failed, 1 skipped"
        exit 0
    fi
fi

# The fixtures: exit status, then the status and fault verify prints.
while read -r name want status fault args; do
    case "$name" in ''|'#'*) continue ;; esac
    extra=()
    case "$args" in
    clip) extra=("$R/clip.wiv1") ;;
    clip+source) extra=("$R/clip.wiv1" --source "$R/source.y4m") ;;
    broken) extra=("$R/broken.wiv1") ;;
    pubkey) extra=(--pubkey "$R/key.pub") ;;
    esac
    expect_exit "$want" "verify $name" -- "$WAI" receipt verify "$R/$name" "${extra[@]}"
    if [ "$status" = ok ]; then
        expect_contains "verify $name" "verdict: " "$TMP/out"
    else
        expect_contains "verify $name" "$status ($fault)" "$TMP/err"
    fi
done <"$R/index.txt"

# The commitments and receipt hashes of the good fixtures, recomputed from
# §15's text by receipt_kat.py with b3sum (no libwai in the loop).
if command -v b3sum >/dev/null; then
    expect_exit 0 "decode the corpus clip" -- "$WAI" decode "$R/clip.wiv1" -o "$TMP/clip.rgb"
    for name in decode.json decode_counter_parent.json decode_instrument.json decode_legacy_shunt.json; do
        expect_exit 0 "known answers $name" -- /usr/bin/python3 "$ROOT/tests/tool/receipt_kat.py" \
            "$R/$name" "$R/clip.wiv1" "$TMP/clip.rgb"
    done
    # The source frames: Cmono, so each sample thrice.
    /usr/bin/python3 -c "
import sys
d = open('$R/source.y4m', 'rb').read()
body = d[d.index(b'\n') + 1:]
out = b''.join(bytes(b for b in f for _ in range(3)) for f in body.split(b'FRAME\n')[1:])
open('$TMP/source.rgb', 'wb').write(out)"
    for name in encode.json encode_estimator.json; do
        expect_exit 0 "known answers $name" -- /usr/bin/python3 "$ROOT/tests/tool/receipt_kat.py" \
            "$R/$name" "$R/clip.wiv1" "$TMP/source.rgb"
    done
fi

# keygen: a secret of mode 0600, a public key, neither replaced without -y.
expect_exit 0 "keygen" -- "$WAI" keygen -o "$TMP/k"
[ "$(stat -c %a "$TMP/k")" = 600 ] && ok || fail "keygen: the secret key's mode is $(stat -c %a "$TMP/k")"
[ "$(tr -d '\n' <"$TMP/k.pub")" = "$(tr -d '\n' <"$TMP/out")" ] && ok || fail "keygen: KEY.pub is not the key printed"
grep -qE '^[0-9a-f]{64}$' "$TMP/k" && ok || fail "keygen: KEY is not 64 hex digits"
expect_exit 2 "keygen over a key" -- "$WAI" keygen -o "$TMP/k"
expect_exit 0 "keygen -y" -- "$WAI" keygen -y -o "$TMP/k2"

# seal, then verify: consistent, re-derived, the signer pinned.
clip=$ROOT/examples/hello.wiv1
expect_exit 0 "seal" -- "$WAI" receipt seal --key "$TMP/k" --id "sink one" "$clip" -o "$TMP/r.json"
expect_contains "seal: no counter here" "energy: unmetered" "$TMP/err"
expect_exit 0 "verify" -- "$WAI" receipt verify "$TMP/r.json"
expect_contains "verify" "verdict: consistent, signature valid" "$TMP/out"
expect_contains "verify" '"sink one"' "$TMP/out"
expect_exit 0 "re-derive" -- "$WAI" receipt verify "$TMP/r.json" "$clip" --pubkey "$TMP/k.pub"
expect_contains "re-derive" "verdict: re-derived from" "$TMP/out"
expect_exit 1 "another signer" -- "$WAI" receipt verify "$TMP/r.json" --pubkey "$TMP/k2.pub"
expect_contains "another signer" "receipt_inconsistent (signer)" "$TMP/err"
expect_exit 1 "another clip" -- "$WAI" receipt verify "$TMP/r.json" "$R/clip.wiv1"
expect_contains "another clip" "receipt_not_rederived (codestream_hash)" "$TMP/err"
# The same clip sealed twice: the same receipt (no clock, no randomness).
expect_exit 0 "seal to stdout" -- "$WAI" receipt seal --key "$TMP/k" --id "sink one" "$clip" -o -
cmp -s "$TMP/out" "$TMP/r.json" && ok || fail "seal: a second seal differs"
# A parent links the second receipt to the first.
hash=$(sed -n 's/.*"receipt_hash": "\([0-9a-f]*\)".*/\1/p' "$TMP/r.json")
expect_exit 0 "seal with parent" -- "$WAI" receipt seal --key "$TMP/k" --parent "$hash" "$clip" -o "$TMP/r2.json"
expect_contains "seal with parent" "\"parent_receipt_hash\": \"$hash\"" "$TMP/r2.json"
expect_exit 0 "verify with parent" -- "$WAI" receipt verify "$TMP/r2.json" "$clip"

# A powercap folder whose counter does not move: unmetered, said why.
mkdir -p "$TMP/pc/intel-rapl:0/intel-rapl:0:0"
echo 1000 >"$TMP/pc/intel-rapl:0/energy_uj"
echo 262143328850 >"$TMP/pc/intel-rapl:0/max_energy_range_uj"
expect_exit 0 "seal, a still counter" -- "$WAI" receipt seal --key "$TMP/k" --powercap "$TMP/pc" "$clip" -o "$TMP/r3.json"
expect_contains "seal, a still counter" "energy: unmetered (the RAPL counters did not advance)" "$TMP/err"
expect_contains "seal, a still counter" '"energy_provenance": null' "$TMP/r3.json"

# A counter that moves: energy_uj a FIFO the test feeds, the meter reading
# it when it looks for domains, before the decode and after it (1000, 1000,
# then 2501000 uJ): a metered receipt of 2.5 J, OnChipCounter, that verifies.
# The feeder holds the FIFO open read-write for the whole seal, so the pipe
# lives between the meter's opens (a value written waits in it for the next
# fopen, which never blocks and never meets an end of file), and writes each
# value only once the one before has been read (FIONREAD is 0): each fscanf
# gets exactly its one value, and nothing depends on when the tool opens or
# closes the file (polling for those cost minutes under CI's load).
mkdir -p "$TMP/pm/intel-rapl:0"
fifo="$TMP/pm/intel-rapl:0/energy_uj"
mkfifo "$fifo"
echo 262143328850 >"$TMP/pm/intel-rapl:0/max_energy_range_uj"
/usr/bin/python3 - "$fifo" "$WAI" receipt seal --key "$TMP/k" --powercap "$TMP/pm" "$clip" \
    -o "$TMP/r4.json" >"$TMP/out" 2>"$TMP/err" <<'PY'
import array, fcntl, os, subprocess, sys, termios, time
fifo, cmd = sys.argv[1], sys.argv[2:]
fd = os.open(fifo, os.O_RDWR)
tool = subprocess.Popen(cmd)  # fd is not inherited (O_CLOEXEC)
def unread():
    n = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, n)
    return n[0]
fed = 0
for v in (1000, 1000, 2501000):
    os.write(fd, b"%d\n" % v)
    deadline = time.monotonic() + 60
    while unread() and tool.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    if unread():
        break
    fed += 1
code = tool.wait(timeout=120)
os.close(fd)
print("fed", fed)
sys.exit(code)
PY
rc=$?
((rc == 0)) && ok || fail "seal, a moving counter: exit $rc: $(head -c 300 "$TMP/err")"
fed=0; grep -q "^fed 3$" "$TMP/out" && fed=1
((fed == 1)) && ok || fail "the meter opened the counter three times"
expect_contains "metered: the class" '"energy_provenance": "OnChipCounter"' "$TMP/r4.json"
expect_contains "metered: 2.5 J" '"joules_micro": 2500000' "$TMP/r4.json"
expect_exit 0 "verify the metered receipt" -- "$WAI" receipt verify "$TMP/r4.json" "$clip"

# Each member tampered in the text: refused, exit 1, with its reason.
for member in codestream_hash clip_hash h w merkle_root work_pixel_ops joules_micro signer_pubkey signer_id sig receipt_hash frames; do
    /usr/bin/python3 - "$TMP/r.json" "$TMP/t.json" "$member" <<'PY'
import json, sys
src, dst, m = sys.argv[1:]
text = open(src).read()
r = json.loads(text)
v = r[m]
if isinstance(v, int): r[m] = v + 1
elif m == "frames": r[m][1] = r[m][1][:-1] + ("0" if r[m][1][-1] != "0" else "1")
elif m == "signer_id": r[m] = v + "!"
else: r[m] = v[:-1] + ("0" if v[-1] != "0" else "1")
open(dst, "w").write(json.dumps(r, indent=1))
PY
    expect_exit 1 "tampered $member" -- "$WAI" receipt verify "$TMP/t.json" "$clip"
    expect_contains "tampered $member" "receipt_refused (" "$TMP/err"
done
# The members reordered and reindented: read as the same receipt.
/usr/bin/python3 -c "
import json, sys
r = json.load(open('$TMP/r.json'))
json.dump(dict(reversed(list(r.items()))), open('$TMP/t.json', 'w'))"
expect_exit 0 "reordered" -- "$WAI" receipt verify "$TMP/t.json" "$clip"

# An encode with its receipt, re-derived from the clip and its source.
expect_exit 0 "encode --receipt" -- "$WAI" encode --capability wai.video.int_motion --q 4 \
    "$R/source.y4m" -o "$TMP/c.wiv1" --receipt "$TMP/e.json" --key "$TMP/k" --id enc
expect_contains "encode --receipt" "receipt energy: unmetered" "$TMP/err"
expect_contains "encode --receipt" '"profile": "wai.video.int_motion/encode-receipt"' "$TMP/e.json"
expect_contains "encode --receipt" '"search": 8' "$TMP/e.json"
expect_exit 0 "verify encode" -- "$WAI" receipt verify "$TMP/e.json" "$TMP/c.wiv1" --source "$R/source.y4m"
expect_exit 2 "verify encode, no source" -- "$WAI" receipt verify "$TMP/e.json" "$TMP/c.wiv1"
expect_exit 1 "verify encode, another source" -- "$WAI" receipt verify "$TMP/e.json" "$TMP/c.wiv1" \
    --source "$ROOT/tests/corpus/receipts/source.y4m" --pubkey "$TMP/k2.pub"
expect_exit 2 "encode --receipt without --key" -- "$WAI" encode --capability wai.video.int_motion \
    "$R/source.y4m" -o "$TMP/c2.wiv1" --receipt "$TMP/e2.json"
expect_exit 2 "encode --key without --receipt" -- "$WAI" encode --capability wai.video.int_motion \
    "$R/source.y4m" -o "$TMP/c2.wiv1" --key "$TMP/k"
[ ! -e "$TMP/c2.wiv1" ] && ok || fail "a refused encode wrote its output"

# Usage errors: exit 2, no file written.
expect_exit 2 "seal without --key" -- "$WAI" receipt seal "$clip" -o "$TMP/u.json"
expect_exit 2 "seal, a bad key file" -- "$WAI" receipt seal --key "$clip" "$clip" -o "$TMP/u.json"
expect_exit 2 "seal, a bad parent" -- "$WAI" receipt seal --key "$TMP/k" --parent 12 "$clip" -o "$TMP/u.json"
expect_exit 2 "seal over a receipt" -- "$WAI" receipt seal --key "$TMP/k" "$clip" -o "$TMP/r.json"
expect_exit 1 "seal a refused clip" -- "$WAI" receipt seal --key "$TMP/k" "$R/broken.wiv1" -o "$TMP/u.json"
expect_contains "seal a refused clip" "refused: trailing" "$TMP/err"
[ ! -e "$TMP/u.json" ] && ok || fail "a refused seal wrote its receipt"
expect_exit 2 "receipt with no subcommand" -- "$WAI" receipt
expect_exit 2 "verify, no receipt" -- "$WAI" receipt verify
expect_exit 2 "verify -o" -- "$WAI" receipt verify "$TMP/r.json" -o "$TMP/x"
expect_exit 2 "verify --source with a decode receipt" -- "$WAI" receipt verify "$TMP/r.json" "$clip" --source "$R/source.y4m"
expect_exit 0 "help receipt" -- "$WAI" help receipt
expect_exit 0 "help keygen" -- "$WAI" keygen --help

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
