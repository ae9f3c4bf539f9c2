#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The hyperprior's training script as CI runs it (issue 17): three steps on
# small crops; its states (issue 60: the working state, the shipped one of
# the weights alone, a run resumed from each); a checkpoint that loads back
# into the model, the coder's
# symbols of a held-out photograph in the shapes WIH1 carries (z: N x h/64
# x w/64, y: M x h/16 x w/16; scales and means M each); then that
# checkpoint lowered to an integer set (tools/hyperprior/lower.py), a
# held-out photograph coded and decoded by BUILD's libwai, within 0.1 dB of
# the float model's decode of the same symbols; and that set's analysis
# members driving `wai encode`. Prints "N passed, N failed".
#
#   tests/hyperprior/smoke.sh BUILD
source "$(dirname "${BASH_SOURCE[0]}")/../ci/smoke_lib.bash"
if ! "$py" -c 'import torch, skimage' 2>/dev/null; then
    echo "  FAIL python3-torch or python3-skimage missing"
    echo "0 passed, 1 failed"
    exit 1
fi
check train-smoke "$py" "$repo/tools/learned/train.py" --smoke --out "$tmp/q.pt"
# The states (issue 60): a run with a state writes its working state
# (.run.state: the moments, the generators) and the shipped one (the
# weights alone, as examples/*/train/qN.state are); ship_state.py strips a
# working state to the same; checkpoint.weights reads all three as the
# same weights; a run resumed from a shipped state alone goes on from its
# step with a fresh optimiser and says so in its log, and one resumed from
# a working state keeps the moments.
check train-resume "$py" - "$repo" "$tmp/resume" <<'PY'
import os, subprocess, sys
import torch
repo, d = sys.argv[1:3]
tools = os.path.join(repo, "tools", "learned")
sys.path.insert(0, tools)
import checkpoint
os.makedirs(d)
def train(name):
    r = subprocess.run([sys.executable, os.path.join(tools, "train.py"), "--smoke", "--out", f"{d}/{name}.pt",
                        "--state", f"{d}/{name}.state"], check=True, capture_output=True, text=True)
    return r.stdout.splitlines()
def adam_steps(path):
    return {int(v["step"]) for v in torch.load(path)["opt"]["state"].values()}
train("a")
full, ship = torch.load(f"{d}/a.run.state"), torch.load(f"{d}/a.state")
assert "opt" in full and full["step"] == 3, sorted(full)
assert sorted(ship) == sorted(checkpoint.SHIPPED_KEYS) and ship["weights_only"] is True, sorted(ship)
assert (ship["step"], ship["model_kind"], ship["N"], ship["M"]) == (3, "hyperprior", 64, 96)
subprocess.run([sys.executable, os.path.join(tools, "ship_state.py"), f"{d}/a.run.state", f"{d}/b.state"],
               check=True)
assert sorted(torch.load(f"{d}/b.state")) == sorted(checkpoint.SHIPPED_KEYS)
ckpt = torch.load(f"{d}/a.pt")
for path in (f"{d}/a.state", f"{d}/b.state", f"{d}/a.run.state"):
    w = checkpoint.weights(path)
    assert list(w) == list(ckpt), path
    assert all(w[k].dtype == torch.float16 and torch.equal(w[k], v.half()) for k, v in ckpt.items()), path
# b.state alone (no b.run.state): the weights, the step, a fresh Adam.
out = train("b")
assert out[0].startswith("run from step 3: "), out[0]
assert f"resumed weights alone from {d}/b.state (a shipped state: fresh optimiser" in out[0], out[0]
assert out[-1].endswith("at step 6"), out[-1]
assert "resumed weights alone" in open(f"{d}/b.pt.log").read()
assert torch.load(f"{d}/b.state")["step"] == 6 and adam_steps(f"{d}/b.run.state") == {3}
# a.run.state beside a.state: the moments go on.
out = train("a")
assert out[0].startswith("run from step 3: ") and f"resumed {d}/a.run.state;" in out[0], out[0]
assert torch.load(f"{d}/a.state")["step"] == 6 and adam_steps(f"{d}/a.run.state") == {6}
print("ok")
PY
# g_s on the decoder's rounded latent (--synthesis-input rounded), as the
# last runs of q5 and q7 trained.
check train-rounded "$py" "$repo/tools/learned/train.py" --smoke --synthesis-input rounded \
    --init "$tmp/q.pt" --out "$tmp/r.pt"
check reload-and-code "$py" - "$repo" "$tmp/q.pt" <<'PY'
import os, sys
import numpy as np
import torch
repo, ckpt = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(repo, "tools", "hyperprior"))
sys.path.append(os.path.join(repo, "tools", "learned"))
import corpus, model
net = model.MeanScaleHyperprior()
net.load_state_dict(torch.load(ckpt))
rgb = corpus.load_rgb(corpus.EXAMPLES[0])[:128, :192]
x = torch.from_numpy(rgb.astype(np.float32).transpose(2, 0, 1)[None] / 255.0)
z, y, latent, scales, means = net.code(x)
assert tuple(z.shape) == (1, 64, 2, 3), z.shape
assert tuple(y.shape) == (1, 96, 8, 12) == tuple(scales.shape) == tuple(means.shape), y.shape
assert torch.allclose(latent - means, y, atol=1e-4)
assert torch.equal(y, torch.round(y))
print("ok")
PY
# The corpus's groups (tools/learned/corpus.py): a picture read from inside
# an archive (ARCHIVE::MEMBER, as ufoai-textures' are), the texture rule
# (colour maps of the named folders, >= 512, opaque), crops drawn in
# CROP_SHARES (an empty group's share going to the others), and
# attribution.py's glob rule (a packaging glob names no picture).
check corpus "$py" - "$repo" "$tmp" <<'PY'
import os, sys, zipfile
import numpy as np
from PIL import Image
repo, tmp = sys.argv[1:3]
sys.path.insert(0, os.path.join(repo, "tools", "learned"))
import attribution, corpus
def png(path, size, v, mode="RGB"):
    Image.fromarray(np.full((size, size, 3), v, np.uint8)).convert(mode).save(path)
