#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Lowers a trained mean-scale hyperprior (model.py) to a WIH1 integer set
(integer-payloads §4, §9): g_s.whm and h_s.whm (WHM1) and entropy.json, by
post-training quantisation, and checks the integer decode against the
float model on photographs it codes.

    /usr/bin/python3 tools/hyperprior/lower.py CKPT --out DIR
        [--afrac 12] [--check PHOTO ...] [--payloads DIR]

The quantisation (integer-operators §13.2's arithmetic):
  - activations at 2^afrac (one scale for both networks);
  - a (transposed) convolution's weights per output channel, w * s_o
    rounded to WBITS bits (s_o = (2^(WBITS-1) - 1) / max |w_o|), its
    multiplier M_o = round(2^shift / s_o), its bias round(b_o * 2^afrac);
  - an inverse GDN's gamma round(g * 2^gf), beta round(b * 2^(2 afrac)), so
    isqrt(beta + (sum gamma X^2 >> gf)) is sqrt(b + sum g x^2) at 2^afrac;
  - leaky ReLU's slope 0.01 as round(0.01 * 2^16) >> 16.
The tables: scale edges log-spaced from 0.11 to SCALE_MAX at 2^afrac, one
Gaussian table a bucket at its edge's scale, symbols within 8 sigma and an
escape; z's tables from the entropy bottleneck's density, per channel,
medians at 2^afrac.

--check codes each photograph (padded to a multiple of 64) with a
reference encoder written here (the float analysis, z's symbols, h_s run
in exact integers as the decoder runs it, y's symbols against the tables
its scales pick), decodes the payload with libwai (python/wai) and prints
its PSNR beside the float model's decode of the same symbols."""
import argparse
import json
import math
import os
import struct
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
sys.path.append(os.path.join(repo, "tools", "learned"))
import analysis_graph  # noqa: E402
import checkpoint  # noqa: E402
import corpus  # noqa: E402
import model  # noqa: E402

WBITS = 13          # weights within +-4095: one i16 limb on the fast path
SHIFT = 24          # the networks' requantisation shift
GF = 16             # the inverse GDN's gamma scale
LSHIFT = 16         # leaky ReLU's slope scale
N_EDGES = 64
SCALE_MAX = 64.0
Z_RANGE = 64        # z's direct symbols: -Z_RANGE .. Z_RANGE around the median
CDF_TOTAL = 1 << 16


# ---- the networks -----------------------------------------------------------------------

def conv_layer(m, afrac, transposed):
    w = m.weight.detach().double().numpy()
    b = m.bias.detach().double().numpy()
    # Per output channel: torch's ConvTranspose2d weights are [in, out, k, k]
    # (WHM1's tag 0 layout), Conv2d's [out, in, k, k] (tag 1's).
    wo = np.moveaxis(w, 1, 0) if transposed else w
    peak = np.abs(wo.reshape(wo.shape[0], -1)).max(axis=1)
    peak[peak == 0] = 1.0
    s = (2 ** (WBITS - 1) - 1) / peak
    q = np.rint(wo * s[:, None, None, None]).astype(np.int64)
    mult = np.rint(2.0 ** SHIFT / s).astype(np.int64)
    bias = np.rint(b * 2.0 ** afrac).astype(np.int64)
    qw = np.moveaxis(q, 0, 1) if transposed else q
    k = m.kernel_size[0]
    return {"kind": 0 if transposed else 1, "cin": w.shape[0] if transposed else w.shape[1],
            "cout": len(b), "k": k, "stride": m.stride[0], "pad": m.padding[0],
            "opad": m.output_padding[0] if transposed else 0, "w": qw, "mult": mult, "bias": bias}


def igdn_layer(g, afrac):
    beta, gamma = (v.detach().double().numpy() for v in g.values())
    return {"kind": 2, "c": len(beta),
            "gamma": np.rint(gamma.reshape(len(beta), len(beta)) * 2.0 ** GF).astype(np.int64),
            "beta": np.rint(beta * 2.0 ** (2 * afrac)).astype(np.int64)}


def leaky_layer():
    return {"kind": 4, "slope": int(round(0.01 * 2 ** LSHIFT)), "lshift": LSHIFT}


def lower(seq, afrac):
    layers = []
    for m in seq:
        if isinstance(m, torch.nn.ConvTranspose2d):
            layers.append(conv_layer(m, afrac, True))
        elif isinstance(m, torch.nn.Conv2d):
            layers.append(conv_layer(m, afrac, False))
        elif isinstance(m, model.GDN):
            if not m.inverse:
                raise SystemExit("a forward GDN has no WHM1 form")
            layers.append(igdn_layer(m, afrac))
        elif isinstance(m, torch.nn.LeakyReLU):
            layers.append(leaky_layer())
        else:
            raise SystemExit(f"no WHM1 form for {type(m).__name__}")
    return layers


def whm1_bytes(layers, afrac):
    out = bytearray(b"WHM1" + struct.pack("<IIII", afrac, GF, SHIFT, len(layers)))
    for l in layers:
        out.append(l["kind"])
        if l["kind"] in (0, 1):
            out += struct.pack("<IIIII", l["cin"], l["cout"], l["k"], l["stride"], l["pad"])
            if l["kind"] == 0:
                out += struct.pack("<I", l["opad"])
            out += l["w"].astype("<i2").tobytes()
            out += l["mult"].astype("<i8").tobytes() + l["bias"].astype("<i8").tobytes()
        elif l["kind"] == 2:
            out += struct.pack("<I", l["c"])
            out += l["gamma"].astype("<i4").tobytes() + l["beta"].astype("<i8").tobytes()
        elif l["kind"] == 4:
            out += struct.pack("<qI", l["slope"], l["lshift"])
    return bytes(out)


# ---- exact integer evaluation (the decoder's arithmetic, for the encoder) --------------

def round_shift(v, s):
    """floor((v + 2^(s-1)) / 2^s) on Python ints (object arrays)."""
    return (v + (1 << (s - 1))) >> s if s else v


def int_conv(l, x):
    """A (transposed) convolution of x [cin, h, w] (int64), exact."""
    cin, h, w = x.shape
    k, s, p = l["k"], l["stride"], l["pad"]
    W = l["w"].astype(np.int64)
    if l["kind"] == 0:
        uh, uw = (h - 1) * s + k, (w - 1) * s + k
        u = np.zeros((l["cout"], uh + l["opad"], uw + l["opad"]), dtype=np.int64)
        for ky in range(k):
            for kx in range(k):
                u[:, ky:ky + (h - 1) * s + 1:s, kx:kx + (w - 1) * s + 1:s] += np.einsum(
                    "io,ihw->ohw", W[:, :, ky, kx], x)
        oh, ow = uh + l["opad"] - 2 * p, uw + l["opad"] - 2 * p
        acc = u[:, p:p + oh, p:p + ow]
    else:
        xp = np.pad(x, ((0, 0), (p, p), (p, p)))
        oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
        acc = np.zeros((l["cout"], oh, ow), dtype=np.int64)
        for ky in range(k):
            for kx in range(k):
                acc += np.einsum("oi,ihw->ohw", W[:, :, ky, kx],
                                 xp[:, ky:ky + (oh - 1) * s + 1:s, kx:kx + (ow - 1) * s + 1:s])
    v = acc.astype(object) * l["mult"].astype(object)[:, None, None]
    return (round_shift(v, SHIFT) + l["bias"].astype(object)[:, None, None]).astype(np.int64)


def int_run(layers, x, afrac, peaks=None):
    """The network on x (int64 at 2^afrac), as the decoder runs it. The
    magnitudes are checked against float bounds so no int64 step wraps.
    peaks (a list, or None): each layer's largest |input| appended."""
    for i, l in enumerate(layers):
        if peaks is not None:
            a = int(np.abs(x).max())
            if i == len(peaks):
                peaks.append(a)
            else:
                peaks[i] = max(peaks[i], a)
        if l["kind"] in (0, 1):
            if np.abs(x).max() * np.abs(l["w"]).sum(axis=tuple(range(1, 4))).max() > 2 ** 62:
                raise SystemExit("an accumulator could pass 2^62 here")
            x = int_conv(l, x)
        elif l["kind"] == 4:
            xo = x.astype(object)
            neg = (xo * l["slope"]) >> l["lshift"]
            x = np.where(x >= 0, x, neg.astype(np.int64))
        elif l["kind"] == 2:
            c = l["c"]
            xo = x.reshape(c, -1).astype(object)
            t = (l["gamma"].astype(object) @ (xo * xo)) >> GF
            n = t + l["beta"].astype(object)[:, None]
            r = np.vectorize(lambda v: math.isqrt(v) if v > 0 else 0, otypes=[object])(n)
            x = round_shift(xo * r, afrac).astype(np.int64).reshape(x.shape)
    return x


# ---- the exactness bounds (integer-operators: "Exactness") ---------------------------------

def headroom_bits(l, A, afrac):
    """The bits between the tightest of the layer's exactness bounds and
    its limit, for an input whose largest |X| is A (negative: refused)."""
    lim63, lim127 = (1 << 63) - 1, (1 << 127) - 1
    pairs = []
    if l["kind"] in (0, 1):
        W = np.abs(l["w"].astype(np.int64))
        S = W.sum(axis=(0, 2, 3)) if l["kind"] == 0 else W.sum(axis=(1, 2, 3))
        pairs.append((A * int(S.max()), lim63))
        pairs.append((max(((A * int(S[o]) * abs(int(l["mult"][o]))) >> SHIFT) + 1 + abs(int(l["bias"][o]))
                          for o in range(len(S))), lim63))
    elif l["kind"] == 2:
        G = [int(v) for v in np.abs(l["gamma"]).sum(axis=1)]
        pairs.append((A * A * max(G), lim127))
        pairs.append((max(((A * (math.isqrt(abs(int(b)) + ((A * A * g) >> GF)) + 1)) >> afrac) + 1
                          for g, b in zip(G, l["beta"])), lim63))
    elif l["kind"] == 4:
        pairs.append((((A * abs(l["slope"])) >> l["lshift"]) + 1, lim63))
    return min(math.log2(lim) - math.log2(max(v, 1)) for v, lim in pairs)


def float_peaks(seq, x, afrac):
    """Each layer's largest |input| at 2^afrac, from the float model, with
    a margin (1 % and 16) for what the integer run may add."""
    out = []
    with torch.no_grad():
        for m in seq:
            out.append(int(float(x.abs().max()) * 2 ** afrac * 1.01) + 16)
            x = m(x)
    return out


def exactness_report(name, layers, peaks, afrac, how):
    """Lines of a layer-by-layer report; raises when a layer would be refused."""
    kinds = {0: "transposed conv", 1: "conv", 2: "inverse GDN", 4: "leaky ReLU"}
    lines = [f"{name} ({how}):"]
    worst = math.inf
    for i, (l, A) in enumerate(zip(layers, peaks)):
        h = headroom_bits(l, A, afrac)
        worst = min(worst, h)
        lines.append(f"  layer {i} {kinds[l['kind']]:15s} max |X| 2^{math.log2(max(A, 1)):5.2f}"
                     f"  headroom {h:5.1f} bits")
    if worst < 0:
        raise SystemExit("\n".join(lines) + f"\n{name}: a layer would be refused (field_range)")
    return lines


# ---- the tables ---------------------------------------------------------------------------

def quantise_pmf(p):
    """A §2 table of probabilities p (the last the escape's): every
    frequency at least 1, the total 2^16."""
    f = np.maximum(1, np.floor(p / p.sum() * (CDF_TOTAL - len(p))).astype(np.int64))
    f[np.argmax(f)] += CDF_TOTAL - f.sum()
    assert f.min() >= 1 and f.sum() == CDF_TOTAL
    return [0] + np.cumsum(f).tolist()


def gaussian_table(sigma):
    r = int(min(2000, math.ceil(8 * sigma) + 1))
    v = np.arange(-r, r + 1, dtype=np.float64)
    cdf = lambda t: 0.5 * np.array([math.erfc(-x / (sigma * math.sqrt(2))) for x in t])  # noqa: E731
    p = cdf(v + 0.5) - cdf(v - 0.5)
    tail = max(1e-9, 1 - p.sum())
    return quantise_pmf(np.append(p, tail)), -r


def z_tables(net, afrac):
    eb = net.entropy_bottleneck
    med = eb.medians().double().numpy()
    cdfs, offs, meds = [], [], []
    with torch.no_grad():
        s = torch.arange(-Z_RANGE, Z_RANGE + 1, dtype=torch.float32)
        for k in range(eb.channels):
            v = (s + float(med[k])).reshape(1, 1, -1)
            lo = eb.logits_cumulative(torch.cat([v - 0.5] * eb.channels))[k, 0]
            hi = eb.logits_cumulative(torch.cat([v + 0.5] * eb.channels))[k, 0]
            p = (torch.sigmoid(hi) - torch.sigmoid(lo)).double().numpy()
            p = np.maximum(p, 1e-9)
            cdfs.append(quantise_pmf(np.append(p, max(1e-9, 1 - p.sum()))))
            offs.append(-Z_RANGE)
            meds.append(int(round(med[k] * 2 ** afrac)))
    return cdfs, offs, meds


def entropy_json(net, afrac):
    sig = np.exp(np.linspace(math.log(0.11), math.log(SCALE_MAX), N_EDGES))
    edges = [int(round(s * 2 ** afrac)) for s in sig]
    tabs = [gaussian_table(s) for s in sig]
    zc, zo, zm = z_tables(net, afrac)
    return {"scale_edges": edges, "cdfs": [t[0] for t in tabs],
            "cdf_lengths": [len(t[0]) for t in tabs], "offsets": [t[1] for t in tabs],
            "z_cdfs": zc, "z_cdf_lengths": [len(c) for c in zc], "z_offsets": zo,
            "z_median_q": zm}


def bucket(sigma, edges):
    """The ceil bucket (integer-payloads §4 step 3)."""
    s = np.maximum(sigma, edges[0])
    n = len(edges)
    return n - 1 - (s[..., None] <= np.array(edges[:-1])[None, :]).sum(axis=-1)


# ---- the reference encoder and the check --------------------------------------------------

def analyse(net, rgb, tables, afrac):
    """The float analysis of rgb and what both reference encoders take from
    it: y at 2^afrac, z's symbols and z as the decoder rebuilds it (E2)."""
    x = torch.from_numpy(rgb.astype(np.float32).transpose(2, 0, 1)[None] / 255.0)
    with torch.no_grad():
        y = net.g_a(x)
        z = net.h_a(y)
    med = net.entropy_bottleneck.medians().double().numpy()
    z_sym = np.rint(z[0].double().numpy() - med[:, None, None]).astype(np.int64)
    z_int = z_sym * (1 << afrac) + np.array(tables["z_median_q"], dtype=np.int64)[:, None, None]
    y_int = np.rint(y[0].double().numpy() * 2 ** afrac).astype(np.int64)
    return y_int, z_sym, z_int


def encode(net, hs_layers, tables, rgb, afrac, hs_peaks=None):
    """A WIH1 of rgb ([H, W, 3] uint8, H and W multiples of 64), and its
    latent symbols for the float decode."""
    import wai
    y_int, z_sym, z_int = analyse(net, rgb, tables, afrac)
    n_z, zh, zw = z_sym.shape
    hs = int_run(hs_layers, z_int, afrac, hs_peaks)
    m = hs.shape[0] // 2
    scales, means = hs[:m], hs[m:]
    y_sym = np.rint((y_int - means) / 2 ** afrac).astype(np.int64)
    b = bucket(scales, tables["scale_edges"])
    zt = [(c, o) for c, o in zip(tables["z_cdfs"], tables["z_offsets"])]
    z_stream = wai.rans_encode(z_sym.reshape(-1), zt,
                               np.repeat(np.arange(n_z, dtype=np.uint32), zh * zw))
    yt = [(c, o) for c, o in zip(tables["cdfs"], tables["offsets"])]
    y_stream = wai.rans_encode(y_sym.reshape(-1), yt, b.reshape(-1).astype(np.uint32))
    sh, sw = y_sym.shape[1:]
    payload = (b"WIH1" + bytes([1, 0, 0, 0]) + struct.pack("<6I", m, sh, sw, n_z, zh, zw) +
               struct.pack("<I", len(z_stream)) + z_stream +
               struct.pack("<I", len(y_stream)) + y_stream)
    y_hat = y_sym + means / 2 ** afrac
    return payload, y_hat


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 10 * math.log10(255 ** 2 / max(mse, 1e-12))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ckpt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--afrac", type=int, default=12)
    ap.add_argument("--check", nargs="*", default=None, help="photographs (default: the held-out two)")
    ap.add_argument("--payloads", help="where the checked photographs' WIH1 go")
    ap.add_argument("--report", help="where the layer-by-layer exactness report goes")
    ap.add_argument("--tolerance", type=float, default=0.1,
                    help="largest |integer - float| PSNR in dB before the check fails")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(repo, "python"))
    net = model.from_weights(checkpoint.weights(a.ckpt))
    g_s, h_s = lower(net.g_s, a.afrac), lower(net.h_s, a.afrac)
    tables = entropy_json(net, a.afrac)
    os.makedirs(a.out, exist_ok=True)
    for name, blob in (("g_s.whm", whm1_bytes(g_s, a.afrac)), ("h_s.whm", whm1_bytes(h_s, a.afrac)),
                       ("entropy.json", json.dumps(tables).encode())):
        with open(os.path.join(a.out, name), "wb") as f:
            f.write(blob)
    print(f"wrote {a.out}: g_s.whm, h_s.whm, entropy.json (afrac {a.afrac})")
    photos = a.check if a.check else corpus.EXAMPLES
    # The encoder's members: the analysis as a graph, held to the module.
    desc, weights = analysis_graph.describe(net, model.GDN)
    rgb0 = corpus.load_rgb(photos[0])[:256, :256]
    worst = analysis_graph.check(
        net, desc, weights, torch.from_numpy(rgb0.astype(np.float32).transpose(2, 0, 1)[None] / 255.0))
    for name, blob in (("analysis.webnn.json", json.dumps(desc).encode()), ("analysis.f32", weights)):
        with open(os.path.join(a.out, name), "wb") as f:
            f.write(blob)
    print(f"wrote {a.out}: analysis.webnn.json, analysis.f32 (the encoder's; {worst:.1e} from the module)")
    import wai
    # Last, the listing: the set as written is pinnable (docs/spec-readings.md, L5).
    print(f"wrote {a.out}/listing.json: the pin over the set is {wai.write_listing(a.out)}")
    worst = 0.0
    hs_peaks, gs_peaks = [], None
    for p in photos:
        rgb = corpus.load_rgb(p)
        h, w = rgb.shape[0] // 64 * 64, rgb.shape[1] // 64 * 64
        rgb = np.ascontiguousarray(rgb[:h, :w])
        payload, y_hat = encode(net, h_s, tables, rgb, a.afrac, hs_peaks)
        pk = float_peaks(net.g_s, torch.from_numpy(y_hat[None].astype(np.float32)), a.afrac)
        gs_peaks = pk if gs_peaks is None else [max(u, v) for u, v in zip(gs_peaks, pk)]
        got = wai.decode(payload, set=a.out).outputs[0].array
        with torch.no_grad():
            f = net.g_s(torch.from_numpy(y_hat[None].astype(np.float32)))[0].numpy()
        fl = np.clip(np.rint(f.transpose(1, 2, 0) * 255), 0, 255)
        bpp = 8 * len(payload) / (h * w)
        pi, pf = psnr(got, rgb), psnr(fl, rgb)
        worst = max(worst, abs(pi - pf))
        print(f"{os.path.basename(p)} {w}x{h}: {bpp:.3f} bpp, integer {pi:.2f} dB, "
              f"float {pf:.2f} dB (the same symbols)")
        if a.payloads:
            os.makedirs(a.payloads, exist_ok=True)
            name = os.path.splitext(os.path.basename(p))[0] + ".wih1"
            with open(os.path.join(a.payloads, name), "wb") as f:
                f.write(payload)
    # integer-operators "Exactness": every layer's bounds on these photographs.
    report = (exactness_report("h_s", h_s, hs_peaks, a.afrac, "exact integer inputs") +
              exactness_report("g_s", g_s, gs_peaks, a.afrac, "inputs from the float model, +1 %"))
    print("\n".join(report))
    if a.report:
        with open(a.report, "w") as f:
            f.write("\n".join(report) + "\n")
    if worst > a.tolerance:
        raise SystemExit(f"the integer decode is {worst:.3f} dB from the float (over {a.tolerance})")


if __name__ == "__main__":
    main()
