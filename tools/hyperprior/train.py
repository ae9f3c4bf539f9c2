#!/usr/bin/python3
"""Trains the mean-scale hyperprior of model.py on tools/bmshj2018/data.py's
photographs (Debian-packaged, public domain or CC0; chelsea and coffee held
out) and writes a checkpoint in CompressAI's state-dict layout.

    /usr/bin/python3 tools/hyperprior/train.py --out build/hyperprior/q3.pt
        [--minutes 45] [--steps N] [--lmbda 0.0067] [--seed 20261202]

Deterministic for a seed on one machine and thread count (torch's CPU
kernels; two threads here). Loss: lmbda * 255^2 * MSE + the bits per pixel
of y and z, Adam at --lr falling to a fifth for the last fifth of the
steps, the entropy bottleneck's quantile loss at 1e-3. A checkpoint (and
its log: the seed, data and every 100th step's figures) is written every
500 steps, so a run cut short keeps its weights. --smoke: 3 steps on small
crops (what CI runs)."""
import argparse
import math
import os
import sys
import time

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)                                 # model: this folder's
sys.path.append(os.path.join(here, "..", "bmshj2018"))  # data: the photographs
import data  # noqa: E402
import model  # noqa: E402


def save(net, a, step, start, log):
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
    ap.add_argument("--minutes", type=float, default=45.0)
    ap.add_argument("--steps", type=int, default=0, help="0: as many as the minutes allow")
    ap.add_argument("--lmbda", type=float, default=0.0067)
    ap.add_argument("--N", type=int, default=64)
    ap.add_argument("--M", type=int, default=96)
    ap.add_argument("--crop", type=int, default=128)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.steps, a.crop, a.batch = 3, 64, 2
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    if not model.bmshj2018.subpixel_matches_transposed():
        raise SystemExit("the sub-pixel form of the transposed convolution disagrees")
    net = model.MeanScaleHyperprior(a.N, a.M)
    crops = data.Crops(data.training_paths(), a.crop, a.seed)
    main_params = [p for n, p in net.named_parameters() if not n.endswith("quantiles")]
    aux_params = [p for n, p in net.named_parameters() if n.endswith("quantiles")]
    opt = torch.optim.Adam(main_params, lr=a.lr)
    aux_opt = torch.optim.Adam(aux_params, lr=1e-3)
    start, step, log = time.time(), 0, []
    deadline = start + 60 * a.minutes
    while not (a.steps and step >= a.steps) and not (not a.steps and time.time() > deadline):
        late = (a.steps and step >= 0.8 * a.steps) or (
            not a.steps and time.time() > start + 0.8 * 60 * a.minutes)
        if late and opt.param_groups[0]["lr"] > a.lr / 5:
            for g in opt.param_groups:
                g["lr"] = a.lr / 5
        x = torch.from_numpy(crops.batch(a.batch))
        x_hat, y_lik, z_lik = net(x)
        pixels = x.shape[0] * x.shape[2] * x.shape[3]
        bpp_y = torch.log(y_lik).sum() / (-math.log(2) * pixels)
        bpp_z = torch.log(z_lik).sum() / (-math.log(2) * pixels)
        mse = torch.mean((x_hat - x) ** 2)
        loss = a.lmbda * 255 ** 2 * mse + bpp_y + bpp_z
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
            save(net, a, step, start, log)
        if step % 100 == 0 or a.smoke:
            psnr = 10 * math.log10(1 / max(mse.item(), 1e-12))
            line = (f"step {step} {time.time() - start:.0f}s loss {loss.item():.4f} "
                    f"bpp {bpp_y.item() + bpp_z.item():.3f} (z {bpp_z.item():.3f}) "
                    f"psnr {psnr:.2f} aux {aux.item():.1f}")
            print(line, flush=True)
            log.append(line)
    save(net, a, step, start, log)
    print(f"wrote {a.out} after {step} steps")


if __name__ == "__main__":
    main()
