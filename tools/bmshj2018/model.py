# SPDX-License-Identifier: BSD-2-Clause
"""bmshj2018-factorized (Ballé, Minnen, Singh, Hwang, Johnston 2018,
"Variational image compression with a scale hyperprior", its factorized
prior model), written for Debian's python3-torch.

The parameters are named and parametrised as CompressAI names them
(compressai.models.FactorizedPrior: g_a.*, g_s.*, entropy_bottleneck.*;
GDN's beta and gamma through NonNegativeParametrizer), so a checkpoint this
module writes is in CompressAI's state-dict layout and one CompressAI wrote
loads here (load_compressai).

The synthesis's transposed convolutions keep their ConvTranspose2d weights
([in, out, 5, 5]) but are computed, in training, as one conv2d of their four
sub-pixel phases followed by pixel_shuffle: the same arithmetic (each output
a sum over the same taps), and on torch 1.13's CPU ~15x faster than
conv_transpose2d. subpixel_matches_transposed() checks the equivalence.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NonNegativeParametrizer(nn.Module):
    """CompressAI's reparametrisation: stored raw, used as max(raw, bound)^2 - pedestal."""

    def __init__(self, minimum=0.0, reparam_offset=2 ** -18):
        super().__init__()
        self.minimum = float(minimum)
        self.reparam_offset = float(reparam_offset)
        pedestal = self.reparam_offset ** 2
        self.register_buffer("pedestal", torch.Tensor([pedestal]))
        bound = (self.minimum + pedestal) ** 0.5
        self.register_buffer("lower_bound", torch.Tensor([bound]))

    def init(self, x):
        return torch.sqrt(torch.max(x + self.pedestal, self.pedestal))

    def forward(self, x):
        out = torch.max(x, self.lower_bound)
        return out * out - self.pedestal


class GDN(nn.Module):
    """y = x / sqrt(beta + gamma * x^2) (inverse: x * sqrt(...)), gamma a 1x1 conv."""

    def __init__(self, ch, inverse=False, beta_min=1e-6, gamma_init=0.1):
        super().__init__()
        self.inverse = inverse
        self.beta_reparam = NonNegativeParametrizer(minimum=beta_min)
        self.beta = nn.Parameter(self.beta_reparam.init(torch.ones(ch)))
        self.gamma_reparam = NonNegativeParametrizer()
        self.gamma = nn.Parameter(self.gamma_reparam.init(gamma_init * torch.eye(ch)))

    def values(self):
        return self.beta_reparam(self.beta), self.gamma_reparam(self.gamma)

    def forward(self, x):
        beta, gamma = self.values()
        c = x.shape[1]
        norm = F.conv2d(x * x, gamma.reshape(c, c, 1, 1), beta)
        norm = torch.sqrt(norm)
        return x * norm if self.inverse else x / norm


def subpixel_kernel(w):
    """The conv2d kernel [4*out, in, 3, 3] of a k=5, s=2, p=2, op=1 transposed
    convolution's four phases: phase (py, px) of output channel o is channel
    4*o + 2*py + px (pixel_shuffle's order); tap (dy, dx) over input (m+dy-1,
    n+dx-1) reads w[:, o, py+4-2*dy, px+4-2*dx] where that index is in 0..4."""
    cin, cout = w.shape[0], w.shape[1]
    k = w.new_zeros(cout, 2, 2, cin, 3, 3)
    for py in range(2):
        for px in range(2):
            for dy in range(3):
                for dx in range(3):
                    ky, kx = py + 4 - 2 * dy, px + 4 - 2 * dx
                    if 0 <= ky <= 4 and 0 <= kx <= 4:
                        k[:, py, px, :, dy, dx] = w[:, :, ky, kx].t()
    return k.reshape(cout * 4, cin, 3, 3)


class TransposedConv(nn.ConvTranspose2d):
    """ConvTranspose2d(k 5, stride 2, padding 2, output_padding 1), computed
    through its sub-pixel conv2d."""

    def __init__(self, cin, cout):
        super().__init__(cin, cout, 5, stride=2, padding=2, output_padding=1)

    def forward(self, x):
        y = F.conv2d(x, subpixel_kernel(self.weight), padding=1)
        return F.pixel_shuffle(y, 2) + self.bias.reshape(1, -1, 1, 1)


def conv(cin, cout):
    return nn.Conv2d(cin, cout, 5, stride=2, padding=2)


