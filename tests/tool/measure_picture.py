#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""A picture encoder's report held to its payload's decode (the tool tests
of WIH1 and WIM1): the decode is the picture's size rounded up to
multiples of 64, and its top-left against the picture gives the psnr and
sse lines the encode printed.

    measure_picture.py PICTURE.png DECODED.png REPORT   (exit 0, or why not)"""
import math
import sys

import numpy as np
from PIL import Image

pic, dec, err = sys.argv[1:]
a = np.asarray(Image.open(pic).convert("RGB")).astype(np.int64)
b = np.asarray(Image.open(dec).convert("RGB")).astype(np.int64)
h, w = a.shape[:2]
H, W = (h + 63) // 64 * 64, (w + 63) // 64 * 64
text = open(err).read()
if b.shape[:2] != (H, W):
    sys.exit(f"decode is {b.shape[1]}x{b.shape[0]}, want {W}x{H}")
sse = int(((b[:h, :w] - a) ** 2).sum())
want = f"psnr: {10 * math.log10(255 ** 2 * a.size / sse):.4f} dB"
if want not in text:
    sys.exit(f"'{want}' not in the report: {text}")
if f"sse: {sse} over {a.size} samples" not in text:
    sys.exit(f"sse {sse} not in the report: {text}")
