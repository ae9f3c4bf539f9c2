#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Fits wai.neural.int_mlicpp's entropy network (tools/mlicpp/entropy_net.py)
to a trained hyperprior's latents in closed form, the CPU's way to train it:
with g_a, h_a and h_s held fixed (tools/mlicpp/train.py's premise), the
best mean from the context is a least-squares problem, and the scale a
one-parameter search a channel.

    /usr/bin/python3 tools/mlicpp/fit.py --point 3 [--crops 320] [--k 4] \\
        [--out examples/mlicpp/train/q3.state] [--seed S] [--smoke]

The fit, for slice j (channels j·s .. (j+1)·s − 1, s = Cy/K):
  - mu: mu_hyper plus a linear function of what is decoded when the slice
    is: every channel of the slices before it over the 3 x 3 window, and
    its own channels' four neighbours (anchors, so known in the second
    pass and 0 in the first, as the decoder has them), and a constant;
    ridge least squares on the residual y − mu_hyper, over every position
    of every crop (normal equations accumulated crop by crop);
  - sigma: alpha_c · sigma_hyper, alpha_c the one of 0.30, 0.31 .. 1.20
    that codes channel c's residuals in the fewest bits (the discretised
    Gaussian of the tables).
The context is y as the decoder rebuilds it, round(y − mu_hyper) +
mu_hyper. Those weights go where entropy_net.py's start_as_hyperprior puts
the hyperprior's: the first layer's y weights and mu bias, and its sigma
weight; training (train.py) can go on from them.

The fit is then shrunk towards the hyperprior: the weights start + t ·
(fit − start), t the one of 0, 0.25, 0.5, 0.75 and 1 that codes
corpus.VALIDATION's pictures (cut as Kodak's are; the set runs are chosen
on, never reported) in the fewest bits, sequentially in WIM1's order. A
least-squares mean and a scale fitted on training crops can cost bits on
pictures unlike them (at q1 the unshrunk fit codes y 1.0 % worse on
VALIDATION than the hyperprior alone); t = 0 is WIH1's coding exactly.

