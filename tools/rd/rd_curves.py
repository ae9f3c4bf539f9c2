#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Rate-distortion evidence (issues 17, 32): pictures no model trained on,
coded at several rates by

  - WIH1, libwai's integer hyperprior: each trained checkpoint of
    tools/hyperprior/ lowered (tools/hyperprior/lower.py) and its payloads
    decoded by libwai (python/wai);
  - bmshj2018, the float path's set (tools/bmshj2018/make_set.py over a
    checkpoint), decoded by libwai's native WebNN;
  - JPEG (libjpeg-turbo's cjpeg / djpeg, Debian's libjpeg-turbo-progs);
  - WebP (cwebp -m 6 / dwebp, Debian's webp);
  - AVIF (avifenc / avifdec, Debian's libavif-bin: libaom, 4:4:4, speed 6),
    where installed;

and measured in bits per pixel, PSNR (RGB) and MS-SSIM (RGB, Wang et al.
2003: five scales, an 11-tap Gaussian of sigma 1.5). Writes OUT.md (a table
a rate point a row, the means over the pictures; each codec's BD-rate
against JPEG and against WebP, Bjontegaard's fit of log rate over PSNR; and
each WIH1 rate point against WebP and JPEG at no more bytes, picture by
picture: the PSNR of the largest quality whose file is no larger, the way
the issue measured it) and OUT.png (PSNR and MS-SSIM against bpp).

    WAI_LIBRARY=build/release/libwai_python.so /usr/bin/python3 tools/rd/rd_curves.py \\
        --wih1 examples/hyperprior/train/q3.state [--wih1 CKPT ...] \\
        --bmshj2018 examples/bmshj2018/train/q3.state --out docs/rd/rd

    # the shipped sets as a user runs them (wai encode, then libwai's
    # decode), on the wide held-out set (corpus.HELD_OUT_WIDE):
    WAI_LIBRARY=build/release/libwai_python.so WAI_TOOL=build/release/tools/wai/wai \
        /usr/bin/python3 tools/rd/rd_curves.py --wide --avif-same-bytes \
        --wih1-set examples/hyperprior/sets/q1 [--wih1-set DIR ...] \
        [--wim1-set examples/mlicpp/sets/q1 ...] --out docs/rd/wide

--wim1-set adds WIM1 (wai.neural.int_mlicpp) the same way, and the BD-rates
then include each codec against WIH1.

With WIH1 points, OUT.md also has a table a picture a row: each WIH1 point's
PSNR gain over WebP and JPEG (and AVIF, with --avif-same-bytes) at no more
bytes, and the picture's
BD-rate of WIH1 against WebP and AVIF in PSNR and in MS-SSIM (its dB form,
-10 log10(1 - MS-SSIM)); OUT.json holds every picture's every point.

The pictures (default: tools/learned/corpus.py's held-out ones: the
five skimage photographs of the README's first table, three of OpenCV's,
two of MATE's) are cut as Kodak's are (corpus.kodak_cut: 768 x 512 after
an area scale, or their own size in multiples of 64), the same cut for
every codec."""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(repo, "python"))
sys.path.insert(0, os.path.join(repo, "tools", "learned"))
import corpus  # noqa: E402
import wai  # noqa: E402
from bd import bd_rate  # noqa: E402  (tools/rd/bd.py)

# None of these is in any training set (tools/learned/corpus.py).
PHOTOS = [p for _, p in corpus.HELD_OUT]
JPEG_Q = [10, 20, 30, 45, 60, 75, 90]
WEBP_Q = [5, 15, 30, 45, 60, 75, 90]
AVIF_Q = [58, 52, 46, 40, 34, 28, 20]  # avifenc's quantizer, 0 (lossless) to 63
PY = "/usr/bin/python3"


# ---- the metrics ----------------------------------------------------------------------------

def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 10 * math.log10(255 ** 2 / max(mse, 1e-12))


def _gauss(n=11, sigma=1.5):
    x = np.arange(n) - n // 2
    g = np.exp(-x ** 2 / (2 * sigma ** 2))
    return g / g.sum()


def _filter(x, g):
    """Valid separable filtering of a 2-D array."""
    from numpy.lib.stride_tricks import sliding_window_view
    x = sliding_window_view(x, len(g), axis=0) @ g
    return sliding_window_view(x, len(g), axis=1) @ g


def _ssim(a, b):
    g, c1, c2 = _gauss(), (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = _filter(a, g), _filter(b, g)
    va, vb = _filter(a * a, g) - ma * ma, _filter(b * b, g) - mb * mb
    cov = _filter(a * b, g) - ma * mb
    cs = (2 * cov + c2) / (va + vb + c2)
    return np.mean((2 * ma * mb + c1) / (ma * ma + mb * mb + c1) * cs), np.mean(cs)


def ms_ssim(a, b):
    w = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]
    out = []
    for ch in range(3):
        x, y = a[..., ch].astype(np.float64), b[..., ch].astype(np.float64)
        v = 1.0
        for i, wi in enumerate(w):
            s, cs = _ssim(x, y)
            if i == len(w) - 1:
                v *= max(s, 1e-9) ** wi
            else:
                v *= max(cs, 1e-9) ** wi
                h, ww = x.shape[0] // 2 * 2, x.shape[1] // 2 * 2
                x = x[:h, :ww].reshape(h // 2, 2, ww // 2, 2).mean(axis=(1, 3))
                y = y[:h, :ww].reshape(h // 2, 2, ww // 2, 2).mean(axis=(1, 3))
        out.append(v)
    return float(np.mean(out))


# ---- the codecs -----------------------------------------------------------------------------

def run(*cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def jpeg(src_ppm, q, tmp):
    out = os.path.join(tmp, f"q{q}.jpg")
    run("cjpeg", "-quality", str(q), "-outfile", out, src_ppm)
    dec = os.path.join(tmp, f"q{q}.dec.ppm")
    run("djpeg", "-ppm", "-outfile", dec, out)
    return os.path.getsize(out), np.asarray(Image.open(dec).convert("RGB"))


def webp(src_png, q, tmp):
    out = os.path.join(tmp, f"q{q}.webp")
    run("cwebp", "-quiet", "-m", "6", "-q", str(q), src_png, "-o", out)
    dec = os.path.join(tmp, f"q{q}.dec.png")
    run("dwebp", "-quiet", out, "-o", dec)
    return os.path.getsize(out), np.asarray(Image.open(dec).convert("RGB"))


def avif(src_png, q, tmp):
    out = os.path.join(tmp, f"q{q}.avif")
    run("avifenc", "-s", "6", "-y", "444", "--min", str(q), "--max", str(q), src_png, out)
    dec = os.path.join(tmp, f"q{q}.dec.png")
    run("avifdec", out, dec)
    return os.path.getsize(out), np.asarray(Image.open(dec).convert("RGB"))


def at_most(codec, src, qs, max_bytes, tmp):
    """The decode of codec at the best of qs (ascending quality) whose file
    is no larger than max_bytes, by bisection (size grows with quality);
    None when none fits."""
    best, lo, hi = None, 0, len(qs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        n, dec = codec(src, qs[mid], tmp)
        if n <= max_bytes:
            best, lo = dec, mid + 1
        else:
            hi = mid - 1
    return best


def shipped_set(set_dir, pngs, tmp, capability="wai.neural.int_hyper"):
    """Each photo's (bytes, decoded) through a shipped set: `wai encode`,
    then libwai's decode, as a user runs them."""
    tool = os.environ.get("WAI_TOOL", os.path.join(repo, "build", "release", "tools", "wai", "wai"))
    res = []
    for p in pngs:
        out = os.path.join(tmp, os.path.basename(p) + ".payload")
        run(tool, "encode", "--capability", capability, "--set", set_dir, p, "-o", out)
        with open(out, "rb") as f:
            data = f.read()
        res.append((len(data), wai.decode(data, set=set_dir).outputs[0].array))
    return res


def ssim_db(m):
    """MS-SSIM in decibels, -10 log10(1 - MS-SSIM): a scale BD-rate can fit."""
    return -10 * math.log10(max(1 - m, 1e-10))


def point_name(ckpt):
    """A rate point's label: its file's name without the extension
    (train/q3.state: q3)."""
    return os.path.splitext(os.path.basename(ckpt))[0]


def wih1(ckpt, pngs, tmp):
    """Each photo's (bytes, decoded) through the lowered set of ckpt."""
    set_dir, pay = os.path.join(tmp, "set"), os.path.join(tmp, "payloads")
    run(PY, os.path.join(repo, "tools", "hyperprior", "lower.py"), ckpt, "--out", set_dir,
        "--check", *pngs, "--payloads", pay)
    res = []
    for p in pngs:
        with open(os.path.join(pay, os.path.splitext(os.path.basename(p))[0] + ".wih1"), "rb") as f:
            data = f.read()
        res.append((len(data), wai.decode(data, set=set_dir).outputs[0].array))
    return res


def bmshj2018(ckpt, pngs, tmp, lib):
    set_dir = os.path.join(tmp, "set")
    specs = []
    for p in pngs:
        specs += ["--payload", os.path.join(tmp, os.path.basename(p) + ".b18f") + "=" + p]
    run(PY, os.path.join(repo, "tools", "bmshj2018", "make_set.py"), "--checkpoint", ckpt,
        "--out", set_dir, "--lib", lib, *specs)
    res = []
    for p in pngs:
        with open(os.path.join(tmp, os.path.basename(p) + ".b18f"), "rb") as f:
            data = f.read()
        res.append((len(data), wai.decode(data, set=set_dir).outputs[0].array))
    return res


# ---- the run --------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wih1", action="append", default=[], help="a hyperprior checkpoint")
    ap.add_argument("--bmshj2018", action="append", default=[], help="a bmshj2018 checkpoint")
    ap.add_argument("--out", required=True, help="OUT.md and OUT.png")
    ap.add_argument("--wih1-set", action="append", default=[],
                    help="a shipped WIH1 set's directory (examples/hyperprior/sets/qN)")
    ap.add_argument("--wim1-set", action="append", default=[],
                    help="a shipped WIM1 set's directory (examples/mlicpp/sets/qN)")
    ap.add_argument("--photos", nargs="*", default=PHOTOS, help="paths (default: the held-out)")
    ap.add_argument("--wide", action="store_true",
                    help="the wide held-out set (tools/learned/corpus.py's HELD_OUT_WIDE)")
    ap.add_argument("--avif-same-bytes", action="store_true",
                    help="AVIF at no more bytes than each WIH1 picture too (a search over "
                         "avifenc's 64 quantizers a picture: slow)")
    a = ap.parse_args()
    a.kinds = {}
    if a.wide:
        a.photos = [p for _, p, _ in corpus.HELD_OUT_WIDE]
        a.kinds = {p: k for _, p, k in corpus.HELD_OUT_WIDE}
    lib = os.environ.get("WAI_LIBRARY", os.path.join(repo, "build", "release", "libwai_python.so"))
    curves = {}  # codec -> list of (label, [(bpp, psnr, msssim) per photo])
    with tempfile.TemporaryDirectory() as tmp:
        pngs, ppms, photos = [], [], []
        for n in a.photos:
            rgb = corpus.kodak_cut(corpus.load_rgb(n))
            photos.append(rgb)
            pngs.append(os.path.join(tmp, os.path.basename(n).rsplit(".", 1)[0] + ".png"))
            ppms.append(pngs[-1][:-4] + ".ppm")
            Image.fromarray(rgb).save(pngs[-1])
            Image.fromarray(rgb).save(ppms[-1])

        def measure(results):
            return [(8 * b / (r.shape[0] * r.shape[1]), psnr(d, r), ms_ssim(d, r))
                    for (b, d), r in zip(results, photos)]

        for q in JPEG_Q:
            with tempfile.TemporaryDirectory() as t:
                curves.setdefault("JPEG", []).append(
                    (f"q {q}", measure([jpeg(p, q, t) for p in ppms])))
        for q in WEBP_Q:
            with tempfile.TemporaryDirectory() as t:
                curves.setdefault("WebP", []).append(
                    (f"q {q}", measure([webp(p, q, t) for p in pngs])))
        if shutil.which("avifenc"):
            for q in AVIF_Q:
                with tempfile.TemporaryDirectory() as t:
                    curves.setdefault("AVIF", []).append(
                        (f"q {q}", measure([avif(p, q, t) for p in pngs])))
        same_bytes = []  # (label, [(dB over WebP, dB over JPEG) per picture])
        fine_webp, fine_jpeg = list(range(0, 101)), list(range(2, 101))
        fine_avif = list(range(63, -1, -1))  # avifenc's quantizer: ascending quality
        avif_same = a.avif_same_bytes and shutil.which("avifenc")
        points = [(point_name(c), lambda t, c=c: wih1(c, pngs, t)) for c in a.wih1]
        points += [(os.path.basename(os.path.normpath(d)), lambda t, d=d: shipped_set(d, pngs, t))
                   for d in a.wih1_set]
        for label, code in points:
            with tempfile.TemporaryDirectory() as t:
                res = code(t)
                curves.setdefault("WIH1 (libwai, integer)", []).append((label, measure(res)))
                gains = []
                for (b, d), png, ppm, ref in zip(res, pngs, ppms, photos):
                    w = at_most(webp, png, fine_webp, b, t)
                    j = at_most(jpeg, ppm, fine_jpeg, b, t)
                    v = at_most(avif, png, fine_avif, b, t) if avif_same else None
                    # None: even the codec's lowest quality is larger (no comparison).
                    gains.append(tuple(psnr(d, ref) - psnr(x, ref) if x is not None else None
                                       for x in (w, j, v)))
                same_bytes.append((label, gains))
        for d in a.wim1_set:
            with tempfile.TemporaryDirectory() as t:
                curves.setdefault("WIM1 (libwai, integer)", []).append(
                    (os.path.basename(os.path.normpath(d)),
                     measure(shipped_set(d, pngs, t, "wai.neural.int_mlicpp"))))
        for c in a.bmshj2018:
            with tempfile.TemporaryDirectory() as t:
                curves.setdefault("bmshj2018 (libwai, float)", []).append(
                    (point_name(c), measure(bmshj2018(c, pngs, t, lib))))
    write(curves, a, same_bytes)


def per_picture(curves, a, same_bytes, with_avif):
    """A row a picture: WIH1's gain at no more bytes at each point, and its
    BD-rate against WebP and AVIF (PSNR, MS-SSIM in dB)."""
    wih1_curve = curves["WIH1 (libwai, integer)"]
    labels = [lab for lab, _ in same_bytes]
    over = ["WebP", "AVIF"] if with_avif and "AVIF" in curves else ["WebP"]
    head = ["picture"] + (["kind"] if a.kinds else []) + [f"{lab} vs WebP" for lab in labels]
    head += [f"{lab} vs AVIF" for lab in labels] if "AVIF" in over else []
    head += [f"BD-rate vs {o} ({m})" for o in over for m in ("PSNR", "MS-SSIM")]
    out = ["", "Picture by picture: each WIH1 point's PSNR gain (dB) over the codec at no more "
           "bytes (-: the codec's lowest quality is larger), and the picture's BD-rate of WIH1 "
           "against the codec (negative: WIH1 needs fewer bits; MS-SSIM in dB, -10 log10(1 - "
           "MS-SSIM)):", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def db(x):
        return "-" if x is None else f"{x:+.2f}"

    for i, p in enumerate(a.photos):
        row = [os.path.basename(p)] + ([a.kinds.get(p, "")] if a.kinds else [])
        row += [db(g[i][0]) for _, g in same_bytes]
        if "AVIF" in over:
            row += [db(g[i][2]) for _, g in same_bytes]
        test = [m[i] for _, m in wih1_curve]
        for o in over:
            ref = [m[i] for _, m in curves[o]]
            for k, f in ((1, lambda v: v), (2, ssim_db)):
                d, _ = bd_rate([(r[0], f(r[k])) for r in ref], [(t[0], f(t[k])) for t in test])
                row.append("n/a" if d is None else f"{d:+.1f} %")
        out.append("| " + " | ".join(row) + " |")
    return out


def write(curves, a, same_bytes=()):
    means = {k: [(lab, tuple(np.mean([m[i] for m in ms]) for i in range(3))) for lab, ms in v]
             for k, v in curves.items()}
    names = ", ".join(os.path.basename(p) for p in a.photos)
    lines = [f"Pictures no model trained on ({names}; cut as Kodak's are: 768 x 512, or their "
             "own size in multiples of 64), the means over them at each rate point.", "",
             "| codec | setting | bpp | PSNR (dB) | MS-SSIM |", "|---|---|---|---|---|"]
    for k, v in means.items():
        for lab, (b, p, s) in sorted(v, key=lambda t: t[1][0]):
            lines.append(f"| {k} | {lab} | {b:.3f} | {p:.2f} | {s:.4f} |")
    for anchor in ("JPEG", "WebP", "AVIF", "WIH1 (libwai, integer)"):
        if anchor not in means:
            continue
        ref = [(p[0], p[1]) for _, p in means[anchor]]
        lines += ["", f"BD-rate against {anchor} (PSNR; negative: fewer bits at the same quality):",
                  ""]
        for k, v in means.items():
            if k == anchor:
                continue
            d, how = bd_rate(ref, [(p[0], p[1]) for _, p in v])
            lines.append(f"- {k}: " + (f"{d:+.1f} % ({how}, {len(v)} rate points)" if d is not None
                                       else f"n/a ({len(v)} rate point(s); BD-rate needs 2)"))
    if same_bytes:
        with_avif = any(x[2] is not None for _, g in same_bytes for x in g)
        lines += ["", "WIH1 against " + ("WebP (cwebp -m 6), JPEG and AVIF (avifenc -s 6, 4:4:4)"
                                            if with_avif else "WebP (cwebp -m 6) and JPEG") +
                  " at no more bytes: each picture's "
                  "PSNR gain over the largest quality whose file is no larger, the mean over "
                  "the pictures where one is (a picture whose WIH1 is smaller than the codec's "
                  "lowest quality is left out; the count says how many are in):", "",
                  "| WIH1 | over WebP (dB) | over JPEG (dB) |" + (" over AVIF (dB) |" if with_avif else ""),
                  "|---|---|---|" + ("---|" if with_avif else "")]

        def mean_of(xs):
            xs = [x for x in xs if x is not None]
            return f"{np.mean(xs):+.2f} ({len(xs)} of" if xs else "n/a (0 of"

        for lab, g in same_bytes:
            lines.append(f"| {lab} | {mean_of([x[0] for x in g])} {len(g)}) | "
                         f"{mean_of([x[1] for x in g])} {len(g)}) |" +
                         (f" {mean_of([x[2] for x in g])} {len(g)}) |" if with_avif else ""))
        lines += per_picture(curves, a, same_bytes, with_avif)
    with open(a.out + ".json", "w") as f:
        json.dump({"pictures": a.photos, "curves": curves,
                   "same_bytes": [[lab, g] for lab, g in same_bytes]}, f, indent=1)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for k, v in means.items():
        pts = sorted(p for _, p in v)
        style = "o-" if len(pts) > 1 else "o"
        ax[0].plot([p[0] for p in pts], [p[1] for p in pts], style, label=k)
        ax[1].plot([p[0] for p in pts], [p[2] for p in pts], style, label=k)
    ax[0].set(xlabel="bits per pixel", ylabel="PSNR (dB), RGB", title="PSNR")
    ax[1].set(xlabel="bits per pixel", ylabel="MS-SSIM, RGB", title="MS-SSIM")
    for x in ax:
        x.grid(alpha=0.3)
        x.legend()
    fig.tight_layout()
    fig.savefig(a.out + ".png", dpi=110)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
