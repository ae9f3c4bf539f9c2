#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes examples/hello.wiv1: a small WIV1 clip (integer-payloads §3, keyframe
0) of a moving gradient, three 24x16 frames, 8x8 blocks, whole-pel vectors,
q = 1 (lossless). It encodes with its own rANS coder (§2) and decodes the
result again before writing, so the file is known to decode to the frames.
The library's own generator (tests/) supersedes this once the C encoder lands;
this script only makes the example the README runs."""
import struct, sys

H, W, N_FRAMES, BLOCK, Q, OFFSET = 16, 24, 3, 8, 1, -8
N = 19                      # cdf_len: values 0..16 direct, 17 the escape
ESC = N - 2
L31, MASK32 = 1 << 31, (1 << 32) - 1


def make_table():
    # Frequencies summing to 65536, heavier near the middle (residual 0).
    freqs = [max(1, 4000 - 450 * abs(v - 8)) for v in range(N - 1)]
    freqs[ESC] = 600
    freqs[8] += 65536 - sum(freqs)
    cdf = [0]
    for f in freqs:
        cdf.append(cdf[-1] + f)
    assert cdf[-1] == 65536 and len(cdf) == N
    return cdf


def frame(t):
    return [[[(x * 9 + y * 5 + t * 20 + c * 60) % 256 for c in range(3)]
             for x in range(W)] for y in range(H)]


def clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def predict(prev, y, x, c, dy, dx):
    return prev[clamp(y + dy, 0, H - 1)][clamp(x + dx, 0, W - 1)][c]


def symbols_for(value):
    """(kind, payload) operations for one decoded value (value = symbol - OFFSET)."""
    if 0 <= value < ESC:
        return [("sym", value)]
    raw = 2 * (value - ESC) if value >= ESC else 2 * (-value - 1) + 1
    groups = []
    while raw:
        groups.append(raw & 15)
        raw >>= 4
    assert len(groups) <= 8
    return [("sym", ESC), ("bits", len(groups))] + [("bits", g) for g in groups]


def encode(ops, cdf):
    x, words = L31, []
    for kind, v in reversed(ops):
        if kind == "sym":
            start, freq, scale = cdf[v], cdf[v + 1] - cdf[v], 16
        else:
            start, freq, scale = v, 1, 4
        x_max = ((L31 >> scale) << 32) * freq
        if x >= x_max:
            words.append(x & MASK32)
            x >>= 32
        x = ((x // freq) << scale) + (x % freq) + start
    out = [x & MASK32, x >> 32] + list(reversed(words))
    return b"".join(struct.pack("<I", w) for w in out)


class Decoder:
    def __init__(self, stream):
        self.w = list(struct.unpack("<%dI" % (len(stream) // 4), stream))
        self.x, self.pos = (self.w[1] << 32) | self.w[0], 2

    def renorm(self):
        if self.x < L31:
            assert self.pos < len(self.w), "stream ran out"
            self.x = (self.x << 32) | self.w[self.pos]
            self.pos += 1

    def bits(self, n):
        v = self.x & ((1 << n) - 1)
        self.x >>= n
        self.renorm()
        return v

    def symbol(self, cdf):
        cum = self.x & 0xFFFF
        s = max(i for i in range(N - 1) if cdf[i] <= cum)
        self.x = (cdf[s + 1] - cdf[s]) * (self.x >> 16) + cum - cdf[s]
        self.renorm()
        if s < ESC:
            return s + OFFSET
        count = v = self.bits(4)
        for _ in range(8):
            if v != 15:
                break
            v = self.bits(4)
            count += v
        count = min(count, 8)
        raw = sum(self.bits(4) << (4 * j) for j in range(count))
        value = -(raw >> 1) - 1 if raw & 1 else (raw >> 1) + ESC
        return value + OFFSET


def main(path):
    cdf = make_table()
    src = [frame(t) for t in range(N_FRAMES)]
    nbx, nby = -(-W // BLOCK), -(-H // BLOCK)
    # Each block of frame t+1 reads frame t shifted by the gradient's motion.
    mvs = [[(-1 + (b % 2), -2 - (b % 3)) for b in range(nbx * nby)] for _ in range(N_FRAMES - 1)]
    ops, recon = [], []
    for t in range(N_FRAMES):
        cur = [[[0] * 3 for _ in range(W)] for _ in range(H)]
        for y in range(H):
            for x in range(W):
                for c in range(3):
                    if t == 0:
                        pred = 128
                    else:
                        dy, dx = mvs[t - 1][(y // BLOCK) * nbx + x // BLOCK]
                        pred = predict(recon[t - 1], y, x, c, dy, dx)
                    r = src[t][y][x][c] - pred
                    ops += symbols_for(r - OFFSET)
                    cur[y][x][c] = clamp(pred + r * Q, 0, 255)
        recon.append(cur)
    stream = encode(ops, cdf)
    # Self-check: decode the stream back to the residuals and frames.
    dec = Decoder(stream)
    for t in range(N_FRAMES):
        for y in range(H):
            for x in range(W):
                for c in range(3):
                    if t == 0:
                        pred = 128
                    else:
                        dy, dx = mvs[t - 1][(y // BLOCK) * nbx + x // BLOCK]
                        pred = predict(recon[t - 1], y, x, c, dy, dx)
                    assert clamp(pred + dec.symbol(cdf) * Q, 0, 255) == src[t][y][x][c]
    assert dec.pos == len(dec.w) and dec.x == L31, "not canonical"
    out = b"WIV1" + bytes([1, 1, 0, 0])
    out += struct.pack("<IIIIIiHH", N_FRAMES, H, W, BLOCK, Q, OFFSET, N, 0)
    out += b"".join(struct.pack("<I", v) for v in cdf)
    for f in mvs:
        out += b"".join(struct.pack("<hh", dy, dx) for dy, dx in f)
    out += struct.pack("<I", len(stream)) + stream
    with open(path, "wb") as fh:
        fh.write(out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "examples/hello.wiv1")
