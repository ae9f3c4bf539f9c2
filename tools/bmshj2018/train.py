#!/usr/bin/python3
"""Trains bmshj2018-factorized on the photographs of data.py and writes a
checkpoint in CompressAI's state-dict layout.

    /usr/bin/python3 tools/bmshj2018/train.py --out build/bmshj2018/q3.pt
        [--minutes 50] [--steps N] [--lmbda 0.0067] [--seed 20261201]

Deterministic for a seed on one machine and thread count (torch's CPU
kernels; two threads here). Loss: lmbda * 255^2 * MSE + bits per pixel
(CompressAI's RateDistortionLoss), Adam at --lr (5e-4: the run is short)
falling to a fifth of it for the last fifth of the steps, the auxiliary
quantile loss at 1e-3.
--smoke runs 3 steps on small crops: what CI runs.
"""
import argparse
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import model  # noqa: E402


def save(net, a, step, start, log):
    """The checkpoint (CompressAI's layout) and its log, each replaced whole."""
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    torch.save({k: v for k, v in net.state_dict().items()}, a.out + ".tmp")
    os.replace(a.out + ".tmp", a.out)
    with open(a.out + ".log.tmp", "w") as f:
        f.write(f"seed {a.seed} lmbda {a.lmbda} N {a.N} M {a.M} crop {a.crop} batch {a.batch} "
                f"threads {a.threads} steps {step} seconds {time.time() - start:.0f}\n")
        f.write("data: " + " ".join(os.path.basename(p) for p in data.training_paths()) + "\n")
        f.write("\n".join(log) + "\n")
    os.replace(a.out + ".log.tmp", a.out + ".log")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=50.0)
    ap.add_argument("--steps", type=int, default=0, help="0: as many as the minutes allow")
    ap.add_argument("--lmbda", type=float, default=0.0067)
    ap.add_argument("--N", type=int, default=64)
    ap.add_argument("--M", type=int, default=96)
    ap.add_argument("--crop", type=int, default=128)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.steps, a.crop, a.batch = 3, 64, 2
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    if not model.subpixel_matches_transposed():
        raise SystemExit("the sub-pixel form of the transposed convolution disagrees")
    net = model.FactorizedPrior(a.N, a.M)
    crops = data.Crops(data.training_paths(), a.crop, a.seed)
    main_params = [p for n, p in net.named_parameters() if not n.endswith("quantiles")]
    aux_params = [p for n, p in net.named_parameters() if n.endswith("quantiles")]
    opt = torch.optim.Adam(main_params, lr=a.lr)
    aux_opt = torch.optim.Adam(aux_params, lr=1e-3)
    start = time.time()
    step = 0
    log = []
    deadline = start + 60 * a.minutes
    while True:
        if a.steps and step >= a.steps:
            break
        if not a.steps and time.time() > deadline:
            break
        late = (a.steps and step >= 0.8 * a.steps) or (
            not a.steps and time.time() > start + 0.8 * 60 * a.minutes)
        if late and opt.param_groups[0]["lr"] > a.lr / 5:
            for g in opt.param_groups:
                g["lr"] = a.lr / 5
        x = torch.from_numpy(crops.batch(a.batch))
        x_hat, lik = net(x)
        pixels = x.shape[0] * x.shape[2] * x.shape[3]
        bpp = torch.log(lik).sum() / (-math.log(2) * pixels)
        mse = torch.mean((x_hat - x) ** 2)
        loss = a.lmbda * 255 ** 2 * mse + bpp
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(main_params, 1.0)
        opt.step()
        aux = net.entropy_bottleneck.aux_loss()
        aux_opt.zero_grad()
        aux.backward()
        aux_opt.step()
        step += 1
        if step % 500 == 0 and not a.smoke:
            save(net, a, step, start, log)  # a run cut short still leaves its weights
        if step % 100 == 0 or a.smoke:
            psnr = 10 * math.log10(1 / max(mse.item(), 1e-12))
            line = f"step {step} {time.time() - start:.0f}s loss {loss.item():.4f} bpp {bpp.item():.3f} psnr {psnr:.2f} aux {aux.item():.1f}"
            print(line, flush=True)
            log.append(line)
    save(net, a, step, start, log)
    print(f"wrote {a.out} after {step} steps")


if __name__ == "__main__":
    main()
