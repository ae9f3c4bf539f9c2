#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Agreement of wai.neural.bmshj2018 decodes (neural-dispatch §6.4).

For each payload, libwai's decode (`wai decode`, cpu/webnn/float) is held to
two reference decodes of the same symbols:
  - the torch module: the set's graph description interpreted with torch's
    operations, which the set tool proved equal to the module's synthesis
    (tools/bmshj2018/make_set.py);
  - a real ONNX Runtime on the set's decoder.onnx (the npm package
    onnxruntime-node, run by ort_decode.mjs).
Checks: the decode ran on cpu/webnn/float at tier none; its symbols_digest is
the BLAKE3 (`wai digest`) of the symbols `wai inspect --symbols` writes, and of
the set tool's own FILE.symbols where it is there; each reference's RGB8
(B4's rounding) is within --min-psnr dB (40) of libwai's. With PAYLOAD=SOURCE,
the rate-distortion point: bits per pixel, PSNR against the source picture.

    /usr/bin/python3 tests/bmshj2018/agreement.py --wai WAI --set DIR
        --node-modules DIR [--json OUT] PAYLOAD[=SOURCE] ...

Ends with "N passed, N failed".
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "bmshj2018"))
import make_set  # noqa: E402  (run_description: the description in torch)

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what, flush=True)
    return ok


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def rgb8(x, h, w):
    """B4 in float32: 0 for NaN and v <= 0, 255 for v >= 1, else
    floor(v * 255 + 0.5); the picture's top-left h x w, interleaved."""
    v = np.asarray(x, dtype=np.float32)[0, :, :h, :w]
    s = (v * np.float32(255)).astype(np.float32) + np.float32(0.5)
    out = np.floor(s.astype(np.float32))
    out = np.where(v > 0, out, 0)
    out = np.where(v >= 1, 255, out)
    return out.transpose(1, 2, 0).astype(np.uint8)


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def fmt(p):
    return "inf" if math.isinf(p) else f"{p:.2f}"


def one(a, tmp, spec, desc, weights, medians):
    payload, source = (spec.split("=", 1) + [None])[:2]
    name = os.path.basename(payload)
    data = open(payload, "rb").read()
    h, w, m, lh, lw = (int.from_bytes(data[8 + 4 * i:12 + 4 * i], "little") for i in range(5))
    out_rgb = os.path.join(tmp, name + ".rgb")
    r = run([a.wai, "decode", "--json", "--set", a.set, payload, "-o", out_rgb, "-y"])
    if not check(r.returncode == 0, f"{name}: wai decode exit {r.returncode}: {r.stderr[:300]}"):
        return None
    res = json.loads(r.stdout)
    ran = res["report"]["ran"]
    check(ran == {"unit": "cpu", "backend": "webnn", "arithmetic": "float", "tier": "none",
                  "placement": None}, f"{name}: ran {ran}")
    digest = res.get("symbols_digest")
    check(digest is not None, f"{name}: no symbols_digest")
    # The symbols: libwai's entropy stage alone, their BLAKE3, the tool's.
    sym_path = os.path.join(tmp, name + ".sym")
    r = run([a.wai, "inspect", "--set", a.set, "--symbols", sym_path, payload, "-y"])
    check(r.returncode == 0, f"{name}: wai inspect --symbols exit {r.returncode}: {r.stderr[:300]}")
    inspect = json.loads(r.stdout.splitlines()[0])
    check(inspect.get("symbols_digest") == digest, f"{name}: inspect's digest is not decode's")
    b3 = run([a.wai, "digest", "--blake3", sym_path]).stdout.split()[0]
    check(b3 == digest, f"{name}: the symbols' BLAKE3 {b3} is not symbols_digest {digest}")
    tool_sym = payload + ".symbols"
    if os.path.exists(tool_sym):
        check(open(tool_sym, "rb").read() == open(sym_path, "rb").read(),
              f"{name}: the symbols are not the set tool's ({tool_sym})")
    sym = np.fromfile(sym_path, dtype="<i4").reshape(1, m, lh, lw)
    latent = (sym.astype(np.float32) + medians.reshape(1, m, 1, 1)).astype(np.float32)

    got = np.fromfile(out_rgb, dtype=np.uint8).reshape(h, w, 3)
    # torch: the description interpreted with torch's operations.
    with torch.no_grad():
        xt = make_set.run_description(desc, weights, torch.from_numpy(latent)).numpy()
    ref_torch = rgb8(xt, h, w)
    # ONNX Runtime: decoder.onnx on the same latent.
    lat_path, ort_out = os.path.join(tmp, name + ".lat"), os.path.join(tmp, name + ".ort")
    latent.tofile(lat_path)
    r = run(["node", os.path.join(HERE, "ort_decode.mjs"), a.node_modules,
             os.path.join(a.set, "decoder.onnx"), lat_path, str(m), str(lh), str(lw), ort_out])
    if not check(r.returncode == 0, f"{name}: onnxruntime-node exit {r.returncode}: {r.stderr[-500:]}"):
        return None
    xo = np.fromfile(ort_out, dtype="<f4").reshape(1, 3, 16 * lh, 16 * lw)
    ref_ort = rgb8(xo, h, w)
    p_torch, p_ort, p_refs = psnr(got, ref_torch), psnr(got, ref_ort), psnr(ref_torch, ref_ort)
    check(p_torch >= a.min_psnr, f"{name}: {fmt(p_torch)} dB from torch, under {a.min_psnr}")
    check(p_ort >= a.min_psnr, f"{name}: {fmt(p_ort)} dB from ONNX Runtime, under {a.min_psnr}")
    row = {"payload": name, "width": w, "height": h, "bytes": len(data),
           "bpp": round(8 * len(data) / (w * h), 4), "symbols_digest": digest,
           "psnr_vs_torch": fmt(p_torch), "psnr_vs_onnxruntime": fmt(p_ort),
           "psnr_torch_vs_onnxruntime": fmt(p_refs),
           "max_level_diff_torch": int(np.abs(got.astype(int) - ref_torch).max()),
           "max_level_diff_onnxruntime": int(np.abs(got.astype(int) - ref_ort).max())}
    if source:
        sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "learned"))
        import corpus as photos  # noqa: E402
        src = photos.load_rgb(source)
        check(src.shape == got.shape, f"{name}: the source is {src.shape}, the decode {got.shape}")
        if src.shape == got.shape:
            row["psnr_vs_source"] = fmt(psnr(got, src))
            row["psnr_vs_source_torch"] = fmt(psnr(ref_torch, src))
    print(json.dumps(row), flush=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wai", required=True)
    ap.add_argument("--set", required=True)
    ap.add_argument("--node-modules", required=True)
    ap.add_argument("--min-psnr", type=float, default=40.0)
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("payloads", nargs="+")
    a = ap.parse_args()
    desc = json.load(open(os.path.join(a.set, "decoder.webnn.json")))
    weights = open(os.path.join(a.set, "decoder.f32"), "rb").read()
    tables = json.load(open(os.path.join(a.set, "cdfs_q3.json")))
    medians = np.array(tables["medians"], dtype="<u4").view("<f4")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in a.payloads:
            row = one(a, tmp, spec, desc, weights, medians)
            if row:
                rows.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
