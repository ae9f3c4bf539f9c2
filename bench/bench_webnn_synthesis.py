#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Helper of bench/bench_webnn_synthesis.sh: the bmshj2018-factorized
synthesis at CompressAI's size for qualities 1-5 (N 128, M 192), with weights
drawn from a seed, for a [192, 32, 48] latent (a 512 x 768 picture).

  --make DIR   writes DIR/decoder.webnn.json + decoder.f32 (the whole
               synthesis, tools/bmshj2018/make_set.py's describe()),
               DIR/bench.pt (the network, for make_set.py) and DIR/picture.png
               (a 768 x 512 photograph to code with it),
               DIR/decoder.onnx and DIR/latent.f32
  --torch      times torch on the same synthesis (best of --reps): the
               module's conv_transpose2d form and the sub-pixel conv2d form
               it trains with; prints "key ms" lines
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "bmshj2018"))
import make_set  # noqa: E402
import model  # noqa: E402

N, M, LH, LW = 128, 192, 32, 48


def net_of(seed):
    torch.manual_seed(seed)
    net = model.FactorizedPrior(N, M)
    net.eval()
    return net


def latent(seed):
    g = torch.Generator().manual_seed(seed)
    return torch.round(torch.randn(1, M, LH, LW, generator=g) * 3)


def make(d, seed):
    os.makedirs(d, exist_ok=True)
    net = net_of(seed)
    desc, weights = make_set.describe(net, LH, LW)
    json.dump(desc, open(os.path.join(d, "decoder.webnn.json"), "w"))
    open(os.path.join(d, "decoder.f32"), "wb").write(weights)
    y = latent(seed)
    y.numpy().astype("<f4").tofile(os.path.join(d, "latent.f32"))
    # For a whole decode (make_set.py on this checkpoint): the weights in
    # CompressAI's layout, and a 768 x 512 photograph (python3-skimage's
    # coffee, scaled) to code.
    torch.save(net.state_dict(), os.path.join(d, "bench.pt"))
    from PIL import Image
    Image.open("/usr/lib/python3/dist-packages/skimage/data/coffee.png").convert("RGB").resize(
        (16 * LW, 16 * LH), Image.BICUBIC).save(os.path.join(d, "picture.png"))
    class Synthesis(torch.nn.Module):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def forward(self, v):
            return make_set.synthesis_exact(self.n, v)

    torch.onnx.export(Synthesis(net), y, os.path.join(d, "decoder.onnx"), input_names=["y"],
                      output_names=["x"], opset_version=13)
    macs = 0
    side = 1
    for layer in net.g_s:
        if isinstance(layer, model.TransposedConv):
            cin, cout = layer.weight.shape[:2]
            macs += cin * cout * 25 * LH * LW * side * side
            side *= 2
        else:
            c = layer.gamma.shape[0]
            macs += c * c * LH * LW * side * side
    print(f"macs {macs}")


def time_torch(seed, reps, threads):
    torch.set_num_threads(threads)
    net, y = net_of(seed), latent(seed)
    rows = {}
    with torch.no_grad():
        for key, fn in (("convtranspose", lambda: make_set.synthesis_exact(net, y)),
                        ("subpixel", lambda: net.g_s(y))):
            best = float("inf")
            for _ in range(reps):
                t0 = time.perf_counter()
                fn()
                best = min(best, time.perf_counter() - t0)
            rows[key] = best * 1e3
    for k, v in rows.items():
        print(f"torch_{k}_t{threads} {v:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--make")
    ap.add_argument("--torch", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2018)
    a = ap.parse_args()
    if a.make:
        make(a.make, a.seed)
    if a.torch:
        time_torch(a.seed, a.reps, a.threads)


if __name__ == "__main__":
    main()
