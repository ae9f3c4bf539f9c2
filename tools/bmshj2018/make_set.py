#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes a wai.neural.bmshj2018 parameter set and payloads from a trained
bmshj2018-factorized checkpoint (train.py's, or CompressAI's own with
--checkpoint: the same state-dict layout).

    /usr/bin/python3 tools/bmshj2018/make_set.py --checkpoint q3.pt --out DIR
        --lib build/release/libwai_python.so [--payload NAME=PICTURE ...]

The set (docs/bmshj2018.md):
  cdfs_q3.json        the entropy stage's tables: per channel a §2 table, its
                      symbol offset and its median (a binary32 bit pattern)
  decoder.webnn.json  the synthesis as a WebNN graph description
  decoder.f32         its float32 weights
  decoder.onnx        the same synthesis for ONNX Runtime
  wai-usage.json      the set's usage statement

The graph, re-run in torch by interpreting the description, must equal the
module's own synthesis exactly (the same operations, bit for bit), or no set
is written. Payloads are coded with the model's analysis transform and
libwai's rANS encoder (wai_rans_encode_symbols_tables, through ctypes).
"""
import argparse
import ctypes
import json
import math
import os
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "learned"))
import checkpoint  # noqa: E402
import corpus  # noqa: E402
from graph_weights import Weights  # noqa: E402
import model  # noqa: E402

PRECISION = 16
MAX_TABLE = 4097  # entries: 4095 direct values, the escape, and 65536


# ---- the synthesis as a graph description --------------------------------------


def describe(net, lh=16, lw=16):
    """The g_s of net as a wai-webnn-graph/1 description and its weights."""
    w = Weights()
    consts, ops = {}, []

    def const(name, t):
        consts[name] = {"dataType": "float32", "shape": list(t.shape), "offset": w.add(t)}
        return name

    x = "y"
    layers = list(net.g_s)
    for i, layer in enumerate(layers):
        if isinstance(layer, model.TransposedConv):
            f = const(f"g_s.{i}.weight", layer.weight)
            b = const(f"g_s.{i}.bias", layer.bias)
            out = f"t{i}"
            ops.append({"name": "convTranspose2d",
                        "arguments": [{"input": x}, {"filter": f},
                                      {"options": {"strides": [2, 2], "padding": [2, 2, 2, 2],
                                                   "outputPadding": [1, 1], "bias": b}}],
                        "outputs": out})
            x = out
        else:  # the inverse GDN: x * sqrt(beta + gamma (x^2))
            beta, gamma = layer.values()
            c = gamma.shape[0]
            g = const(f"g_s.{i}.gamma", gamma.reshape(c, c, 1, 1))
            bt = const(f"g_s.{i}.beta", beta)
            ops.append({"name": "mul", "arguments": [{"a": x}, {"b": x}], "outputs": f"t{i}.sq"})
            ops.append({"name": "conv2d", "arguments": [{"input": f"t{i}.sq"}, {"filter": g},
                                                        {"options": {"bias": bt}}],
                        "outputs": f"t{i}.norm"})
            ops.append({"name": "sqrt", "arguments": [{"input": f"t{i}.norm"}], "outputs": f"t{i}.root"})
            ops.append({"name": "mul", "arguments": [{"a": x}, {"b": f"t{i}.root"}], "outputs": f"t{i}"})
            x = f"t{i}"
    desc = {"kind": "wai-webnn-graph/1",
            "inputs": {"y": {"dataType": "float32", "shape": [1, net.M, lh, lw]}},
            "constants": consts, "operators": ops, "outputs": {"x": x}}
    return desc, w.bytes()


def run_description(desc, weights, y):
    """Interprets a description with torch's operations (the reference the
    export is held to)."""
    buf = np.frombuffer(weights, dtype="<f4")
    env = {"y": y}
    for name, c in desc["constants"].items():
        n = int(np.prod(c["shape"]))
        at = c["offset"] // 4
        env[name] = torch.from_numpy(buf[at:at + n].copy()).reshape(c["shape"])
    for op in desc["operators"]:
        a = {k: v for d in op["arguments"] for k, v in d.items()}
        o = a.get("options", {})
        if op["name"] == "convTranspose2d":
            p = o["padding"]
            out = F.conv_transpose2d(env[a["input"]], env[a["filter"]], env[o["bias"]],
                                     stride=tuple(o["strides"]), padding=(p[0], p[2]),
                                     output_padding=tuple(o["outputPadding"]))
        elif op["name"] == "conv2d":
            out = F.conv2d(env[a["input"]], env[a["filter"]], env[o["bias"]])
        elif op["name"] == "mul":
            out = env[a["a"]] * env[a["b"]]
        elif op["name"] == "sqrt":
            out = torch.sqrt(env[a["input"]])
        else:
            raise ValueError(op["name"])
        env[op["outputs"]] = out
    return env[desc["outputs"]["x"]]


def synthesis_exact(net, y):
    """The module's synthesis with its transposed convolutions as
    conv_transpose2d (what the description says), layer by layer."""
    x = y
    for layer in net.g_s:
        if isinstance(layer, model.TransposedConv):
            x = F.conv_transpose2d(x, layer.weight, layer.bias, stride=2, padding=2, output_padding=1)
        else:
            beta, gamma = layer.values()
            c = gamma.shape[0]
            x = x * torch.sqrt(F.conv2d(x * x, gamma.reshape(c, c, 1, 1), beta))
    return x


# ---- the entropy stage's tables ------------------------------------------------------


def quantised_cdf(pmf, precision=PRECISION):
    """A §2 table from a pmf over n - 1 symbols: every symbol at least one
    count of 2^precision, the counts summing to it; the largest counts give
    up what the floors of the others need."""
    total = 1 << precision
    counts = np.maximum(1, np.floor(pmf / pmf.sum() * total).astype(np.int64))
    while counts.sum() > total:
        counts[np.argmax(counts)] -= 1
    while counts.sum() < total:
        counts[np.argmax(pmf / counts)] += 1
    return [0] + np.cumsum(counts).tolist()


def tables(net):
    """Per channel: (cdf, offset, median bits). Symbols are round(y - median);
    a table covers the values between the density's 1e-9 quantiles (at most
    4095 of them) and its escape the rest."""
    eb = net.entropy_bottleneck
    q = eb.quantiles.detach()
    out = []
    with torch.no_grad():
        for c in range(eb.channels):
            med = float(np.float32(q[c, 0, 1].item()))
            lo = math.floor(q[c, 0, 0].item() - med)
            hi = math.ceil(q[c, 0, 2].item() - med)
            lo, hi = max(lo, -2047), min(hi, 2047)
            if hi < lo + 1:
                lo, hi = -1, 1
            vals = torch.arange(lo, hi + 1, dtype=torch.float32) + med
            v = vals.reshape(1, 1, -1).expand(eb.channels, 1, -1)
            lower = torch.sigmoid(eb.logits_cumulative(v - 0.5))[c, 0]
            upper = torch.sigmoid(eb.logits_cumulative(v + 0.5))[c, 0]
            pmf = (upper - lower).clamp(min=0).numpy().astype(np.float64)
            tail = max(1.0 - pmf.sum(), 0.0)
            pmf = np.concatenate([pmf, [max(tail, 1e-9)]])  # the escape's share
            out.append((quantised_cdf(pmf), lo, struct.unpack("<I", struct.pack("<f", med))[0]))
    return out


def cost_per_position(net):
    """The synthesis's multiply-accumulates and the native WebNN's largest
    live buffers (bytes), per latent position."""
    macs, peak, side = 0, 0, 1
    for layer in net.g_s:
        if isinstance(layer, model.TransposedConv):
            cin, cout = layer.weight.shape[0], layer.weight.shape[1]
            macs += cin * cout * 25 * side * side
            # input, output, and a layout copy of each (oneDNN's reorders)
            peak = max(peak, 2 * 4 * (cin * side * side + cout * 4 * side * side))
            side *= 2
        else:
            c = layer.gamma.shape[0]
            macs += c * c * side * side
            # x, x^2, the norm, its root, the product, and the conv's copies
            peak = max(peak, 7 * 4 * c * side * side)
    return macs, peak


# ---- coding payloads --------------------------------------------------------------------


class Coder:
    """libwai's rANS encoder through ctypes (libwai_python.so)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        f = self.lib.wai_rans_encode_symbols_tables
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.POINTER(ctypes.c_uint32)),
                      ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_int32),
                      ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_int32), ctypes.c_size_t,
                      ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8)), ctypes.POINTER(ctypes.c_size_t)]
        self.lib.wai_write_free.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def encode(self, tabs, table_of, symbols):
        n = len(tabs)
        arrays = [(ctypes.c_uint32 * len(t[0]))(*t[0]) for t in tabs]
        cdfs = (ctypes.POINTER(ctypes.c_uint32) * n)(*[ctypes.cast(a, ctypes.POINTER(ctypes.c_uint32)) for a in arrays])
        lens = (ctypes.c_size_t * n)(*[len(t[0]) for t in tabs])
        offs = (ctypes.c_int32 * n)(*[t[1] for t in tabs])
        tof = np.ascontiguousarray(table_of, dtype=np.uint32)
        sym = np.ascontiguousarray(symbols, dtype=np.int32)
        out = ctypes.POINTER(ctypes.c_uint8)()
        out_len = ctypes.c_size_t()
        st = self.lib.wai_rans_encode_symbols_tables(
            None, n, cdfs, lens, offs, tof.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
            sym.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), sym.size, ctypes.byref(out),
            ctypes.byref(out_len))
        if st != 0:
            raise RuntimeError(f"the rANS encoder refused the symbols (status {st})")
        b = ctypes.string_at(out, out_len.value)
        self.lib.wai_write_free(None, out)
        return b


