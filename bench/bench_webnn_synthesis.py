#!/usr/bin/python3
"""Helper of bench/bench_webnn_synthesis.sh: the bmshj2018-factorized
synthesis at CompressAI's size for qualities 1-5 (N 128, M 192), with weights
drawn from a seed, for a [192, 32, 48] latent (a 512 x 768 picture).

  --make DIR   writes DIR/decoder.webnn.json + decoder.f32 (the whole
               synthesis, tools/bmshj2018/make_set.py's describe()),
               DIR/deconvs.webnn.json + deconvs.f32 (its four transposed
               convolutions alone, each on its own input: what oneDNN direct
               times), DIR/decoder.onnx and DIR/latent.f32
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


def deconvs(net):
    """The four transposed convolutions, each a graph input of its own."""
    w = make_set.Weights()
    consts, ops, inputs, outputs = {}, [], {}, {}
    side, i = 1, 0
    for k, layer in enumerate(net.g_s):
        if not isinstance(layer, model.TransposedConv):
            continue
        cin = layer.weight.shape[0]
        name = f"x{i}"
        inputs[name] = {"dataType": "float32", "shape": [1, cin, LH * side, LW * side]}
        consts[f"w{i}"] = {"dataType": "float32", "shape": list(layer.weight.shape),
                           "offset": w.add(layer.weight)}
        consts[f"b{i}"] = {"dataType": "float32", "shape": list(layer.bias.shape),
                           "offset": w.add(layer.bias)}
        ops.append({"name": "convTranspose2d",
                    "arguments": [{"input": name}, {"filter": f"w{i}"},
                                  {"options": {"strides": [2, 2], "padding": [2, 2, 2, 2],
                                               "outputPadding": [1, 1], "bias": f"b{i}"}}],
                    "outputs": f"y{i}"})
        outputs[f"y{i}"] = f"y{i}"
        side *= 2
        i += 1
    return {"kind": "wai-webnn-graph/1", "inputs": inputs, "constants": consts,
            "operators": ops, "outputs": outputs}, w.bytes()


def make(d, seed):
    os.makedirs(d, exist_ok=True)
    net = net_of(seed)
    desc, weights = make_set.describe(net, LH, LW)
    json.dump(desc, open(os.path.join(d, "decoder.webnn.json"), "w"))
    open(os.path.join(d, "decoder.f32"), "wb").write(weights)
    dd, dw = deconvs(net)
    json.dump(dd, open(os.path.join(d, "deconvs.webnn.json"), "w"))
    open(os.path.join(d, "deconvs.f32"), "wb").write(dw)
    y = latent(seed)
    y.numpy().astype("<f4").tofile(os.path.join(d, "latent.f32"))
    side = 1
    for i, name in enumerate(dd["inputs"]):
        shape = dd["inputs"][name]["shape"]
        torch.randn(*shape, generator=torch.Generator().manual_seed(i)).numpy().astype(
            "<f4").tofile(os.path.join(d, f"x{i}.f32"))
        side *= 2

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
