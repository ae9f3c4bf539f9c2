#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Compares hyperprior checkpoints on corpus.VALIDATION (pictures neither
trained on nor reported), so that a choice between runs is made without
the held-out photographs:

    /usr/bin/python3 tools/learned/validate.py --lmbda 0.09 A.state B.state ...

Each picture is cut as Kodak's are and coded as the decoder sees it (z and
y rounded about their median and mean: model.code); the rate is the
model's own estimate of those symbols' bits (the entropy coder's tables
are its quantised form), the distortion the float synthesis's. Prints,
for each checkpoint, each picture's bpp and PSNR and the mean of
lmbda * 255^2 * MSE + bpp, the loss training minimises: lower is better."""
import argparse
import math
import os
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "hyperprior"))
import checkpoint  # noqa: E402
import corpus  # noqa: E402
import model  # noqa: E402


@torch.no_grad()
def measure(net, rgb):
    """(bpp, mse) of rgb (H x W x 3 uint8) as the decoder would rebuild it."""
    x = torch.from_numpy(rgb.astype(np.float32).transpose(2, 0, 1)[None] / 255.0)
    z_sym, _, y_hat, scales, means = net.code(x)
    med = net.entropy_bottleneck.medians().reshape(1, -1, 1, 1)
    z_lik = net.entropy_bottleneck.likelihood(z_sym + med)
    y_lik = model.gaussian_likelihood(y_hat, scales, means)
    bits = -(torch.log2(z_lik).sum() + torch.log2(y_lik).sum()).item()
    x_hat = torch.clamp(net.g_s(y_hat), 0, 1)
    x_hat = torch.round(x_hat * 255) / 255
    return bits / (rgb.shape[0] * rgb.shape[1]), torch.mean((x_hat - x) ** 2).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ckpt", nargs="+")
    ap.add_argument("--lmbda", type=float, required=True, help="the rate point's, as trained")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    pics, missing = corpus.available(corpus.VALIDATION)
    if missing:
        raise SystemExit("validation pictures missing: apt-get install " + " ".join(missing))
    rgbs = [(os.path.basename(p), corpus.kodak_cut(corpus.load_rgb(p))) for _, p in pics]
    for c in a.ckpt:
        net = model.from_weights(checkpoint.weights(c))
        losses = []
        for name, rgb in rgbs:
            bpp, mse = measure(net, rgb)
            losses.append(a.lmbda * 255 ** 2 * mse + bpp)
            print(f"{c} {name}: {bpp:.3f} bpp {10 * math.log10(1 / max(mse, 1e-12)):.2f} dB")
        print(f"{c}: mean loss {np.mean(losses):.4f} (lmbda {a.lmbda})")


if __name__ == "__main__":
    main()
