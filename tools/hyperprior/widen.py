#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""A hyperprior checkpoint with a wider latent: M channels -> M2, the
trained weights kept, so a high rate point gets more latent channels
without training from the start.

    /usr/bin/python3 tools/hyperprior/widen.py STATE --M 192 --out INIT.pt

At q7 every one of the 96 channels carries symbols (docs/hyperprior.md,
"Rate and distortion"): the latent's width bounds the distortion there,
not dead channels. The new channels start as a function-preserving
extension, except g_s's reading of them: g_a's new outputs take torch's
default initialisation; h_a reads them with zero weights (z is
unchanged); h_s's hidden layers grow the same way (new units' outgoing
weights zero), its new scales are a constant 1.0 and its new means 0;
g_s reads the new channels through weights of 1/100 of the default, so
that their gradient is not zero and they are learnt. Train the result
with train.py --init INIT.pt --M M2 (a fresh optimiser)."""
import argparse
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "learned"))
import checkpoint  # noqa: E402
import model  # noqa: E402


def widen(sd, m2, seed=20261204):
    n, m = model.widths(sd)
    if m2 <= m:
        raise SystemExit(f"M is {m}: widen to more channels than that")
    torch.manual_seed(seed)
    out = model.MeanScaleHyperprior(n, m2).state_dict()
    old = {k: v.float() for k, v in sd.items()}
    h, h2 = m * 3 // 2, m2 * 3 // 2
    for k, v in old.items():
        if k not in out:
            raise SystemExit(f"{k}: not a hyperprior parameter")
        if out[k].shape == v.shape:
            out[k] = v.clone()
    # g_a's last conv [M, N, 5, 5]: old outputs kept, new ones as initialised.
    out["g_a.6.weight"][:m] = old["g_a.6.weight"]
    out["g_a.6.bias"][:m] = old["g_a.6.bias"]
    # h_a's first conv [N, M, 3, 3]: the new channels read with zeros.
    out["h_a.0.weight"].zero_()
    out["h_a.0.weight"][:, :m] = old["h_a.0.weight"]
    # h_s.0, transposed [N, M]: new hidden units as initialised (their
    # outgoing weights below are zero); biases of the new ones 0.
    out["h_s.0.weight"][:, :m] = old["h_s.0.weight"]
    out["h_s.0.bias"][:m] = old["h_s.0.bias"]
    out["h_s.0.bias"][m:] = 0
    # h_s.2, transposed [M, 3M/2]: new inputs zero, new outputs as initialised.
    out["h_s.2.weight"][m:] = 0
    out["h_s.2.weight"][:m, :h] = old["h_s.2.weight"]
    out["h_s.2.bias"][:h] = old["h_s.2.bias"]
    out["h_s.2.bias"][h:] = 0
    # h_s.4, conv [2M, 3M/2, 3, 3]: scales then means, each M wide.
    w, b = old["h_s.4.weight"], old["h_s.4.bias"]
    out["h_s.4.weight"].zero_()
    out["h_s.4.bias"].zero_()
    out["h_s.4.weight"][:m, :h] = w[:m]
    out["h_s.4.bias"][:m] = b[:m]
    out["h_s.4.bias"][m:m2] = 1.0
    out["h_s.4.weight"][m2:m2 + m, :h] = w[m:]
    out["h_s.4.bias"][m2:m2 + m] = b[m:]
    # g_s.0, transposed [M, N]: new inputs at 1/100 of the default.
    out["g_s.0.weight"][m:] *= 0.01
    out["g_s.0.weight"][:m] = old["g_s.0.weight"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("state", help="a checkpoint or a training state")
    ap.add_argument("--M", type=int, required=True, help="the new latent width")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sd = widen(checkpoint.weights(a.state), a.M)
    torch.save(sd, a.out)
    print(f"wrote {a.out}: M {a.M}")


if __name__ == "__main__":
    main()
