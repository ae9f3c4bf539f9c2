#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Lowers a wai.neural.int_mlicpp rate point to its set (integer-payloads
§14), codes pictures with a reference encoder written here, and checks
libwai's decode of them against the float model.

    WAI_LIBRARY=build/release/libwai_python.so /usr/bin/python3 tools/mlicpp/make_set.py \\
        --point 3 --out examples/mlicpp/sets/q3 [--state examples/mlicpp/train/q3.state] \\
        [--check PHOTO ...] [--payloads DIR] [--tolerance 0.05]

The set directory holds model.wmb, the WMB1 bundle a decode reads: the
magic, then h_s, the entropy network and g_s (WHM1) and the tables (the
hyperprior's entropy.json with afrac), each a u32 length and its bytes.
h_s, g_s and the tables are the hyperprior rate point's own set's
(examples/hyperprior/sets/qN) byte for byte, since the point shares its
transforms (tools/mlicpp/train.py); the entropy network is the state's,
lowered as tools/hyperprior/lower.py lowers a network. Beside it, the
encoder's members, the hyperprior's own: analysis.webnn.json and
analysis.f32 (g_a and h_a in float), copies byte for byte (git stores one
blob for both; a set is one folder, and the tool reads no link out of it),
and listing.json.

The reference encoder: the float analysis, z's symbols as WIH1's; h_s and
then, before each of WIM1's 2K passes, the entropy network, run in exact
integers as the decoder runs them (a convolution as a float64 product
where every partial sum is an integer below 2^53, so exact); each
element's symbol round((y - mu) / 2^afrac), ties to even, against the
table its sigma's ceil bucket picks; one rANS stream for z, one for y."""
import argparse
import json
import os
import shutil
import struct
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(repo, "tools", "learned"))
sys.path.insert(0, os.path.join(repo, "tools", "hyperprior"))
sys.path.insert(0, os.path.join(repo, "python"))
import checkpoint  # noqa: E402
import corpus  # noqa: E402
import lower as hl  # noqa: E402  (tools/hyperprior/lower.py)
import model as hyperprior  # noqa: E402

sys.path.insert(0, here)
from entropy_net import ContextEntropy  # noqa: E402

ENCODER_MEMBERS = ("analysis.webnn.json", "analysis.f32")


def bundle(hs, ent, gs, tables):
    out = bytearray(b"WMB1")
    for blob in (hs, ent, gs, tables):
        out += struct.pack("<I", len(blob)) + blob
    return bytes(out)


def read_whm1_header(blob):
    return struct.unpack("<IIII", blob[4:20])  # afrac, gf, shift, layers


def int_conv_fast(l, x):
    """hl.int_conv for a stride-1 convolution, as a float64 product: exact
    while every partial sum is an integer below 2^53 (checked)."""
    if l["kind"] != 1 or l["stride"] != 1:
        return hl.int_conv(l, x)
    W = l["w"].astype(np.float64)
    if float(np.abs(x).max()) * float(np.abs(W).sum(axis=(1, 2, 3)).max()) >= 2.0 ** 53:
        return hl.int_conv(l, x)
    cin, h, w = x.shape
    k, p = l["k"], l["pad"]
    xp = np.pad(x.astype(np.float64), ((0, 0), (p, p), (p, p)))
    oh, ow = h + 2 * p - k + 1, w + 2 * p - k + 1
    cols = np.stack([xp[:, ky:ky + oh, kx:kx + ow] for ky in range(k) for kx in range(k)], axis=1)
    acc = (W.reshape(l["cout"], -1) @ cols.reshape(cin * k * k, oh * ow)).reshape(l["cout"], oh, ow)
    acc = acc.astype(np.int64)
    v = acc.astype(object) * l["mult"].astype(object)[:, None, None]
    return (hl.round_shift(v, hl.SHIFT) + l["bias"].astype(object)[:, None, None]).astype(np.int64)


def int_run(layers, x, afrac):
    """hl.int_run with the fast convolution."""
    for l in layers:
        if l["kind"] in (0, 1):
            x = int_conv_fast(l, x)
        else:
            x = hl.int_run([l], x, afrac)
    return x


def pass_positions(h, w, p):
    """The flat positions of pass p (0: anchors, (row + col) even), raster order."""
    rows, cols = np.indices((h, w))
    return np.flatnonzero(((rows + cols) % 2 == 0) == (p == 0))


