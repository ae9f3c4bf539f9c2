#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Where a hyperprior checkpoint loses to WebP, picture by picture: the
figures docs/hyperprior.md ("Smooth pictures") is written from.

    WAI_LIBRARY=build/dev/libwai_python.so /usr/bin/python3 tools/hyperprior/study.py \\
        CKPT [--pictures PATH...] [--out FILE.md]

Each picture (default: tools/learned/corpus.py's held-out ones) is cut as Kodak's are
(corpus.kodak_cut: 768 x 512 after an area scale, or its own size in
multiples of 64 when smaller), coded by the checkpoint lowered to an
integer set (lower.py's reference encoder, libwai's decode), and beside it:

- float: the float model's synthesis of the same symbols (what the
  lowering costs), and the float model's own estimate of the bits (what the
  tables cost: 64 scale edges, 8 sigma and an escape, frequencies of at
  least 1 in 2^16);
- WebP at no more bytes (cwebp -m 6, the largest -q whose file is no
  larger), as the issue measured it;
- where the bits go: z's share, the share of y's symbols that are 0, the
  share of y's elements whose scale is at the floor (0.11), the mean
  scale.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(repo, "python"))
sys.path.insert(0, os.path.join(repo, "tools", "learned"))
import checkpoint  # noqa: E402
import corpus  # noqa: E402
import model  # noqa: E402
import wai  # noqa: E402

PY = "/usr/bin/python3"


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 10 * math.log10(255 ** 2 / max(mse, 1e-12))


def webp_at_most(png, max_bytes, tmp):
    """(bytes, psnr-ready decode) of the best cwebp -m 6 -q whose file is no
    larger than max_bytes; None when even -q 0 is larger."""
    best = None
    lo, hi = 0, 100
    while lo <= hi:  # the file grows with q: bisect for the largest that fits
        q = (lo + hi) // 2
        out = os.path.join(tmp, "w.webp")
        subprocess.run(["cwebp", "-quiet", "-m", "6", "-q", str(q), png, "-o", out], check=True)
        n = os.path.getsize(out)
        if n <= max_bytes:
            dec = os.path.join(tmp, "w.png")
            subprocess.run(["dwebp", "-quiet", out, "-o", dec], check=True)
            best = (n, q, np.asarray(Image.open(dec).convert("RGB")))
            lo = q + 1
        else:
            hi = q - 1
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ckpt")
    ap.add_argument("--pictures", nargs="*", default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    torch.set_num_threads(1)
    net = model.from_weights(checkpoint.weights(a.ckpt))
    pics = a.pictures or [p for _, p in corpus.available(corpus.HELD_OUT)[0]]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        pngs = []
        for p in pics:
            rgb = corpus.kodak_cut(corpus.load_rgb(p))
            name = os.path.splitext(os.path.basename(p))[0]
            pngs.append(os.path.join(tmp, name + ".png"))
            Image.fromarray(rgb).save(pngs[-1])
        set_dir, pay = os.path.join(tmp, "set"), os.path.join(tmp, "pay")
        low = subprocess.run([PY, os.path.join(here, "lower.py"), a.ckpt, "--out", set_dir,
                              "--check", *pngs, "--payloads", pay, "--tolerance", "100"],
                             check=True, capture_output=True, text=True).stdout
        floats = {ln.split()[0]: float(ln.split("float ")[1].split()[0])
                  for ln in low.splitlines() if " bpp, integer " in ln}
        for png in pngs:
            name = os.path.splitext(os.path.basename(png))[0]
            rgb = np.asarray(Image.open(png).convert("RGB"))
            h, w = rgb.shape[:2]
            payload = open(os.path.join(pay, name + ".wih1"), "rb").read()
            got = wai.decode(payload, set=set_dir).outputs[0].array
            hdr = wai.inspect(payload, set=set_dir)["header"]
            x = torch.from_numpy(rgb.astype(np.float32).transpose(2, 0, 1)[None] / 255)
            with torch.no_grad():
                _, y_lik, z_lik = net(x)
                z_sym, y_sym, _, scales, _ = net.code(x)
            est = float((-torch.log2(y_lik).sum() - torch.log2(z_lik).sum()) / (h * w))
            wb = webp_at_most(png, len(payload), tmp)
            zb = hdr.get("z_stream_bytes", hdr.get("z_bytes"))
            rows.append({
                "name": name, "size": f"{w}x{h}", "bpp": 8 * len(payload) / (h * w),
                "est_bpp": est, "int": psnr(got, rgb), "float": floats[name + ".png"],
                "webp": psnr(wb[2], rgb) if wb else float("nan"), "webp_q": wb[1] if wb else -1,
                "z_share": (8 * zb / (8 * len(payload))) if zb else float("nan"),
                "zero": float((y_sym == 0).float().mean()),
                "floor": float((scales <= 0.11 + 1e-6).float().mean()),
                "scale": float(scales.clamp(min=0.11).mean()),
            })
    head = ("| picture | size | bpp (est.) | WIH1 dB | float g_s dB | WebP dB (q) at ≤ bytes | "
            "Δ WebP | z share | y zeros | scale at floor | mean scale |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        lines.append(f"| {r['name']} | {r['size']} | {r['bpp']:.3f} ({r['est_bpp']:.3f}) | "
                     f"{r['int']:.2f} | {r['float']:.2f} | {r['webp']:.2f} ({r['webp_q']}) | "
                     f"{r['int'] - r['webp']:+.2f} | {r['z_share']:.2f} | {r['zero']:.2f} | "
                     f"{r['floor']:.2f} | {r['scale']:.2f} |")
    mean = np.nanmean([r["int"] - r["webp"] for r in rows])
    lines.append(f"\nmean Δ against WebP at no more bytes: {mean:+.2f} dB over {len(rows)} pictures "
                 f"({os.path.basename(a.ckpt)})")
    print("\n".join(lines))
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