class EntropyBottleneck(nn.Module):
    """The factorized prior: a per-channel cumulative density, a small
    monotone network of each channel's own (CompressAI's EntropyBottleneck,
    filters (3, 3, 3), init_scale 10)."""

    def __init__(self, channels, filters=(3, 3, 3), init_scale=10.0, likelihood_bound=1e-9):
        super().__init__()
        self.channels = channels
        self.likelihood_bound = likelihood_bound
        f = (1,) + tuple(filters) + (1,)
        scale = init_scale ** (1 / (len(filters) + 1))
        for i in range(len(filters) + 1):
            init = math.log(math.expm1(1 / scale / f[i + 1]))
            m = torch.Tensor(channels, f[i + 1], f[i]).fill_(init)
            self.register_parameter(f"_matrix{i:d}", nn.Parameter(m))
            b = torch.Tensor(channels, f[i + 1], 1).uniform_(-0.5, 0.5)
            self.register_parameter(f"_bias{i:d}", nn.Parameter(b))
            if i < len(filters):
                self.register_parameter(f"_factor{i:d}", nn.Parameter(torch.zeros(channels, f[i + 1], 1)))
        self.n_layers = len(filters) + 1
        q = torch.Tensor([-init_scale, 0, init_scale]).repeat(channels, 1, 1)
        self.quantiles = nn.Parameter(q)
        self.register_buffer("target", torch.Tensor([-math.log(2 / 1e-9 - 1), 0, math.log(2 / 1e-9 - 1)]))

    def logits_cumulative(self, x):
        """x: [channels, 1, n] -> the logits of the CDF, the same shape."""
        logits = x
        for i in range(self.n_layers):
            m = F.softplus(getattr(self, f"_matrix{i:d}"))
            logits = torch.matmul(m, logits) + getattr(self, f"_bias{i:d}")
            if i < self.n_layers - 1:
                logits = logits + torch.tanh(getattr(self, f"_factor{i:d}")) * torch.tanh(logits)
        return logits

    def likelihood(self, y):
        """y: [B, C, H, W] (noisy or quantised) -> p(y in [y - 0.5, y + 0.5])."""
        b, c, h, w = y.shape
        v = y.permute(1, 0, 2, 3).reshape(c, 1, -1)
        lo = self.logits_cumulative(v - 0.5)
        hi = self.logits_cumulative(v + 0.5)
        sign = -torch.sign(lo + hi).detach()
        lik = torch.abs(torch.sigmoid(sign * hi) - torch.sigmoid(sign * lo))
        lik = torch.clamp(lik, min=self.likelihood_bound)
        return lik.reshape(c, b, h, w).permute(1, 0, 2, 3)

    def aux_loss(self):
        """Pulls the quantiles to the density's 1e-9, 0.5 and 1 - 1e-9 points."""
        logits = self.logits_cumulative(self.quantiles)
        return torch.abs(logits - self.target).sum()

    def medians(self):
        return self.quantiles[:, 0, 1].detach()

    def forward(self, y):
        # Training: additive uniform noise stands for the rounding.
        noisy = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        return noisy, self.likelihood(noisy)


class FactorizedPrior(nn.Module):
    """g_a, g_s and the entropy bottleneck, N and M as CompressAI's."""

    def __init__(self, N=64, M=96):
        super().__init__()
        self.N, self.M = N, M
        self.g_a = nn.Sequential(conv(3, N), GDN(N), conv(N, N), GDN(N), conv(N, N), GDN(N), conv(N, M))
        self.g_s = nn.Sequential(
            TransposedConv(M, N), GDN(N, inverse=True),
            TransposedConv(N, N), GDN(N, inverse=True),
            TransposedConv(N, N), GDN(N, inverse=True),
            TransposedConv(N, 3))
        self.entropy_bottleneck = EntropyBottleneck(M)

    def forward(self, x):
        y = self.g_a(x)
        y_hat, lik = self.entropy_bottleneck(y)
        return self.g_s(y_hat), lik

    def quantise(self, y):
        """The coded symbols and the latent the decoder rebuilds: symbols
        round(y - median), latent symbols + median (the set's medians)."""
        med = self.entropy_bottleneck.medians().reshape(1, -1, 1, 1)
        sym = torch.round(y - med)
        return sym.to(torch.int64), sym + med


def subpixel_matches_transposed(seed=1):
    """The sub-pixel form equals conv_transpose2d (to float32 rounding)."""
    g = torch.Generator().manual_seed(seed)
    t = TransposedConv(5, 7)
    with torch.no_grad():
        t.weight.copy_(torch.randn(t.weight.shape, generator=g))
        t.bias.copy_(torch.randn(t.bias.shape, generator=g))
    x = torch.randn(2, 5, 6, 9, generator=g)
    want = F.conv_transpose2d(x, t.weight, t.bias, stride=2, padding=2, output_padding=1)
    got = t(x)
    return want.shape == got.shape and torch.allclose(want, got, atol=1e-4, rtol=1e-4)


def load_compressai(state, strict=True):
    """A FactorizedPrior from a CompressAI bmshj2018-factorized state dict
    (or one this module saved): N and M read off the weights."""
    N = state["g_a.0.weight"].shape[0]
    M = state["g_a.6.weight"].shape[0]
    model = FactorizedPrior(N, M)
    keys = model.state_dict().keys()
    # CompressAI's extra buffers (the coder's CDFs, offsets) are its own.
    kept = {k: v for k, v in state.items() if k in keys}
    missing = [k for k in keys if k not in kept and not k.endswith(("pedestal", "lower_bound", "target"))]
    if strict and missing:
        raise ValueError("not a bmshj2018-factorized state dict: missing " + ", ".join(missing[:5]))
    model.load_state_dict(kept, strict=False)
    return model
