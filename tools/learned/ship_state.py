#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Strips a training state to the form the repository ships (issue 60):
the weights alone, as float16, with the step and the model's kind and
shape, {"model", "weights_only": True, "step", "model_kind", "N", "M"}
(tools/learned/checkpoint.py's shipped), and nothing else: no Adam
moments, no generators' states. train.py writes this form itself at
every save, beside its working state (qN.run.state); this converts a
state of the older, full form, or a working state.

    /usr/bin/python3 tools/learned/ship_state.py IN [OUT]

OUT defaults to IN (rewritten in place). The weights written are the
state's own "model" tensors, unchanged (a state holds them as float16
already); the tool checks that they read back equal (torch.equal) and
prints the sizes before and after. A run resumed from OUT continues the
step with a fresh optimiser and fresh generators (train.py's docstring)."""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checkpoint  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp", metavar="IN")
    ap.add_argument("out", metavar="OUT", nargs="?")
    a = ap.parse_args()
    out = a.out or a.inp
    state = torch.load(a.inp, map_location="cpu")
    if not checkpoint.is_state(state):
        raise SystemExit(f"{a.inp} is not a training state (a checkpoint has no step to ship)")
    before = os.path.getsize(a.inp)
    ship = checkpoint.shipped(state)
    torch.save(ship, out + ".tmp")
    back = torch.load(out + ".tmp", map_location="cpu")
    if (sorted(back) != sorted(checkpoint.SHIPPED_KEYS) or list(back["model"]) != list(state["model"])
            or not all(torch.equal(back["model"][k], v) for k, v in state["model"].items())):
        os.remove(out + ".tmp")
        raise SystemExit(f"{a.inp}: the shipped weights do not read back equal; nothing written")
    os.replace(out + ".tmp", out)
    print(f"{a.inp} ({before} bytes, step {ship['step']}) -> {out} ({os.path.getsize(out)} bytes, weights alone)")


if __name__ == "__main__":
    main()