def encode_picture(net, tabs, coder, rgb):
    """A B18F payload of an H x W x 3 uint8 picture, and its symbols."""
    h, w = rgb.shape[:2]
    lh, lw = -(-h // 16), -(-w // 16)
    x = torch.from_numpy(rgb.astype(np.float32).transpose(2, 0, 1)[None] / 255.0)
    x = F.pad(x, (0, 16 * lw - w, 0, 16 * lh - h), mode="replicate")
    with torch.no_grad():
        y = net.g_a(x)
        sym, _ = net.quantise(y)
    m = sym.shape[1]
    sym = sym[0].numpy().astype(np.int32)
    table_of = np.repeat(np.arange(m, dtype=np.uint32), lh * lw)
    stream = coder.encode(tabs, table_of, sym.reshape(-1))
    header = b"B18F" + bytes([1, 0, 0, 0]) + struct.pack("<IIIII", h, w, m, lh, lw)
    return header + struct.pack("<I", len(stream)) + stream, sym


def symbol_bytes(sym):
    """The symbols as neural-dispatch §6.3 digests them: i32 little-endian,
    channel after channel (b3sum of these is the symbols_digest)."""
    return np.ascontiguousarray(sym, dtype="<i4").tobytes()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--lib", required=True, help="libwai_python.so of a build")
    ap.add_argument("--payload", action="append", default=[],
                    help="FILE=PICTURE: code PICTURE into FILE, its symbols into FILE.symbols")
    ap.add_argument("--licence", default="CC0-1.0")
    a = ap.parse_args()
    state = checkpoint.weights(a.checkpoint)
    net = model.load_compressai(state)
    net.eval()
    # The export is held to the module: the description re-run in torch
    # must give the module's synthesis exactly.
    g = torch.Generator().manual_seed(7)
    y = torch.round(torch.randn(1, net.M, 3, 5, generator=g) * 4)
    desc, weights = describe(net)
    with torch.no_grad():
        want = synthesis_exact(net, y)
        got = run_description(desc, weights, y)
        trained = net.g_s(y)
    if not torch.equal(want, got):
        raise SystemExit("the exported graph differs from the module: no set written")
    print(f"export: the description equals the module exactly; the sub-pixel training form is "
          f"within {float((trained - want).abs().max()):.3g}")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "decoder.webnn.json"), "w") as f:
        json.dump(desc, f, indent=1)
        f.write("\n")
    with open(os.path.join(a.out, "decoder.f32"), "wb") as f:
        f.write(weights)
    tabs = tables(net)
    macs, work = cost_per_position(net)
    with open(os.path.join(a.out, "cdfs_q3.json"), "w") as f:
        json.dump({"kind": "wai-bmshj2018-tables/1", "channels": net.M,
                   "cdfs": [t[0] for t in tabs], "offsets": [t[1] for t in tabs],
                   "medians": [t[2] for t in tabs], "macs_per_position": macs,
                   "working_bytes_per_position": work}, f)
        f.write("\n")

    class Synthesis(torch.nn.Module):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def forward(self, latent):
            return synthesis_exact(self.n, latent)

    torch.onnx.export(Synthesis(net), y, os.path.join(a.out, "decoder.onnx"), input_names=["y"],
                      output_names=["x"], opset_version=13,
                      dynamic_axes={"y": {2: "h", 3: "w"}, "x": {2: "H", 3: "W"}})
    with open(os.path.join(a.out, "wai-usage.json"), "w") as f:
        json.dump({"kind": "wai-usage/1", "capability": "wai.neural.bmshj2018",
                   "model": f"bmshj2018-factorized, N {net.N}, M {net.M}",
                   "weights": "trained by tools/learned/train.py --model bmshj2018 on the Debian "
                              "packages' pictures of tools/learned/corpus.py (each picture's author "
                              "and licence: docs/training-data.md)",
                   "licence": a.licence}, f, indent=1)
        f.write("\n")
    # Last, the listing, through the module over the same library: the set
    # as written is pinnable (docs/spec-readings.md, L5).
    os.environ.setdefault("WAI_LIBRARY", os.path.abspath(a.lib))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import wai
    print(f"wrote {a.out}/listing.json: the pin over the set is {wai.write_listing(a.out)}")
    coder = Coder(a.lib)
    for spec in a.payload:
        name, path = spec.split("=", 1)
        rgb = corpus.load_rgb(path)
        payload, sym = encode_picture(net, tabs, coder, rgb)
        with open(name, "wb") as f:
            f.write(payload)
        with open(name + ".symbols", "wb") as f:
            f.write(symbol_bytes(sym))
        bpp = 8 * len(payload) / (rgb.shape[0] * rgb.shape[1])
        print(f"{name}: {rgb.shape[1]}x{rgb.shape[0]}, {len(payload)} bytes, {bpp:.3f} bpp")


if __name__ == "__main__":
    main()
