# SPDX-License-Identifier: BSD-2-Clause
"""A mean-scale hyperprior (Minnen, Ballé, Toderici 2018, "Joint
autoregressive and hierarchical priors", its mean-scale model without the
context model: CompressAI's MeanScaleHyperprior), written for Debian's
python3-torch, in the shapes WIH1 decodes (integer-payloads §4):

    g_a: conv5/2, GDN, conv5/2, GDN, conv5/2, GDN, conv5/2      3 -> N -> M
    h_a: conv3/1, leaky, conv5/2, leaky, conv5/2                 M -> N
    h_s: deconv5/2, leaky, deconv5/2, leaky, conv3/1             N -> 2M
    g_s: deconv5/2, IGDN, deconv5/2, IGDN, deconv5/2, IGDN, deconv5/2   M -> 3

h_s's first M channels are the scales, the rest the means (WIH1's split);
z is coded against a factorized prior (the entropy bottleneck, its medians
the set's z_median_q), y against a Gaussian of h_s's scale and mean:
symbols round(y - mean), the latent symbols + mean. Every operator is one
WHM1 has (integer-operators §13.2), so the synthesis side lowers to an
integer set (tools/hyperprior/lower.py). Parameter names follow
CompressAI's (g_a.*, g_s.*, h_a.*, h_s.*, entropy_bottleneck.*); the GDN,
the transposed convolution and the entropy bottleneck are
tools/bmshj2018/model.py's."""
import importlib.util
import math
import os

import torch
import torch.nn as nn


def _bmshj2018():
    """tools/bmshj2018/model.py, under a name of its own."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bmshj2018", "model.py")
    spec = importlib.util.spec_from_file_location("bmshj2018_model", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


bmshj2018 = _bmshj2018()
GDN, EntropyBottleneck = bmshj2018.GDN, bmshj2018.EntropyBottleneck
TransposedConv, conv = bmshj2018.TransposedConv, bmshj2018.conv

SCALE_MIN = 0.11  # CompressAI's lower bound on a scale


def conv3(cin, cout):
    return nn.Conv2d(cin, cout, 3, stride=1, padding=1)


def gaussian_likelihood(y, scales, means):
    """p(y in [y - 0.5, y + 0.5]) under N(means, max(scales, SCALE_MIN))."""
    s = torch.clamp(scales, min=SCALE_MIN)
    v = torch.abs(y - means)
    def phi(t):
        return 0.5 * torch.erfc(-t / math.sqrt(2))
    lik = phi((0.5 - v) / s) - phi((-0.5 - v) / s)
    return torch.clamp(lik, min=1e-9)


class MeanScaleHyperprior(nn.Module):
    def __init__(self, N=64, M=96):
        super().__init__()
        self.N, self.M = N, M
        self.g_a = nn.Sequential(conv(3, N), GDN(N), conv(N, N), GDN(N), conv(N, N), GDN(N),
                                 conv(N, M))
        self.g_s = nn.Sequential(
            TransposedConv(M, N), GDN(N, inverse=True),
            TransposedConv(N, N), GDN(N, inverse=True),
            TransposedConv(N, N), GDN(N, inverse=True),
            TransposedConv(N, 3))
        self.h_a = nn.Sequential(conv3(M, N), nn.LeakyReLU(inplace=True), conv(N, N),
                                 nn.LeakyReLU(inplace=True), conv(N, N))
        self.h_s = nn.Sequential(
            TransposedConv(N, M), nn.LeakyReLU(inplace=True),
            TransposedConv(M, M * 3 // 2), nn.LeakyReLU(inplace=True),
            conv3(M * 3 // 2, 2 * M))
        self.entropy_bottleneck = EntropyBottleneck(N)

    # What g_s is trained on: "noise", y plus uniform noise (Balle's proxy
    # for rounding), or "rounded", the latent the decoder rebuilds,
    # round(y - mean) + mean, with the gradient passed straight through
    # (Minnen and Singh 2020's mixed quantisation). The likelihood takes
    # the noise either way: a rounded y has no gradient to give the rate.
    synthesis_input = "noise"

    def forward(self, x):
        """Training. Returns x_hat and the likelihoods of y and z."""
        y = self.g_a(x)
        z = self.h_a(y)
        z_tilde, z_lik = self.entropy_bottleneck(z)
        scales, means = self.h_s(z_tilde).chunk(2, 1)
        y_tilde = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        y_lik = gaussian_likelihood(y_tilde, scales, means)
        if self.synthesis_input == "rounded":
            y_syn = y + (torch.round(y - means) + means - y).detach()
        else:
            y_syn = y_tilde
        return self.g_s(y_syn), y_lik, z_lik

    @torch.no_grad()
    def code(self, x):
        """The coded symbols of x: z's (round(z - median)) and y's
        (round(y - mean), h_s run on the rebuilt z), the rebuilt latent,
        and the scales and means."""
        y = self.g_a(x)
        z = self.h_a(y)
        med = self.entropy_bottleneck.medians().reshape(1, -1, 1, 1)
        z_sym = torch.round(z - med)
        scales, means = self.h_s(z_sym + med).chunk(2, 1)
        y_sym = torch.round(y - means)
        return z_sym, y_sym, y_sym + means, scales, means


def widths(sd):
    """(N, M) of the state dict sd: N from g_a's first layer, M from its
    last (a checkpoint widened by tools/hyperprior/widen.py is wider than
    the shipped points)."""
    return sd["g_a.0.weight"].shape[0], sd["g_a.6.weight"].shape[0]


def from_weights(sd):
    """A MeanScaleHyperprior at sd's widths, holding those weights, in eval mode."""
    net = MeanScaleHyperprior(*widths(sd))
    net.load_state_dict(sd)
    return net.eval()
