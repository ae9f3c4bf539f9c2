#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# wai.neural.int_mlicpp's training as CI runs it (issue 60): the entropy
# network starts as the hyperprior (sigma || mu = hyper whatever y holds);
# two steps of tools/mlicpp/train.py and a two-crop tools/mlicpp/fit.py;
# then the shipped q3 lowered again (tools/mlicpp/make_set.py) by BUILD's
# libwai: model.wmb byte for byte the shipped one, chelsea's WIM1 byte for
# byte examples/mlicpp/chelsea.wim1, its integer decode within 0.05 dB of
# the float model's. Prints "N passed, N failed".
#
#   tests/mlicpp/smoke.sh BUILD
source "$(dirname "${BASH_SOURCE[0]}")/../ci/smoke_lib.bash"
check start-as-hyperprior "$py" - "$repo" <<'PY'
import sys
import torch
sys.path.insert(0, sys.argv[1] + "/tools/mlicpp")
from entropy_net import ContextEntropy, pass_masks
torch.manual_seed(1)
e = ContextEntropy(8, 4)
e.start_as_hyperprior()
hyper = torch.cat([torch.rand(1, 8, 6, 5) * 3, torch.randn(1, 8, 6, 5) * 10], 1)
# y's weights start at 1e-4 noise (so the first gradients differ): with y
# at 0 the output is hyper; with y of latent size (|y| ~ 20) within 0.1.
s, m = e(torch.zeros(1, 8, 6, 5), hyper)
assert torch.allclose(torch.cat([s, m], 1), hyper, atol=1e-4), "not the hyperprior"
for before, _ in pass_masks(8, 4, 6, 5):
    s, m = e(torch.randn(1, 8, 6, 5) * 20 * before, hyper)
    assert torch.allclose(torch.cat([s, m], 1), hyper, atol=0.1), "not the hyperprior"
masks = pass_masks(8, 4, 6, 5)
assert len(masks) == 8 and torch.equal(sum(now for _, now in masks), torch.ones(8, 6, 5))
assert torch.equal(masks[1][0][:2], masks[0][1][:2]) and masks[1][0][:2].sum() == 2 * 15
print("ok")
PY
check train-smoke "$py" "$repo/tools/mlicpp/train.py" --point 3 --smoke
check fit-smoke "$py" "$repo/tools/mlicpp/fit.py" --point 3 --smoke
if [[ -n "${1:-}" && -e "$1/libwai_python.so" ]]; then
    check lower-and-decode env WAI_LIBRARY="$1/libwai_python.so" "$py" \
        "$repo/tools/mlicpp/make_set.py" --point 3 --out "$tmp/set" --payloads "$tmp/pay" \
        --check /usr/lib/python3/dist-packages/skimage/data/chelsea.png
    check same-set cmp "$tmp/set/model.wmb" "$repo/examples/mlicpp/sets/q3/model.wmb"
    check same-payload cmp "$tmp/pay/chelsea.wim1" "$repo/examples/mlicpp/chelsea.wim1"
else
    echo "  FAIL lower-and-decode: no BUILD/libwai_python.so"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
((failed == 0))
