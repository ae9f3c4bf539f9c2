# SPDX-License-Identifier: BSD-2-Clause
"""The encoder's half of a WIH1 set: the analysis networks g_a and h_a as
one wai-webnn-graph/1 description (analysis.webnn.json) and its float32
weights (analysis.f32). libwai's C encoder (wai encode --capability
wai.neural.int_hyper) runs it on its native WebNN: input "x" [1, 3, H, W]
(RGB / 255), outputs "y" [1, M, H/16, W/16] and "z" [1, N, H/64, W/64]
(docs/hyperprior.md, "The encoder").

The description is checked by interpreting it with torch's own operations
(run) against the module's g_a and h_a: lower.py refuses a set whose
description does not give the module's latents."""
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bmshj2018"))
from graph_weights import Weights  # noqa: E402


def describe(net, gdn_class, h=64, w=64):
    """net's g_a then h_a as a description (its input shape [1, 3, h, w],
    which a caller replaces), and its weights."""
    wts = Weights()
    consts, ops = {}, []

    def const(name, t):
        consts[name] = {"dataType": "float32", "shape": list(t.shape), "offset": wts.add(t)}
        return name

    def op(name, args, out):
        ops.append({"name": name, "arguments": args, "outputs": out})
        return out

    def layers(seq, prefix, x):
        for i, layer in enumerate(seq):
            tag = f"{prefix}.{i}"
            if isinstance(layer, nn.Conv2d):
                s, p = layer.stride[0], layer.padding[0]
                x = op("conv2d", [{"input": x}, {"filter": const(tag + ".weight", layer.weight)},
                                  {"options": {"strides": [s, s], "padding": [p, p, p, p],
                                               "bias": const(tag + ".bias", layer.bias)}}], tag)
            elif isinstance(layer, gdn_class):  # x / sqrt(beta + gamma (x^2))
                beta, gamma = layer.values()
                c = gamma.shape[0]
                sq = op("mul", [{"a": x}, {"b": x}], tag + ".sq")
                norm = op("conv2d", [{"input": sq},
                                     {"filter": const(tag + ".gamma", gamma.reshape(c, c, 1, 1))},
                                     {"options": {"bias": const(tag + ".beta", beta)}}],
                          tag + ".norm")
                root = op("sqrt", [{"input": norm}], tag + ".root")
                x = op("div", [{"a": x}, {"b": root}], tag)
            elif isinstance(layer, nn.LeakyReLU):
                x = op("leakyRelu", [{"input": x},
                                     {"options": {"alpha": layer.negative_slope}}], tag)
            else:
                raise ValueError(f"{tag}: {type(layer).__name__} has no description")
        return x

    y = layers(net.g_a, "g_a", "x")
    z = layers(net.h_a, "h_a", y)
    desc = {"kind": "wai-webnn-graph/1",
            "inputs": {"x": {"dataType": "float32", "shape": [1, 3, h, w]}},
            "constants": consts, "operators": ops, "outputs": {"y": y, "z": z}}
    return desc, wts.bytes()


def run(desc, weights, x):
    """Interprets a description with torch's operations: its outputs y, z."""
    buf = np.frombuffer(weights, dtype="<f4")
    env = {"x": x}
    for name, c in desc["constants"].items():
        n, at = int(np.prod(c["shape"])), c["offset"] // 4
        env[name] = torch.from_numpy(buf[at:at + n].copy()).reshape(c["shape"])
    for o in desc["operators"]:
        a = {k: v for d in o["arguments"] for k, v in d.items()}
        opt = a.get("options", {})
        if o["name"] == "conv2d":
            p = opt.get("padding", [0, 0, 0, 0])
            out = F.conv2d(env[a["input"]], env[a["filter"]], env[opt["bias"]],
                           stride=tuple(opt.get("strides", [1, 1])), padding=(p[0], p[2]))
        elif o["name"] == "mul":
            out = env[a["a"]] * env[a["b"]]
        elif o["name"] == "div":
            out = env[a["a"]] / env[a["b"]]
        elif o["name"] == "sqrt":
            out = torch.sqrt(env[a["input"]])
        elif o["name"] == "leakyRelu":
            out = F.leaky_relu(env[a["input"]], opt["alpha"])
        else:
            raise ValueError(o["name"])
        env[o["outputs"]] = out
    return env[desc["outputs"]["y"]], env[desc["outputs"]["z"]]


def check(net, desc, weights, x):
    """The description's y and z against the module's on x: the largest
    difference relative to the latent's range (raises past 1e-4)."""
    with torch.no_grad():
        y = net.g_a(x)
        z = net.h_a(y)
        gy, gz = run(desc, weights, x)
    worst = 0.0
    for want, got in ((y, gy), (z, gz)):
        d = float((want - got).abs().max()) / max(1e-6, float(want.abs().max()))
        worst = max(worst, d)
    if worst > 1e-4:
        raise SystemExit(f"the analysis description is {worst:.2e} from the module")
    return worst
