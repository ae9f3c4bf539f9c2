#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Trains wai.neural.int_mlicpp's entropy network (tools/mlicpp/entropy_net.py)
on a trained hyperprior's latents: g_a, h_a, h_s, g_s and z's tables are
the hyperprior rate point's own (examples/hyperprior/train/qN.state), held
fixed, so the picture WIM1 decodes is WIH1's and what training buys is
rate alone: the bits of y once each element's sigma and mu also read the
slices and the checkerboard half already decoded.

    /usr/bin/python3 tools/mlicpp/train.py --point 3 [--minutes 20] [--steps N] \\
        [--k 4] [--crop 256] [--batch 4] [--lr 1e-4] [--seed S] [--threads 2] \\
        [--out examples/mlicpp/train/q3.state] [--smoke]

The crops are tools/learned/corpus.py's (Debian packages; the held-out
pictures never), drawn as the hyperprior's training draws them, and coded
on the fly. Loss: the bits per pixel of y (y plus uniform noise, the
context the same noisy y), Adam, gradients clipped to norm 1.

Resumable: OUT's working state, OUT without .state plus .run.state (the
weights, Adam's moments, the step, the generators; git ignores it), is
written every 100 steps and at the end, and on SIGTERM or SIGINT, and a
run resumes from it. OUT itself is the shipped state: the weights alone
as float16, with the step, K and the point; a run that finds only it
resumes with a fresh optimiser and says so in its log. The first run
starts as the hyperprior (entropy_net.py's start_as_hyperprior). OUT.log is
appended: a run line, then a line every 50 steps: y's bits per pixel with
the context and with the hyperprior alone on the same crops, and the
saving. --smoke: 2 steps on small crops of python3-skimage's pictures,
nothing written but the log (what CI runs)."""
import argparse
import os
import signal
import sys
import time

import torch

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(repo, "tools", "learned"))
import checkpoint  # noqa: E402
import corpus  # noqa: E402

sys.path.insert(0, os.path.join(repo, "tools", "hyperprior"))
import model as hyperprior  # noqa: E402

sys.path.insert(0, here)
from entropy_net import ContextEntropy, gaussian_bits, pass_masks, rate  # noqa: E402

sys.path.remove(here)
SAVE_EVERY, LOG_EVERY = 100, 50


def load_hyperprior(point):
    sd = checkpoint.weights(os.path.join(repo, "examples", "hyperprior", "train", f"q{point}.state"))
    return hyperprior.from_weights({k: v.float() for k, v in sd.items()})


@torch.no_grad()
def latents(net, x):
    """y and hyper (sigma || mu of h_s on the rebuilt z) of a batch."""
    y = net.g_a(x)
    z = net.h_a(y)
    med = net.entropy_bottleneck.medians().reshape(1, -1, 1, 1)
    hyper = net.h_s(torch.round(z - med) + med)
    return y, hyper


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--point", type=int, required=True, help="the hyperprior's rate point, 1 3 5 or 7")
    ap.add_argument("--out", default=None, help="default: examples/mlicpp/train/qPOINT.state")
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--steps", type=int, default=0)
    ap.add_argument("--crop", type=int, default=256)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--lr", type=float, default=None, help="default: the state's, or 1e-4")
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.steps, a.crop, a.batch = 2, 64, 1
    torch.set_num_threads(a.threads)
    out = a.out or os.path.join(repo, "examples", "mlicpp", "train", f"q{a.point}.state")
    run_path = checkpoint.run_state_path(out)
    log_path = out + ".log"

    net = load_hyperprior(a.point)
    for p in net.parameters():
        p.requires_grad_(False)
    cy = net.g_a[-1].weight.shape[0]
    ent = ContextEntropy(cy, a.k)
    ent.start_as_hyperprior()
    opt = torch.optim.Adam(ent.parameters(), lr=1e-4)
    step, how = 0, "start as the hyperprior"
    photos, smooth, textures = corpus.training_sets(smoke=a.smoke)
    if a.smoke:
        photos, smooth, textures = [e for e in photos if e[0] == "python3-skimage"], [], []
    crops = corpus.Crops(photos, smooth, a.crop, a.seed, textures)
    torch.manual_seed(a.seed)
    st, path, weights_only = (None, None, False) if a.smoke else checkpoint.load_resumable(run_path, out)
    if st is not None and not weights_only:
        ent.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        step = st["step"]
        torch.set_rng_state(st["torch_rng"])
        crops.set_state(st["crops_rng"])
        how = f"resumed {path}"
    elif st is not None:
        ent.load_state_dict({k: v.float() for k, v in st["model"].items()})
        step = st["step"]
        torch.manual_seed(a.seed + step)
        crops = corpus.Crops(photos, smooth, a.crop, a.seed + step, textures)
        how = f"resumed weights alone from {out} (a shipped state: fresh optimiser, fresh generators)"
    if a.lr is not None or how.startswith("start") or "weights alone" in how:
        for g in opt.param_groups:
            g["lr"] = a.lr if a.lr is not None else 1e-4
    lines = [f"run from step {step}: point q{a.point} K {a.k} Cy {cy} crop {a.crop} batch {a.batch} "
             f"lr {opt.param_groups[0]['lr']:g} seed {a.seed} threads {a.threads}; {how}; "
             f"data: {corpus.describe(photos, smooth, textures)}"]
    print(lines[0], flush=True)

    def save():
        if a.smoke:
            return
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        checkpoint.save_atomic({"model": ent.state_dict(), "opt": opt.state_dict(), "step": step,
                                "torch_rng": torch.get_rng_state(), "crops_rng": crops.state()},
                               run_path)
        checkpoint.save_atomic({"model": checkpoint.half_state(ent.state_dict()), "weights_only": True,
                                "step": step, "point": a.point, "K": a.k, "Cy": cy}, out)

    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.append(1))
    start, first = time.time(), step
    deadline = start + 60 * a.minutes
    masks = None
    acc = [0.0, 0.0, 0]
    while not stop and (step - first < a.steps if a.steps else time.time() < deadline):
        x = torch.from_numpy(crops.batch(a.batch)).float()
        y, hyper = latents(net, x)
        if masks is None or masks[0][0].shape[1:] != y.shape[2:]:
            masks = pass_masks(cy, a.k, y.shape[2], y.shape[3])
        y_tilde = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        pixels = x.shape[0] * x.shape[2] * x.shape[3]
        bits = rate(ent, y_tilde, hyper, masks, y_tilde) / pixels
        with torch.no_grad():
            base = gaussian_bits(y_tilde, hyper[:, :cy], hyper[:, cy:]).sum() / pixels
        opt.zero_grad()
        bits.backward()
        torch.nn.utils.clip_grad_norm_(ent.parameters(), 1.0)
        opt.step()
        step += 1
        acc[0] += bits.item()
        acc[1] += base.item()
        acc[2] += 1
        if step % LOG_EVERY == 0 or a.smoke:
            b, h = acc[0] / acc[2], acc[1] / acc[2]
            line = (f"step {step} {time.time() - start:.0f}s y bpp {b:.4f} hyperprior alone {h:.4f} "
                    f"saving {100 * (1 - b / h):.2f} %")
            print(line, flush=True)
            lines.append(line)
            acc = [0.0, 0.0, 0]
        if step % SAVE_EVERY == 0:
            save()
            checkpoint.append_log(log_path, lines)
    lines.append(f"run ended at step {step} after {time.time() - start:.0f}s"
                 + (" (stopped by a signal)" if stop else ""))
    save()
    if not a.smoke:
        checkpoint.append_log(log_path, lines)
    print(f"step {step}" + ("" if a.smoke else f": wrote {out}"))


if __name__ == "__main__":
    main()