arc = os.path.join(tmp, "t.pk3")
with zipfile.ZipFile(arc, "w") as z:
    for name, size, mode in (("tex_nature/grass.png", 512, "RGB"), ("tex_nature/grass_nm.png", 512, "RGB"),
                             ("tex_nature/small.png", 256, "RGB"), ("tex_ufo/hull.png", 512, "RGB"),
                             ("tex_nature/leaf.png", 512, "RGBA")):
        png(os.path.join(tmp, "m.png"), size, 7, mode)
        z.write(os.path.join(tmp, "m.png"), "textures/" + name)
tex = corpus.textures(arc)
assert [p.split("::")[1] for _, p in tex] == ["textures/tex_nature/grass.png"], tex
assert corpus.load_rgb(tex[0][1]).shape == (512, 512, 3)
assert corpus.textures(os.path.join(tmp, "absent.pk3")) == []
groups = []
for k, v in enumerate((40, 120, 200)):
    f = os.path.join(tmp, f"g{k}.png")
    png(f, 160, v)
    groups.append([("pkg", f)])
c = corpus.Crops(groups[0], groups[1], 64, 1, groups[2])
seen = np.array([c.crop()[0, 0, 0] for _ in range(4000)])
share = [np.mean(seen == v) for v in (40, 120, 200)]
assert all(abs(s - t) < 0.03 for s, t in zip(share, corpus.CROP_SHARES)), share
c = corpus.Crops(groups[0], groups[1], 64, 1)  # no textures: 2:1
seen = np.array([c.crop()[0, 0, 0] for _ in range(3000)])
assert abs(np.mean(seen == 40) - 2 / 3) < 0.03 and not np.any(seen == 200)
assert not attribution.names("debian/*", "/usr/share/backgrounds/x.jpg")
assert attribution.names("16.04/x.jpg", "/usr/share/backgrounds/x.jpg")
assert attribution.names("data/themes/maldives/*", "/usr/share/sddm/themes/maldives/b.jpg")
assert not attribution.names("src/greeter/theme/*", "/usr/share/sddm/themes/maldives/b.jpg")
assert attribution.names("base/textures/tex_nature/grass.png", arc + "::textures/tex_nature/grass.png")
assert not attribution.names("base/textures/tex_nature/grass2.png", arc + "::textures/tex_nature/grass.png")
print("ok", share)
PY
# Widening the latent (tools/hyperprior/widen.py) keeps the model's
# function: the same z and old y symbols, and the synthesis within 0.05 dB
# (g_s reads the new channels at 1/100 of the default weights).
check widen "$py" - "$repo" "$tmp/q.pt" "$tmp/wide.pt" <<'PY'
import math, os, subprocess, sys
import numpy as np
import torch
repo, ckpt, wide = sys.argv[1:4]
subprocess.run([sys.executable, os.path.join(repo, "tools", "hyperprior", "widen.py"), ckpt,
                "--M", "128", "--out", wide], check=True)
sys.path.insert(0, os.path.join(repo, "tools", "hyperprior"))
sys.path.append(os.path.join(repo, "tools", "learned"))
import corpus, model
a = model.from_weights(torch.load(ckpt))
b = model.from_weights(torch.load(wide))
assert (a.M, b.M, b.N) == (96, 128, 64), (a.M, b.M, b.N)
x = torch.from_numpy(corpus.load_rgb(corpus.EXAMPLES[0])[:128, :192].astype(np.float32)
                     .transpose(2, 0, 1)[None] / 255.0)
za, ya, la, sa, ma = a.code(x)
zb, yb, lb, sb, mb = b.code(x)
assert torch.equal(za, zb) and torch.equal(ya, yb[:, :96]), "the old symbols moved"
assert torch.allclose(sa, sb[:, :96], atol=1e-4) and torch.allclose(sb[:, 96:], torch.ones_like(sb[:, 96:]))
with torch.no_grad():
    d = [10 * math.log10(1 / float(((n.g_s(l).clamp(0, 1) - x) ** 2).mean())) for n, l in ((a, la), (b, lb))]
assert abs(d[0] - d[1]) < 0.05, d
print("ok", d)
PY
if [[ -n "${1:-}" && -e "$1/libwai_python.so" ]]; then
    check lower-and-decode env WAI_LIBRARY="$1/libwai_python.so" "$py" \
        "$repo/tools/hyperprior/lower.py" "$tmp/q.pt" --out "$tmp/set" \
        --check /usr/lib/python3/dist-packages/skimage/data/chelsea.png
    # The lowered set's analysis members drive the C encoder.
    check wai-encode "$1/tools/wai/wai" encode --capability wai.neural.int_hyper --set "$tmp/set" \
        /usr/lib/python3/dist-packages/skimage/data/coffee.png -o "$tmp/coffee.wih1"
else
    echo "  FAIL lower-and-decode: no BUILD/libwai_python.so"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
((failed == 0))