def encode(net, hs_layers, ent_layers, tables, rgb, afrac, k):
    """A WIM1 of rgb ([H, W, 3] uint8, H and W multiples of 64) and the
    rebuilt latent (float, for the float decode)."""
    import wai
    y_int, z_sym, z_int = hl.analyse(net, rgb, tables, afrac)
    cz, zh, zw = z_sym.shape
    hyper = int_run(hs_layers, z_int, afrac)
    cy, yh, yw = hyper.shape[0] // 2, hyper.shape[1], hyper.shape[2]
    ctx = np.concatenate([np.zeros((cy, yh, yw), dtype=np.int64), hyper])
    s = cy // k
    syms, buckets = [], []
    for j in range(k):
        for p in range(2):
            sm = int_run(ent_layers, ctx, afrac)
            sigma, mu = sm[:cy].reshape(cy, -1), sm[cy:].reshape(cy, -1)
            pos = pass_positions(yh, yw, p)
            for c in range(j * s, (j + 1) * s):
                m = mu[c, pos]
                sym = np.rint((y_int[c].reshape(-1)[pos] - m) / 2 ** afrac).astype(np.int64)
                syms.append(sym)
                buckets.append(hl.bucket(sigma[c, pos], tables["scale_edges"]))
                ctx[c].reshape(-1)[pos] = sym * (1 << afrac) + m
    zt = [(c, o) for c, o in zip(tables["z_cdfs"], tables["z_offsets"])]
    z_stream = wai.rans_encode(z_sym.reshape(-1), zt,
                               np.repeat(np.arange(cz, dtype=np.uint32), zh * zw))
    yt = [(c, o) for c, o in zip(tables["cdfs"], tables["offsets"])]
    y_stream = wai.rans_encode(np.concatenate(syms), yt,
                               np.concatenate(buckets).astype(np.uint32))
    h, w = rgb.shape[:2]
    payload = (b"WIM1" + struct.pack("<II", h, w) + struct.pack("<8H", cz, zh, zw, cy, yh, yw, k, 0)
               + struct.pack("<II", len(z_stream), len(y_stream)) + z_stream + y_stream)
    return payload, ctx[:cy].astype(np.float64) / 2 ** afrac


def load_point(point, state):
    sd = checkpoint.weights(os.path.join(repo, "examples", "hyperprior", "train", f"q{point}.state"))
    net = hyperprior.from_weights({n: v.float() for n, v in sd.items()})
    st = torch.load(state, map_location="cpu")
    ent = ContextEntropy(st["Cy"], st["K"])
    ent.load_state_dict({n: v.float() for n, v in st["model"].items()})
    return net, ent.eval(), st["K"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--point", type=int, required=True)
    ap.add_argument("--state", default=None, help="default: examples/mlicpp/train/qPOINT.state")
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", nargs="*", default=None, help="photographs (default: the examples')")
    ap.add_argument("--payloads", help="where the checked photographs' WIM1 go")
    ap.add_argument("--tolerance", type=float, default=0.05)
    a = ap.parse_args()
    import wai
    state = a.state or os.path.join(repo, "examples", "mlicpp", "train", f"q{a.point}.state")
    net, ent, k = load_point(a.point, state)
    hset = os.path.join(repo, "examples", "hyperprior", "sets", f"q{a.point}")
    with open(os.path.join(hset, "h_s.whm"), "rb") as f:
        hs_blob = f.read()
    with open(os.path.join(hset, "g_s.whm"), "rb") as f:
        gs_blob = f.read()
    with open(os.path.join(hset, "entropy.json")) as f:
        tables = json.load(f)
    afrac = read_whm1_header(hs_blob)[0]
    tables["afrac"] = afrac
    hs_layers = hl.lower(net.h_s, afrac)
    if hl.whm1_bytes(hs_layers, afrac) != hs_blob:
        raise SystemExit(f"{hset}/h_s.whm is not the state's h_s lowered")
    ent_layers = hl.lower(ent.net, afrac)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "model.wmb"), "wb") as f:
        f.write(bundle(hs_blob, hl.whm1_bytes(ent_layers, afrac), gs_blob, json.dumps(tables).encode()))
    for m in ENCODER_MEMBERS:  # the hyperprior's, byte for byte: git keeps one blob
        dst = os.path.join(a.out, m)
        if os.path.lexists(dst):
            os.remove(dst)
        shutil.copyfile(os.path.join(hset, m), dst)
    print(f"wrote {a.out}: model.wmb (K {k}, afrac {afrac}), {', '.join(ENCODER_MEMBERS)}; "
          f"the pin over the set is {wai.write_listing(a.out)}")
    worst = 0.0
    for p in a.check if a.check is not None else corpus.EXAMPLES:
        rgb = corpus.load_rgb(p)
        h, w = rgb.shape[0] // 64 * 64, rgb.shape[1] // 64 * 64
        rgb = np.ascontiguousarray(rgb[:h, :w])
        payload, y_hat = encode(net, hs_layers, ent_layers, tables, rgb, afrac, k)
        got = wai.decode(payload, set=a.out).outputs[0].array
        with torch.no_grad():
            f = net.g_s(torch.from_numpy(y_hat[None].astype(np.float32)))[0].numpy()
        fl = np.clip(np.rint(f.transpose(1, 2, 0) * 255), 0, 255)
        pi, pf = hl.psnr(got, rgb), hl.psnr(fl, rgb)
        worst = max(worst, abs(pi - pf))
        print(f"{os.path.basename(p)} {w}x{h}: {8 * len(payload) / (h * w):.3f} bpp, "
              f"integer {pi:.2f} dB, float {pf:.2f} dB (the same symbols)", flush=True)
        if a.payloads:
            os.makedirs(a.payloads, exist_ok=True)
            with open(os.path.join(a.payloads, os.path.splitext(os.path.basename(p))[0] + ".wim1"),
                      "wb") as fo:
                fo.write(payload)
    if worst > a.tolerance:
        raise SystemExit(f"the integer decode is {worst:.3f} dB from the float (over {a.tolerance})")


if __name__ == "__main__":
    main()
