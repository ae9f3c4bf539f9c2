#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""PyTorch float32 peer of bench/bench_synthesis.c (issue 4).

The same bmshj2018-factorized-shaped synthesis: four ConvTranspose2d
(192 -> 128 -> 128 -> 128 -> 3, k 5, stride 2, padding 2, output_padding 1)
from a [1, 192, 32, 48] latent to [1, 3, 512, 768], one thread, under
torch.inference_mode(). Two timings, each one warm-up then the median of
--reps runs:
  - convt: the four transposed convolutions alone (what the oneDNN column
    times), each layer timed on its own and the medians summed;
  - network: the whole synthesis with an inverse GDN between each two,
    y = x * sqrt(beta + conv1x1(x^2, gamma)), as plain torch ops (GDN's
    usual formula, no fused kernel), run end to end.
Weights are random: only the shapes matter for time.

  bench_synthesis_torch.py [--reps N] [--raw]

--raw prints "key ms macs" lines for bench/bench_synthesis.sh.
"""
import argparse
import statistics
import time

import torch

CIN, CMID, COUT, N_CONVT, LH, LW = 192, 128, 3, 4, 32, 48


def median_ms(fn, reps):
    fn()  # warm-up: first-call allocation and kernel selection
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def igdn(x, gamma, beta):
    # Inverse GDN: x_i * sqrt(beta_i + sum_j gamma_ij x_j^2), the 1x1
    # convolution being the c x c MACs per position that libwai counts.
    return x * torch.sqrt(torch.nn.functional.conv2d(x * x, gamma, beta))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--raw", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(4)

    chans = [CIN] + [CMID] * (N_CONVT - 1) + [COUT]
    convs, gdns, inputs = [], [], []
    h, w = LH, LW
    macs_convt = macs_igdn = 0
    for i in range(N_CONVT):
        c, oc = chans[i], chans[i + 1]
        conv = torch.nn.ConvTranspose2d(c, oc, 5, stride=2, padding=2, output_padding=1)
        conv.eval()
        convs.append(conv)
        inputs.append(torch.randn(1, c, h, w))
        macs_convt += c * h * w * oc * 25  # libwai's count: in_elems * cout * k * k
        h, w = 2 * h, 2 * w
        if i + 1 < N_CONVT:
            # Small non-negative gamma, beta 1: a mild expansion, as trained.
            gamma = torch.rand(oc, oc, 1, 1) * (0.1 / oc)
            beta = torch.ones(oc)
            gdns.append((gamma, beta))
            macs_igdn += oc * h * w * oc

    out = []

    def say(key, what, ms, macs):
        if args.raw:
            out.append(f"{key} {ms:.3f} {macs:.0f}")
        else:
            rate = f"{macs / ms / 1e6:7.2f} GMAC/s" if macs else ""
            out.append(f"  {what:<46} {ms:10.2f} ms  {rate}")

    with torch.inference_mode():
        x0 = inputs[0]
        y = convs[0](x0)
        for i in range(1, N_CONVT):
            y = convs[i](igdn(y, *gdns[i - 1]))
        assert tuple(y.shape) == (1, COUT, 2 ** N_CONVT * LH, 2 ** N_CONVT * LW), y.shape

        total = 0.0
        for i in range(N_CONVT):
            ms = median_ms(lambda: convs[i](inputs[i]), args.reps)
            c = chans[i]
            hh, ww = inputs[i].shape[2], inputs[i].shape[3]
            say(f"torch_layer{i}", f"  torch f32 ConvTranspose2d {i}", ms,
                c * hh * ww * chans[i + 1] * 25)
            total += ms
        say("torch_convt", "PyTorch f32, deconvolutions only", total, macs_convt)

        def network():
            y = convs[0](x0)
            for i in range(1, N_CONVT):
                y = convs[i](igdn(y, *gdns[i - 1]))
            return y

        ms = median_ms(network, args.reps)
        say("torch_network", "PyTorch f32, whole network (torch-op IGDN)", ms,
            macs_convt + macs_igdn)

    if not args.raw:
        print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} thread(s), "
              f"median of {args.reps}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
