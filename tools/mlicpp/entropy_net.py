# SPDX-License-Identifier: BSD-2-Clause
"""The float model of wai.neural.int_mlicpp (integer-payloads §14): a
trained mean-scale hyperprior (tools/hyperprior/model.py: g_a, h_a, h_s,
g_s and z's entropy bottleneck, taken as they are) and the entropy
network WIM1 adds, which forms sigma || mu of every latent element from
concat(y, hyper) where y holds only what is already decoded.

WIM1's order: K channel slices, each in two checkerboard passes (the
anchors, (row + col) even, then the rest); before each pass the entropy
network runs on y with every element not yet decoded at 0. Training runs
all 2K passes at once, each on its own masked copy of y, so the rate of an
element is the one its own pass's sigma and mu give, as in the decode.

The entropy network: a 3 x 3 convolution over the 3 Cy inputs, a leaky
ReLU, and a 1 x 1 convolution to 2 Cy. It starts as the hyperprior: its
first layer copies sigma and mu + BIAS out of hyper (the leaky ReLU keeps
them: sigma > 0 and |mu| < BIAS), its last takes BIAS back off, and its y
weights start at 0, so before training WIM1 codes exactly what WIH1
codes; training then teaches it to read the context."""
import math

import torch
from torch import nn

BIAS = 64.0          # mu's shift through the leaky ReLU (|mu| is far below it)
SCALE_FLOOR = 0.11   # the tables' smallest scale edge (tools/hyperprior/lower.py)


class ContextEntropy(nn.Module):
    def __init__(self, cy, k=4, hidden=None):
        super().__init__()
        if cy % k:
            raise ValueError("Cy must be a multiple of K")
        self.cy, self.k = cy, k
        hidden = hidden or 2 * cy
        self.net = nn.Sequential(nn.Conv2d(3 * cy, hidden, 3, 1, 1), nn.LeakyReLU(0.01),
                                 nn.Conv2d(hidden, 2 * cy, 1))

    @torch.no_grad()
    def start_as_hyperprior(self):
        """The weights that give sigma || mu = hyper, whatever y is."""
        cy = self.cy
        c1, c2 = self.net[0], self.net[2]
        c1.weight.zero_()
        c1.bias.zero_()
        c2.weight.zero_()
        c2.bias.zero_()
        for i in range(2 * cy):
            c1.weight[i, cy + i, 1, 1] = 1.0
            c2.weight[i, i, 0, 0] = 1.0
        c1.bias[cy:2 * cy] = BIAS
        c2.bias[cy:2 * cy] = -BIAS
        # a little noise on the y weights, so the first gradients differ
        c1.weight[:, :cy].normal_(0, 1e-4)

    def forward(self, y, hyper):
        out = self.net(torch.cat([y, hyper], 1))
        return out[:, :self.cy], out[:, self.cy:]


def pass_masks(cy, k, h, w):
    """For each of the 2K passes in WIM1's order: (before, now), [cy, h, w]
    float masks of the elements decoded before the pass and of the ones it
    decodes."""
    rows = torch.arange(h)[:, None]
    cols = torch.arange(w)[None, :]
    anchor = ((rows + cols) % 2 == 0).float()
    out, done = [], torch.zeros(cy, h, w)
    s = cy // k
    for j in range(k):
        for p in range(2):
            now = torch.zeros(cy, h, w)
            now[j * s:(j + 1) * s] = anchor if p == 0 else 1 - anchor
            out.append((done.clone(), now))
            done = done + now
    return out


def gaussian_bits(y, sigma, mu):
    """-log2 of the probability of y's unit bin under N(mu, sigma), sigma
    floored as the tables floor it."""
    s = sigma.clamp(min=SCALE_FLOOR)
    d = (y - mu).abs()
    upper = 0.5 * torch.erfc((d - 0.5) / (s * math.sqrt(2)))
    lower = 0.5 * torch.erfc((d + 0.5) / (s * math.sqrt(2)))
    p = (upper - lower).clamp(min=1e-9)
    return -torch.log2(p)


def rate(ent, y, hyper, masks, context):
    """The bits of y over the 2K passes: each pass's elements against the
    sigma and mu its own masked context gives. context: the y the entropy
    network reads (y plus noise in training, y rounded in measurement)."""
    total = 0.0
    for before, now in masks:
        sigma, mu = ent(context * before, hyper)
        total = total + (gaussian_bits(y, sigma, mu) * now).sum()
    return total
