#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Trains a learned image codec on corpus.py's pictures (Debian packages;
the held-out ones never) and writes a checkpoint in CompressAI's
state-dict layout: --model hyperprior, the mean-scale hyperprior of
tools/hyperprior/model.py (wai.neural.int_hyper's sets), or bmshj2018, the
factorized prior of tools/bmshj2018/model.py (wai.neural.bmshj2018's). A
run resumes where the last one stopped and extends it.

    /usr/bin/python3 tools/learned/train.py --out examples/hyperprior/train/q3.pt \\
        [--model hyperprior] [--minutes 45] [--steps N] [--lmbda 0.0067] \\
        [--lr 1e-4] [--seed S] [--state FILE] [--init CKPT] [--threads 2]

Each save writes two states beside the checkpoint:
  - the working state, FILE without .state plus .run.state (git ignores
    *.run.state; it stays on the machine that trained): everything a later
    run needs to go on as if this one had not stopped: the weights, both
    Adam optimisers' moments, the step, the learning rate, the generators'
    states (torch's and the crops');
  - the shipped state, --state FILE (default OUT without .pt, plus .state;
    what the repository commits, examples/*/train/qN.state): the weights
    alone, {"model", "weights_only": True, "step", "model_kind", "N", "M"}
    (checkpoint.shipped), a third of the working state's size.
Both hold the weights as float16; the working state holds the moments as
bfloat16 (their range: a second moment near 1e-12 underflows float16).

A run resumes from the working state when it exists: the optimisers'
moments, the step, the learning rate and the generators go on, so the run
continues from weights rounded to float16, not bit for bit the run that
did not stop. Without one (a fresh clone), from the shipped state: the
weights and the step go on, and nothing else can: a fresh Adam at --lr
(default 1e-4) whose moments start again from zero, and torch's and the
crops' generators seeded afresh from --seed and the step (numpy's
SeedSequence([seed, step])). The run line of the log says "resumed
weights alone from FILE (a shipped state: fresh optimiser, fresh
generators ...)": the steps after it are not those the run that wrote the
state would have taken. A full state at FILE (the form every state had
before issue 60) resumes as a working state. The first run starts from
--init's weights (a checkpoint or a state of the same shape) or from
scratch.

The log (OUT.log) is appended: a line for each run (its start step, seed,
data, lambda, learning rate, threads, what it resumed) and one every 100
steps (loss, bits per pixel of y and z (bmshj2018: y alone, z 0), PSNR of
the crops, the entropy bottleneck's aux loss). Steps count across runs;
--steps and --minutes bound this run. The weights and states are written
every 200 steps and at the end, and on SIGTERM or SIGINT (a run cut short
keeps its work).

Deterministic for a seed and a state on one machine and thread count
(torch's CPU kernels). Loss: lmbda * 255^2 * MSE + the bits per pixel of y
and z; Adam at --lr (the working state's, when resuming one without --lr);
the quantile loss at 1e-3 (the entropy bottleneck's: z's, or bmshj2018's
y); gradients clipped to norm 1. --smoke: 3 steps on small crops of
python3-skimage's pictures alone (what CI runs); it resumes and writes no
state unless --state names one (CI's check of both resumes does)."""
import argparse
import math
import os
import signal
import sys
import time

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import checkpoint  # noqa: E402
import corpus  # noqa: E402


# tools/hyperprior/model.py, which loads tools/bmshj2018/model.py itself
# under a name of its own (both folders have a model.py).
sys.path.insert(0, os.path.join(here, "..", "hyperprior"))
import model as hyperprior  # noqa: E402

MODELS = {"hyperprior": hyperprior.MeanScaleHyperprior, "bmshj2018": hyperprior.bmshj2018.FactorizedPrior}

SAVE_EVERY = 200


def small_opt(opt_sd):
    """An optimiser's state_dict with its tensors as bfloat16."""
    st = {k: {n: (t.bfloat16() if torch.is_tensor(t) and t.is_floating_point() and t.dim() else t)
              for n, t in v.items()} for k, v in opt_sd["state"].items()}
    return {"state": st, "param_groups": opt_sd["param_groups"]}


def full_opt(opt_sd):
    st = {k: {n: (t.float() if torch.is_tensor(t) and t.is_floating_point() else t)
              for n, t in v.items()} for k, v in opt_sd["state"].items()}
    return {"state": st, "param_groups": opt_sd["param_groups"]}


def fresh_seed(seed, step):
    """The generators' seed for a run resumed from weights alone."""
    return int(np.random.SeedSequence([seed, step]).generate_state(1, np.uint64)[0])


class Run:
    def __init__(self, a):
        self.a = a
        self.state_path = a.state or (a.out[:-3] if a.out.endswith(".pt") else a.out) + ".state"
        self.run_path = checkpoint.run_state_path(self.state_path)
        self.log_path = a.out + ".log"
        # --smoke keeps no state unless --state names one.
        self.keeps_state = not a.smoke or a.state is not None

    def load(self):
        """(the state to resume, its path, whether it holds the weights
        alone), or (None, None, False) for a first run."""
        if not self.keeps_state:
            return None, None, False
        return checkpoint.load_resumable(self.run_path, self.state_path)

    def save(self, net, opt, aux_opt, crops, step, lines):
        os.makedirs(os.path.dirname(os.path.abspath(self.a.out)), exist_ok=True)
        checkpoint.save_atomic(net.state_dict(), self.a.out)
        if self.keeps_state:
            full = {"model": checkpoint.half_state(net.state_dict()), "opt": small_opt(opt.state_dict()),
                    "aux_opt": small_opt(aux_opt.state_dict()), "step": step,
                    "model_kind": self.a.model, "N": self.a.N, "M": self.a.M, "torch_rng": torch.get_rng_state(),
                    "crops_rng": crops.state()}
            checkpoint.save_atomic(full, self.run_path)
            checkpoint.save_atomic(checkpoint.shipped(full), self.state_path)
        checkpoint.append_log(self.log_path, lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--model", choices=sorted(MODELS), default="hyperprior")
    ap.add_argument("--state", default=None)
    ap.add_argument("--init", default=None, help="the first run's weights (a checkpoint or a training state)")
    ap.add_argument("--minutes", type=float, default=45.0)
    ap.add_argument("--steps", type=int, default=0, help="this run's steps; 0: as the minutes allow")
    ap.add_argument("--lmbda", type=float, default=0.0067)
    ap.add_argument("--N", type=int, default=64)
    ap.add_argument("--M", type=int, default=96)
    ap.add_argument("--crop", type=int, default=256, help="the crops' side (the first runs: 128)")
    ap.add_argument("--batch", type=int, default=2, help="crops a step (the first runs: 8)")
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--lr", type=float, default=None, help="default: the state's, or 1e-4")
    ap.add_argument("--synthesis-input", choices=("noise", "rounded"), default="noise",
                    help="hyperprior: what g_s is trained on (model.py's MeanScaleHyperprior.synthesis_input)")
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.steps, a.crop, a.batch = 3, 64, 2
    torch.set_num_threads(a.threads)
    if not hyperprior.bmshj2018.subpixel_matches_transposed():
        raise SystemExit("the sub-pixel form of the transposed convolution disagrees")
    run = Run(a)
    resumed, resumed_path, weights_alone = run.load()
    if resumed:
        was = (resumed.get("model_kind", "hyperprior"), resumed["N"], resumed["M"])
        if was != (a.model, a.N, a.M):
            raise SystemExit(f"{resumed_path} is {was[0]} N {was[1]} M {was[2]}, not {a.model} {a.N} {a.M}")
    photos, smooth, textures = corpus.training_sets(smoke=a.smoke)
    if a.smoke:
        photos, smooth, textures = [e for e in photos if e[0] == "python3-skimage"], [], []
    crops = corpus.Crops(photos, smooth, a.crop, a.seed, textures)
    torch.manual_seed(a.seed)
    net = MODELS[a.model](a.N, a.M)
    if a.synthesis_input != "noise":
        if a.model != "hyperprior":
            raise SystemExit("--synthesis-input rounded is the hyperprior's (bmshj2018's g_s takes its bottleneck's output)")
        net.synthesis_input = a.synthesis_input
    main_params = [p for n, p in net.named_parameters() if not n.endswith("quantiles")]
    aux_params = [p for n, p in net.named_parameters() if n.endswith("quantiles")]
    opt = torch.optim.Adam(main_params, lr=1e-4)
    aux_opt = torch.optim.Adam(aux_params, lr=1e-3)
    step = 0
    if resumed and weights_alone:
        # A shipped state: the weights and the step; a fresh Adam (the
        # optimisers above) and fresh generators.
        net.load_state_dict(resumed["model"])
        step = resumed["step"]
        fresh = fresh_seed(a.seed, step)
        torch.manual_seed(fresh)
        crops.set_state(np.random.default_rng(fresh).bit_generator.state)
        how = (f"resumed weights alone from {resumed_path} (a shipped state: fresh optimiser, "
               f"fresh generators from seed {a.seed} and step {step})")
    elif resumed:
        net.load_state_dict(resumed["model"])
        opt.load_state_dict(full_opt(resumed["opt"]))
        aux_opt.load_state_dict(full_opt(resumed["aux_opt"]))
        step = resumed["step"]
        torch.set_rng_state(resumed["torch_rng"])
        crops.set_state(resumed["crops_rng"])
        how = f"resumed {resumed_path}"
    else:
        if a.init:
            net.load_state_dict(checkpoint.weights(a.init))
        how = "init " + (a.init or "random")
    if a.lr is not None or not resumed or weights_alone:
        for g in opt.param_groups:
            g["lr"] = a.lr if a.lr is not None else 1e-4
    lr = opt.param_groups[0]["lr"]
    lines = [f"run from step {step}: model {a.model} seed {a.seed} lmbda {a.lmbda} lr {lr:g} N {a.N} M {a.M} "
             f"crop {a.crop} batch {a.batch} threads {a.threads} synthesis {a.synthesis_input} "
             f"{how}; data: {corpus.describe(photos, smooth, textures)}"]
    print(lines[0], flush=True)

    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.append(1))
    start, first = time.time(), step
    deadline = start + 60 * a.minutes
    while not stop and (step - first < a.steps if a.steps else time.time() < deadline):
        x = torch.from_numpy(crops.batch(a.batch))
        x_hat, *liks = net(x)  # hyperprior: y's, z's; bmshj2018: y's
        pixels = x.shape[0] * x.shape[2] * x.shape[3]
        bits = [torch.log(lik).sum() / (-math.log(2) * pixels) for lik in liks]
        bpp_y, bpp_z = bits[0], bits[1] if len(bits) > 1 else torch.zeros(())
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
        if step % 100 == 0 or a.smoke:
            psnr = 10 * math.log10(1 / max(mse.item(), 1e-12))
            line = (f"step {step} {time.time() - start:.0f}s loss {loss.item():.4f} "
                    f"bpp {bpp_y.item() + bpp_z.item():.3f} (z {bpp_z.item():.3f}) "
                    f"psnr {psnr:.2f} aux {aux.item():.1f}")
            print(line, flush=True)
            lines.append(line)
        if step % SAVE_EVERY == 0 and not a.smoke:
            run.save(net, opt, aux_opt, crops, step, lines)
    lines.append(f"run ended at step {step} after {time.time() - start:.0f}s"
                 + (" (stopped by a signal)" if stop else ""))
    run.save(net, opt, aux_opt, crops, step, lines)
    print(f"wrote {a.out}" + (f", {run.run_path} and {run.state_path}" if run.keeps_state else "")
          + f" at step {step}")


if __name__ == "__main__":
    main()
