#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""What caps WIH1 at high rates (issue 60), stage by stage: the figures
docs/hyperprior.md ("The high-rate ceiling") is written from.

    WAI_LIBRARY=build/release/libwai_python.so WAI_TOOL=build/release/tools/wai/wai \\
        /usr/bin/python3 tools/hyperprior/ceiling.py [--points 5 7] [--pictures PATH...] \\
        [--out FILE.md]

For each rate point qN (its training state examples/hyperprior/train/qN.state
and its shipped set examples/hyperprior/sets/qN) and each picture (default:
smooth, gradient-rich photographs of the training corpus's packages, none
held out), cut as Kodak's are, the PSNR (RGB, peak 255) of:

1. float, y unquantised: g_s(g_a(x)), the autoencoder's own ceiling;
2. float, y rounded: g_s(round(y - mean) + mean), the decoder's latent;
3. the same as RGB8 (rounded, clamped): what an 8-bit output can keep;
4. integer: `wai encode` with the shipped set, libwai's decode;
5. WebP (cwebp -m 6) at no more bytes than 4.

and what the integer decode's error looks like: the share of its energy
on the spectrum's period-2 and period-4 lines (the stride-2 transposed
convolutions' checkerboard) over the share those lines hold in white
noise (1: no checkerboard), and, where the picture is grey (the channels
within 4 levels), the share of the error that is colour (what is left
after the mean over R, G, B) against 2/3 for uncorrelated channels and 0
for an error that keeps grey grey. The two are measured on WebP's error too.
"""
import argparse
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

sys.path.insert(0, os.path.join(repo, "tools", "rd"))
import rd_curves as rd  # noqa: E402  (its psnr, webp and at_most)

psnr = rd.psnr

# Smooth skies, sea and soft backgrounds from the corpus's packages: two
# of VALIDATION's, two of the training photographs (never a held-out one).
PICTURES = ["/usr/share/sddm/themes/maldives/background.jpg",
            "/usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg",
            "/usr/share/backgrounds/sunset_by_Aitzol_Berasategi.jpg",
            "/usr/share/tuxpaint/templates/sun_behind_clouds.jpg"]
TOOL = os.environ.get("WAI_TOOL", os.path.join(repo, "build", "release", "tools", "wai", "wai"))


def checkerboard(err):
    """Energy share of the period-2 and period-4 spectrum lines over their
    share in white noise."""
    e = err.astype(np.float64).mean(axis=2)
    e -= e.mean()
    p = np.abs(np.fft.fft2(e)) ** 2
    h, w = p.shape
    mask = np.zeros_like(p, dtype=bool)
    for k in (h // 2, h // 4, h - h // 4):
        mask[k, :] = True
    for k in (w // 2, w // 4, w - w // 4):
        mask[:, k] = True
    return (p[mask].sum() / p.sum()) / mask.mean()


def colour_share(ref, err):
    """Where ref is grey (channels within 4 levels): the share of the
    error's energy off the grey axis (2/3: channels uncorrelated)."""
    grey = (ref.max(axis=2).astype(int) - ref.min(axis=2)) <= 4
    if grey.sum() < 1000:
        return None
    e = err[grey].astype(np.float64)
    off = e - e.mean(axis=1, keepdims=True)
    return float((off ** 2).sum() / max((e ** 2).sum(), 1e-12))


def stages(net, set_dir, rgb, tmp):
    x = torch.from_numpy(rgb.transpose(2, 0, 1)[None].astype(np.float32) / 255)
    with torch.no_grad():
        y = net.g_a(x)
        ceiling = net.g_s(y)[0].numpy().transpose(1, 2, 0) * 255
        _, _, y_hat, _, _ = net.code(x)
        rounded = net.g_s(y_hat)[0].numpy().transpose(1, 2, 0) * 255
    rgb8 = np.clip(np.round(rounded), 0, 255).astype(np.uint8)
    png, pay = os.path.join(tmp, "p.png"), os.path.join(tmp, "p.wih1")
    Image.fromarray(rgb).save(png)
    subprocess.run([TOOL, "encode", "--capability", "wai.neural.int_hyper", "--set", set_dir, png,
                    "-o", pay], check=True, capture_output=True)
    with open(pay, "rb") as f:
        data = f.read()
    dec = wai.decode(data, set=set_dir).outputs[0].array
    web = rd.at_most(rd.webp, png, list(range(0, 101)), len(data), tmp)
    bpp = 8 * len(data) / (rgb.shape[0] * rgb.shape[1])
    err = dec.astype(np.int16) - rgb
    werr = web.astype(np.int16) - rgb if web is not None else None
    return {"bpp": bpp, "ceiling": psnr(ceiling, rgb), "rounded": psnr(rounded, rgb),
            "rgb8": psnr(rgb8, rgb), "integer": psnr(dec, rgb),
            "webp": psnr(web, rgb) if web is not None else None,
            "cb": checkerboard(err), "cb_webp": checkerboard(werr) if werr is not None else None,
            "colour": colour_share(rgb, err),
            "colour_webp": colour_share(rgb, werr) if werr is not None else None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", nargs="*", type=int, default=[5, 7])
    ap.add_argument("--pictures", nargs="*", default=PICTURES)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    torch.set_num_threads(2)

    def f(v, fmt="{:.2f}"):
        return "-" if v is None else fmt.format(v)

    lines = ["| point | picture | bpp | float, y unquantised | float, y rounded | RGB8 | integer "
             "| WebP, no more bytes | checkerboard (int / WebP) | grey's colour share (int / WebP) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for q in a.points:
        net = model.from_weights(
            {k: v.float() for k, v in checkpoint.weights(
                os.path.join(repo, "examples", "hyperprior", "train", f"q{q}.state")).items()})
        set_dir = os.path.join(repo, "examples", "hyperprior", "sets", f"q{q}")
        for p in a.pictures:
            rgb = corpus.kodak_cut(corpus.load_rgb(p))
            with tempfile.TemporaryDirectory() as t:
                r = stages(net, set_dir, rgb, t)
            lines.append(f"| q{q} | {os.path.basename(p)} | {r['bpp']:.3f} | {r['ceiling']:.2f} | "
                         f"{r['rounded']:.2f} | {r['rgb8']:.2f} | {r['integer']:.2f} | "
                         f"{f(r['webp'])} | {r['cb']:.2f} / {f(r['cb_webp'])} | "
                         f"{f(r['colour'])} / {f(r['colour_webp'])} |")
            print(lines[-1], flush=True)
    if a.out:
        with open(a.out, "w") as fo:
            fo.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