Writes the shipped state (the weights as float16, "weights_only", the
point, K, Cy, and "fit": the crops, seed and t) and appends to OUT.log the
bits of y with the context and with the hyperprior alone, on the crops and
on each VALIDATION picture, for every t. --smoke: 2 crops of 64 x 64 from python3-skimage, nothing
written."""
import argparse
import math
import os
import sys
import time

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(repo, "tools", "learned"))
import corpus  # noqa: E402

sys.path.insert(0, here)
from entropy_net import ContextEntropy, gaussian_bits, pass_masks, rate  # noqa: E402
from train import latents, load_hyperprior  # noqa: E402

ALPHAS = np.arange(30, 121) / 100.0
RIDGE = 1e-3


def features(yr, j, s):
    """[n, F] features of slice j at every position of yr [B, Cy, H, W]:
    slices before j over 3 x 3, slice j's four neighbours (0 at anchors),
    and 1."""
    b, cy, h, w = yr.shape
    lo = j * s
    parts = []
    pad = np.pad(yr, ((0, 0), (0, 0), (1, 1), (1, 1)))
    for dy in range(3):
        for dx in range(3):
            parts.append(pad[:, :lo, dy:dy + h, dx:dx + w])
    anchor = ((np.arange(h)[:, None] + np.arange(w)[None, :]) % 2 == 0)
    for dy, dx in ((0, 1), (1, 0), (1, 2), (2, 1)):
        nb = pad[:, lo:lo + s, dy:dy + h, dx:dx + w] * (~anchor)
        parts.append(nb)
    f = np.concatenate(parts, axis=1)  # [B, F-1, H, W]
    f = f.transpose(0, 2, 3, 1).reshape(-1, f.shape[1])
    return np.concatenate([f, np.ones((f.shape[0], 1))], axis=1)


def to_weights(ent, coef, alphas, k):
    """Puts slice j's coefficients (per output channel) into the first
    layer: (dy, dx) taps of the slices before, the four neighbours, the
    constant into the mu bias; alpha on sigma."""
    cy = ent.cy
    s = cy // k
    c1 = ent.net[0]
    with torch.no_grad():
        for j in range(k):
            lo = j * s
            cf = coef[j]  # [F, s]
            i = 0
            for dy in range(3):
                for dx in range(3):
                    for ch in range(lo):
                        c1.weight[cy + lo:cy + lo + s, ch, dy, dx] = torch.from_numpy(cf[i])
                        i += 1
            for dy, dx in ((0, 1), (1, 0), (1, 2), (2, 1)):
                for ch in range(lo, lo + s):
                    c1.weight[cy + lo:cy + lo + s, ch, dy, dx] = torch.from_numpy(cf[i])
                    i += 1
            c1.bias[cy + lo:cy + lo + s] += torch.from_numpy(cf[i])
        for c in range(cy):
            c1.weight[c, cy + c, 1, 1] = float(alphas[c])


def sequential_bits(net, ent, rgb, k):
    """y's bits (WIM1's order, rounded context) and the hyperprior's alone."""
    x = torch.from_numpy(rgb.astype(np.float32).transpose(2, 0, 1)[None] / 255)
    y, hyper = latents(net, x)
    cy = y.shape[1]
    masks = pass_masks(cy, k, y.shape[2], y.shape[3])
    with torch.no_grad():
        ctx = torch.zeros_like(y)
        bits = 0.0
        for before, now in masks:
            sigma, mu = ent(ctx * before, hyper)
            sym = torch.round(y - mu)
            bits += (gaussian_bits(sym, sigma, torch.zeros_like(mu)) * now).sum().item()
            ctx = ctx + (sym + mu) * now
        base = gaussian_bits(torch.round(y - hyper[:, cy:]), hyper[:, :cy], 0 * y).sum().item()
    return bits, base, x.shape[2] * x.shape[3]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--point", type=int, required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--crops", type=int, default=320)
    ap.add_argument("--crop", type=int, default=256)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.crops, a.crop = 2, 64
    torch.set_num_threads(a.threads)
    out = a.out or os.path.join(repo, "examples", "mlicpp", "train", f"q{a.point}.state")
    t0 = time.time()
    net = load_hyperprior(a.point)
    cy = net.g_a[-1].weight.shape[0]
    s = cy // a.k
    photos, smooth, textures = corpus.training_sets(smoke=a.smoke)
    if a.smoke:
        photos, smooth, textures = [e for e in photos if e[0] == "python3-skimage"], [], []
    crops = corpus.Crops(photos, smooth, a.crop, a.seed, textures)
    ys, hs = [], []
    for i in range(0, a.crops, 4):
        x = torch.from_numpy(crops.batch(min(4, a.crops - i))).float()
        y, hyper = latents(net, x)
        ys.append(y.double().numpy())
        hs.append(hyper.double().numpy())
    y = np.concatenate(ys)
    hyper = np.concatenate(hs)
    sig_h, mu_h = hyper[:, :cy], hyper[:, cy:]
    yr = np.round(y - mu_h) + mu_h  # the decoder's rebuilt y
    coef, alphas = [], np.ones(cy)
    for j in range(a.k):
        lo = j * s
        f = features(yr, j, s)
        r = (y[:, lo:lo + s] - mu_h[:, lo:lo + s]).transpose(0, 2, 3, 1).reshape(-1, s)
        xtx = f.T @ f + RIDGE * len(f) * np.eye(f.shape[1])
        cf = np.linalg.solve(xtx, f.T @ r)
        coef.append(cf)
        res = r - f @ cf  # the residual the new mu leaves
        sg = sig_h[:, lo:lo + s].transpose(0, 2, 3, 1).reshape(-1, s)
        for c in range(s):
            t = torch.from_numpy(np.round(res[:, c]))
            best = min(ALPHAS, key=lambda al: gaussian_bits(
                t, torch.from_numpy(al * sg[:, c]), torch.zeros_like(t)).sum().item())
            alphas[lo + c] = best
    base = ContextEntropy(cy, a.k)
    base.start_as_hyperprior()
    with torch.no_grad():
        base.net[0].weight[:, :cy].zero_()
    ent = ContextEntropy(cy, a.k)
    ent.load_state_dict(base.state_dict())
    to_weights(ent, coef, alphas, a.k)
    ent.eval()
    fitted = {n: v.clone() for n, v in ent.state_dict().items()}
    start = base.state_dict()
    lines = [f"fit: point q{a.point} K {a.k} Cy {cy} {a.crops} crops of {a.crop} seed {a.seed} "
             f"ridge {RIDGE:g}; data: {corpus.describe(photos, smooth, textures)}; "
             f"alpha mean {alphas.mean():.3f} ({time.time() - t0:.0f}s)"]
    with torch.no_grad():
        yt, ht = torch.from_numpy(y).float(), torch.from_numpy(hyper).float()
        masks = pass_masks(cy, a.k, y.shape[2], y.shape[3])
        fit_bits = rate(ent, torch.round(yt - ht[:, cy:]) + ht[:, cy:], ht, masks,
                        torch.round(yt - ht[:, cy:]) + ht[:, cy:]).item()
        base_bits = gaussian_bits(torch.round(yt - ht[:, cy:]), ht[:, :cy], 0 * yt).sum().item()
    px = y.shape[0] * a.crop * a.crop
    lines.append(f"crops: y bpp {fit_bits / px:.4f} hyperprior alone {base_bits / px:.4f} "
                 f"saving {100 * (1 - fit_bits / base_bits):.2f} %")
    best_t = 1.0
    if not a.smoke:
        pics = [corpus.kodak_cut(corpus.load_rgb(p)) for _, p in corpus.VALIDATION
                if os.path.exists(p)]
        names = [os.path.basename(p) for _, p in corpus.VALIDATION if os.path.exists(p)]
        best = None
        for t in (0.0, 0.25, 0.5, 0.75, 1.0):
            ent.load_state_dict({n: start[n] + t * (fitted[n] - start[n]) for n in fitted})
            tb = tbase = 0
            for name, rgb in zip(names, pics):
                b, bb, n = sequential_bits(net, ent, rgb, a.k)
                lines.append(f"t {t:g} {name}: y bpp {b / n:.4f} hyperprior alone {bb / n:.4f} "
                             f"saving {100 * (1 - b / bb):.2f} %")
                tb, tbase = tb + b, tbase + bb
            lines.append(f"t {t:g} validation: saving {100 * (1 - tb / tbase):.2f} %")
            if best is None or tb < best[0]:
                best = (tb, t)
        best_t = best[1]
        ent.load_state_dict({n: start[n] + best_t * (fitted[n] - start[n]) for n in fitted})
        lines.append(f"chosen: t {best_t:g}")
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        torch.save({"model": {k: v.half() for k, v in ent.state_dict().items()}, "weights_only": True,
                    "step": 0, "point": a.point, "K": a.k, "Cy": cy,
                    "fit": {"crops": a.crops, "crop": a.crop, "seed": a.seed, "t": best_t}}, out)
        with open(out + ".log", "a") as f:
            f.write("".join(line + "\n" for line in lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
