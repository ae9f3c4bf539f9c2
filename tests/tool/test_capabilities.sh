#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# `wai capabilities`: the registry as a table and as JSON, every capability
# with its class, registered tier, decoder and set members
# (docs/dispatch.md, "The registry").
# usage: tests/tool/test_capabilities.sh WAI_BINARY
set -u
WAI=${1:?usage: test_capabilities.sh WAI_BINARY}
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# --- the table ----------------------------------------------------------------
expect_exit 0 "capabilities" -- "$WAI" capabilities
cp "$TMP/out" "$TMP/table"
# The header, then one row a capability: name, format, class, tier, decodes, set.
read -r -a head <"$TMP/table"
[ "${head[*]}" = "capability format class tier decodes set" ] && ok || fail "header: ${head[*]}"
[ "$(wc -l <"$TMP/table")" -eq 13 ] && ok || fail "table has $(wc -l <"$TMP/table") lines, want 13"

# row CAP FORMAT CLASS TIER DECODES SET: the table's row of CAP, whitespace-
# separated. DECODES "?" takes yes or no: decoders land one issue at a time,
# and --json is checked against the table below.
row() {
    local got want=$*
    got=$(awk -v cap="$1" '$1 == cap { $1 = $1; print }' "$TMP/table")
    if [ "$5" = "?" ]; then
        want=${want/ ? / yes }
        [ "$got" = "${want}" ] || want=${want/ yes / no }
    fi
    if [ "$got" = "$want" ]; then ok; else fail "row $1: got '$got', want '$*'"; fi
}
row wai.video.int_motion WIV1 NeuralIntegerExact decode-equivalence yes -
row wai.video.int_hyper WIV1 NeuralIntegerExact decode-equivalence "?" g_s.whm,h_s.whm,entropy.json
row wai.neural.int_hyper WIH1 NeuralIntegerExact decode-equivalence "?" g_s.whm,h_s.whm,entropy.json
row wai.audio.int_codec WIA1 NeuralIntegerExact decode-equivalence "?" model.wam
row wai.splat.int_codec WIS1 NeuralIntegerExact decode-equivalence "?" g_s.whm
row wai.video.int_motion.frame WIF1 NeuralIntegerExact decode-equivalence yes -
row wai.video.int_hyper.frame WIF1 NeuralIntegerExact decode-equivalence "?" g_s.whm,h_s.whm,entropy.json
row wai.video.int_cond WIC1 NeuralIntegerExact decode-equivalence "?" model.wcb
row wai.video.int_cond.frame WCF1 NeuralIntegerExact decode-equivalence "?" model.wcb
row wai.neural.int_synth int_synth NeuralIntegerExact decode-equivalence "?" int_synth.json
row wai.neural.int_mlicpp WIM1 NeuralIntegerExact decode-equivalence "?" model.wmb
row wai.neural.bmshj2018 B18F Neural none yes cdfs_q3.json

# --- --json ---------------------------------------------------------------------
expect_exit 0 "capabilities --json" -- "$WAI" capabilities --json
# Strict JSON (no member twice), the same rows as the table, the members in
# a fixed order.
if python3 - "$TMP/out" "$TMP/table" >"$TMP/py" 2>&1 <<'PY'
import json, sys

def strict(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("member twice: %r" % keys)
    return dict(pairs)

caps = json.load(open(sys.argv[1]), object_pairs_hook=strict)
text = open(sys.argv[1]).read()
rows = [line.split() for line in open(sys.argv[2])][1:]
assert isinstance(caps, list) and len(caps) == len(rows) == 12, len(caps)
for c, r in zip(caps, rows):
    order = ["capability", "format"] + (["keyframe"] if "keyframe" in c else []) + \
            ["frame_form", "class", "tier", "set", "decodes", "output"]
    assert list(c) == order, list(c)
    # What its decodes give, by its format (a clip's or frame's frames, a
    # picture, samples, planes).
    kind = {"WIV1": "frame", "WIF1": "frame", "WIC1": "frame", "WCF1": "frame", "WIH1": "image",
            "WIM1": "image", "int_synth": "image", "B18F": "image", "WIA1": "pcm", "WIS1": "planes"}
    assert c["output"] == kind[c["format"]], c
    assert c["format"] in ("WIV1", "WIF1") or "keyframe" not in c, c
    want = [c["capability"], c["format"], c["class"], c["tier"],
            "yes" if c["decodes"] else "no", ",".join(c["set"]) or "-"]
    assert want == r, (want, r)
    assert c["tier"] in ("none", "entropy-consistency", "decode-equivalence"), c
b = [c for c in caps if c["capability"] == "wai.neural.bmshj2018"]
assert b == [{"capability": "wai.neural.bmshj2018", "format": "B18F", "frame_form": False,
              "class": "Neural", "tier": "none", "set": ["cdfs_q3.json"],
              "decodes": True, "output": "image"}], b
hyper = [c for c in caps if c["capability"] == "wai.video.int_hyper"][0]
assert hyper["keyframe"] == 1 and hyper["frame_form"] is False, hyper
assert text.endswith("]\n"), "one trailing newline"
PY
then ok; else fail "capabilities --json: $(cat "$TMP/py")"; fi

# --- usage and help ---------------------------------------------------------------
expect_exit 2 "capabilities extra argument" -- "$WAI" capabilities --frob
expect_contains "usage error names the argument" "--frob" "$TMP/err"
expect_exit 2 "capabilities operand" -- "$WAI" capabilities clip.wiv1
expect_exit 0 "help capabilities" -- "$WAI" help capabilities
for word in --json class tier decodes "yes/no" replicate; do
    expect_contains "help capabilities mentions $word" "$word" "$TMP/out"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
