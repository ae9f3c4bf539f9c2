#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Recomputes a receipt's commitments and receipt hash from integer-payloads
section 15's text, independently of libwai: the preimages are built here
byte by byte and hashed by b3sum (the BLAKE3 reference tool).

usage: receipt_kat.py RECEIPT.json PAYLOAD FRAMES.rgb
FRAMES.rgb holds the frames the receipt's hashes are of, RGB8, frame after
frame (a decode receipt: the decode; an encode receipt: the source).
Prints one line per check ("ok NAME" or "MISMATCH NAME") and exits 1 on any
mismatch. The signature is not checked (no Ed25519 here): the receipt hash
covers the signing payload, built from the JSON members in section 15's
order, and sig."""
import json
import struct
import subprocess
import sys


def b3(data: bytes) -> bytes:
    out = subprocess.run(["b3sum", "--no-names", "-"], input=data, capture_output=True, check=True)
    return bytes.fromhex(out.stdout.decode().strip())


def merkle(leaves):
    """Reading K1: RFC 6962 section 2.1's tree with BLAKE3."""
    if not leaves:
        return b3(b"")
    if len(leaves) == 1:
        return b3(b"\x00" + leaves[0])
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return b3(b"\x01" + merkle(leaves[:k]) + merkle(leaves[k:]))


def class_bytes(r):
    tags = {None: 0, "HwShunt": 1, "ModelBased": 2, "Estimator": 3, "OnChipCounter": 4,
            "CalibratedInstrument": 5}
    p = r["energy_provenance"]
    out = bytes([tags[p]])
    if p in ("OnChipCounter", "CalibratedInstrument"):
        u = r["energy_uncertainty"]
        out += struct.pack(">IQ", u["relative_ppm"], u["window_us"])
    if p == "OnChipCounter":
        out += bytes([{"Unknown": 0, "Off": 1, "On": 2}[r["energy_counter_filtering"]]])
    if p == "CalibratedInstrument":
        ref = r["energy_calibration_ref"].encode()
        out += struct.pack(">I", len(ref)) + ref
    return out


def main():
    receipt, payload, frames_path = sys.argv[1:4]
    r = json.load(open(receipt))
    enc = r["profile"] == "wai.video.int_motion/encode-receipt"
    h, w = r["h"], r["w"]
    rgb = open(frames_path, "rb").read()
    size = h * w * 3
    n = len(rgb) // size
    frame_tag, clip_tag = (b"wai:video-sframe", b"wai:video-source") if enc else \
        (b"wai:video-rframe", b"wai:video-clip")
    hashes = [b3(frame_tag + b"\x01" + struct.pack("<Q", i) + rgb[i * size:(i + 1) * size])
              for i in range(n)]
    listed = [bytes.fromhex(x) for x in r["source_frames" if enc else "frames"]]
    clip = b3(clip_tag + b"\x01" + struct.pack("<IIQ", h, w, n) +
              b"".join(struct.pack("<Q", i) + x for i, x in enumerate(hashes)))
    checks = [
        ("codestream_hash", b3(open(payload, "rb").read()).hex() == r["codestream_hash"]),
        ("frame hashes", hashes == listed),
        ("source_hash" if enc else "clip_hash", clip.hex() == r["source_hash" if enc else "clip_hash"]),
        ("work_pixel_ops", r["work_pixel_ops"] == min(n * h * w * 3, 2**64 - 1)),
    ]
    if not enc:
        checks.append(("merkle_root", merkle(hashes).hex() == r["merkle_root"]))
    # The signing payload, section 15.1 / 15.3's order, big-endian.
    parent = r["parent_receipt_hash"]
    sid = r["signer_id"].encode()
    if enc:
        p = b"wai:video-encode-receipt\x01" + bytes.fromhex(r["codestream_hash"]) + \
            bytes.fromhex(r["source_hash"]) + struct.pack(">IIQIIBIQ", h, w, n, r["block"],
                                                          r["search"], r["mv_precision"], r["q"], r["sse"])
    else:
        p = b"wai:video-receipt\x01" + bytes.fromhex(r["codestream_hash"]) + \
            bytes.fromhex(r["clip_hash"]) + struct.pack(">II", h, w) + \
            bytes.fromhex(r["merkle_root"]) + struct.pack(">Q", n)
    p += struct.pack(">QQ", r["work_pixel_ops"], r["joules_micro"]) + class_bytes(r)
    p += b"\x00" if parent is None else b"\x01" + bytes.fromhex(parent)
    p += b"".join(struct.pack(">Q", i) + x for i, x in enumerate(listed))
    p += bytes.fromhex(r["signer_pubkey"]) + struct.pack(">I", len(sid)) + sid
    tag = b"wai:video-encode-receipt-id" if enc else b"wai:video-receipt-id"
    rh = b3(tag + b"\x01" + p + bytes.fromhex(r["sig"]))
    checks.append(("receipt_hash", rh.hex() == r["receipt_hash"]))
    if not enc:
        # uj_per_kilopixel_op: binary64 product then quotient, "%.6f".
        want = None
        if r["energy_provenance"] is not None and r["work_pixel_ops"]:
            want = "%.6f" % (float(r["joules_micro"]) * 1000.0 / float(r["work_pixel_ops"]))
        text = open(receipt).read()
        got = text.split('"uj_per_kilopixel_op": ', 1)[1].split(",", 1)[0].strip()
        checks.append(("uj_per_kilopixel_op", got == (want or "null")))
    bad = 0
    for name, good in checks:
        print(("ok " if good else "MISMATCH ") + name)
        bad += not good
    sys.exit(1 if bad else 0)


main()
