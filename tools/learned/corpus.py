# SPDX-License-Identifier: BSD-2-Clause
"""The pictures the learned image codecs train on, every one from a Debian
package, and the ones held out of training.

Install the packages (none of them is needed by a build or a test: CI's
smoke run trains on python3-skimage's alone):

    apt-get install python3-skimage mate-backgrounds ukui-wallpapers \\
        gnome-backgrounds opencv-doc tuxpaint-data lomiri-wallpapers-16.04 \\
        lomiri-wallpapers-20.04 sddm-theme-maldives ufoai-textures

| package | pictures | licence (docs/training-data.md gives each picture's row) | kind |
|---|---|---|---|
| mate-backgrounds | nature/: 10 photographs (2 more held out) | GPL-2+ (each has its own `Files:` entry, with its author) | photographs, 1280x1024 to 2560x1920 |
| opencv-doc | examples/: 27 photographs (3 more held out) | Apache-2.0 AND BSD-3-Clause (`Files: *`; no per-picture author) | photographs, 400x300 to 1282x1110 |
| python3-skimage | data/: 6 photographs (5 more held out) | BSD-3-Clause (`Files: *`); skimage's `_fetchers.py` docstrings say CC0 or public domain for most, nothing for two; data/README.txt names no licence | photographs |
| python3-matplotlib | grace_hopper.jpg | matplotlib's licence (`Files: *`; no entry names the picture or its author) | photograph |
| tuxpaint-data | templates/: 17 photographs (2 more for validation) | GPL-2+ (`Files: *`, Bill Kendrick) | photographs, 604x453 to 1296x864 |
| lomiri-wallpapers-16.04 | 14 photographs, 1 wallpaper | CC-BY-4.0, CC-BY-SA-4.0, CC0-1.0 (each has its own `Files:` entry, with its author) | photographs, 1365x1074 to 5312x2988 |
| lomiri-wallpapers-20.04 | 3 wallpapers (1 photograph for validation) | as 16.04's | smooth renders |
| sddm-theme-maldives | (1 photograph for validation) | CC-BY-3.0 (its own `Files:` entry, Nevit Dilmen) | photograph |
| ufoai-textures | 0textures.pk3: 198 surface textures | GPL-2 (126), GPL-2+ (34), public domain (21), CC-BY-SA-3.0 (14), CC-BY-3.0 (3) (its `Files:` blocks) | photographic textures (grass, rock, bark, brick, concrete), 512x512 to 1024x1024 |
| ukui-wallpapers | 12 wallpapers | CC-BY-SA-3.0 (`Files: *`) | smooth renders and gradients |
| mate-backgrounds | abstract/, desktop/: 12 wallpapers | GPL-2+, except desktop/Ubuntu-Mate-*-no-logo.png (4): CC-BY-SA-4.0 | smooth renders and gradients |
| gnome-backgrounds | 14 wallpapers | the package's GPL-2+ and CC-BY-SA-3.0; its AUTHORS names CC-BY-SA-3.0 for 6, and no file names the other 8 | smooth renders and textures |

75 photographs, 42 smooth pictures and 198 textures in training: the
photographs are the subject; the smooth pictures teach the low-amplitude,
slowly varying content the first sets coded worst (docs/hyperprior.md,
"Smooth pictures"); the textures the fine, dense detail (grass, gravel,
bark) the high rates drew worst. The weights are a statistical summary of the pictures and hold
none of them; docs/training-data.md names each picture, its author and its
licence, for the attribution GPL-2+ and CC-BY-SA ask for.

Held out, never trained or tuned on (HELD_OUT): python3-skimage's chelsea,
coffee, ihc, camera and grass (the README's rate-distortion table); OpenCV's
fruits, building and squirrel_cls; MATE's Dune and Storm (a smooth one).
plasma-workspace-wallpapers is reserved for evaluation outside the project
and appears nowhere here. VALIDATION (four photographs, from the packages
added last) is neither trained on nor reported: tools/learned/validate.py
compares checkpoints on it, so a choice between runs is made without the
held-out photographs.

Crops: each picture is first scaled down by 2 at least (area filter:
averaging removes the JPEG's blocking and ringing, and the camera's noise),
(and to a short side of 768 at most), then kept at every scale from that
down to where its short side is the crop's, a factor of 1.5 apart (multi-scale: the same scene at several
sizes of detail); a crop picks a group (photographs, smooth pictures and
textures in the shares 2:1:1, CROP_SHARES; the first runs drew photographs
and smooth pictures 3:1), a picture, a scale, a place and a flip each way.
A texture archive's members are read straight from it."""
import glob
import io
import os
import zipfile

import numpy as np
from PIL import Image

SKIMAGE = "/usr/lib/python3/dist-packages/skimage/data"
MATE = "/usr/share/backgrounds/mate"
UKUI = "/usr/share/backgrounds"
GNOME = "/usr/share/backgrounds/gnome"
OPENCV = "/usr/share/doc/opencv-doc/examples"
TUXPAINT = "/usr/share/tuxpaint/templates"
LOMIRI = "/usr/share/backgrounds"
MALDIVES = "/usr/share/sddm/themes/maldives"
UFOAI = "/usr/share/games/ufoai/base/0textures.pk3"
GRACE = ["/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg",
         "/usr/lib/python3/dist-packages/matplotlib/mpl-data/sample_data/grace_hopper.jpg"]

# (package, path) of each training photograph.
PHOTOS = (
    [("python3-skimage", f"{SKIMAGE}/{n}") for n in
     ["astronaut.png", "rocket.jpg", "motorcycle_left.png", "motorcycle_right.png",
      "hubble_deep_field.jpg", "retina.jpg"]]
    + [("mate-backgrounds", f"{MATE}/nature/{n}") for n in
       ["Aqua.jpg", "Blinds.jpg", "FreshFlower.jpg", "Garden.jpg", "GreenMeadow.jpg",
        "LadyBird.jpg", "RainDrops.jpg", "TwoWings.jpg", "Wood.jpg", "YellowFlower.jpg"]]
    + [("opencv-doc", f"{OPENCV}/data/{n}") for n in
       ["aero1.jpg", "aero3.jpg", "aloeL.jpg", "apple.jpg", "baboon.jpg", "basketball1.png",
        "board.jpg", "box_in_scene.png", "butterfly.jpg", "ela_original.jpg", "graf1.png",
        "leuvenA.jpg", "licenseplate_motion.jpg", "messi5.jpg", "orange.jpg",
        "rubberwhale1.png", "smarties.png", "starry_night.jpg"]]
    + [("opencv-doc", f"{OPENCV}/{n}") for n in
       ["alphamat/input_images/plant.jpg", "hfs/data/000.jpg", "ximgproc/stanford.png",
        "text/scenetext01.jpg", "text/scenetext02.jpg", "text/scenetext03.jpg",
        "text/scenetext04.jpg", "text/scenetext05.jpg", "text/scenetext06.jpg"]]
    + [("tuxpaint-data", f"{TUXPAINT}/{n}.jpg") for n in
       ["burnt_bark", "corn_maze", "jellyfish", "lighthouse", "mossy_bark", "mossy_log",
        "mudstone", "ocean_splash", "ocean_waves", "redwoods_above", "rocks", "spiders_web",
        "sun_behind_clouds", "sun_behind_leaves", "trees_above", "trees_at_dusk",
        "wool_mill_machine"]]
    + [("lomiri-wallpapers-16.04", f"{LOMIRI}/{n}.jpg") for n in
       ["Bridge_by_Sander_Klootwijk", "Dragonfly_by_Bolly", "Picture_0B_by_freespace",
        "Picture_1A_by_freespace", "Wine_by_Jakkub_Mede", "aitzgorri_by_Aitzol_Berasategi",
        "analogpattern_by_Peter_Nerlich", "free_by_Peter_Nerlich",
        "friends_by_Aitzol_Berasategi", "greentock_by_Peter_Nerlich",
        "life_by_Aitzol_Berasategi", "picosdeeuropa_by_Aitzol_Berasategi",
        "seeding_by_Clements_Engelhardt", "sunset_by_Aitzol_Berasategi"]]
)

# (package, path) of each smooth picture.
SMOOTH = (
    [("ukui-wallpapers", f"{UKUI}/{n}") for n in
     ["2004default.jpg", "calla.png", "city.png", "desert.png", "firstgeneration.jpg",
      "fluent-color.png", "focal-ubuntukylin.png", "goldfish.png", "rhythm.jpg",
      "rollpaper.png", "string.jpg", "the-mouse.jpg"]]
    + [("mate-backgrounds", f"{MATE}/{n}") for n in
       ["abstract/Elephants_3840x2160.jpg", "abstract/Flow.png", "abstract/Gulp.png",
        "abstract/Silk.png", "abstract/Spring.png", "abstract/Waves.png",
        "desktop/GreenTraditional.jpg", "desktop/Stripes.png",
        "desktop/Ubuntu-Mate-Cold-no-logo.png", "desktop/Ubuntu-Mate-Dark-no-logo.png",
        "desktop/Ubuntu-Mate-Radioactive-no-logo.png", "desktop/Ubuntu-Mate-Warm-no-logo.png"]]
    + [("gnome-backgrounds", f"{GNOME}/{n}-{s}.webp") for n in
       ["adwaita", "grid", "licorice", "pixels", "symbolic", "truchet", "wood"] for s in "dl"]
    + [("lomiri-wallpapers-16.04", f"{LOMIRI}/umang_by_Abhishek_Mudgal.jpg")]
    + [("lomiri-wallpapers-20.04", f"{LOMIRI}/{n}.jpg") for n in
       ["Fossa_by_Jasper_Roks", "Infinite-Sea_by_Aury88", "Painting-Colors_by__herobrine7gamer"]]
)

# ufoai-textures' surfaces: every colour map in these folders of its
# archive (not the normal, gloss, specular or height maps beside them), at
# least 512 on a side, opaque. Chosen by this rule, not by eye.
TEXTURE_FOLDERS = ("tex_nature", "tex_buildings", "tex_buildings_snow", "tex_material",
                   "tex_streets", "tex_dirt", "tex_terrain")
TEXTURE_MAPS = ("_nm", "_gm", "_sm", "_rm", "_hm", "_glow", "_bump", "_spec", "_gls")

# Validation: chosen between runs on (tools/learned/validate.py), never
# trained on, never reported as a result.
VALIDATION = [("tuxpaint-data", f"{TUXPAINT}/cliff.jpg"), ("tuxpaint-data", f"{TUXPAINT}/sheep.jpg"),
              ("lomiri-wallpapers-20.04", f"{LOMIRI}/Kleiber_by_Lukas_Baubkus.jpg"),
              ("sddm-theme-maldives", f"{MALDIVES}/background.jpg")]

CROP_SHARES = (0.5, 0.25, 0.25)  # photographs, smooth pictures, textures
ARCHIVE_SEP = "::"  # ARCHIVE::MEMBER: a picture inside a zip archive (a .pk3)

HELD_OUT = (
    [("python3-skimage", f"{SKIMAGE}/{n}") for n in
     ["chelsea.png", "coffee.png", "ihc.png", "camera.png", "grass.png"]]
    + [("opencv-doc", f"{OPENCV}/data/{n}") for n in ["fruits.jpg", "building.jpg", "squirrel_cls.jpg"]]
    + [("mate-backgrounds", f"{MATE}/nature/{n}") for n in ["Dune.jpg", "Storm.jpg"]]
)

# The wide held-out set (issue 60): photographs of what people shoot and
# the first held-out set missed, from packages nothing here trains on, in
# (package, path, kind). Reported by tools/rd/rd_curves.py --wide
# (docs/rd/wide.md), never trained, tuned or chosen on: training_sets
# refuses a list that holds one. docs/rd/validation.md gives each its
# licence and why it is here.
SCRIBUS = "/usr/share/scribus/templates"
STELLARIUM = "/usr/share/stellarium"
SKLEARN = "/usr/lib/python3/dist-packages/sklearn/datasets/images"
SCIPY_FACE = "/usr/lib/python3/dist-packages/scipy/misc/face.dat"
HELD_OUT_WIDE = [
    ("scribus-template", f"{SCRIBUS}/br2/sunset.jpg", "sky and gradient, dusk"),
    ("scribus-template", f"{SCRIBUS}/cal2/moon.jpg", "sky, soft focus"),
    ("python3-sklearn", f"{SKLEARN}/china.jpg", "hazy sky, architecture"),
    ("python3-sklearn", f"{SKLEARN}/flower.jpg", "soft focus background"),
    ("stellarium-data", f"{STELLARIUM}/nebulae/default/m42.png", "night sky"),
    ("stellarium-data", f"{STELLARIUM}/nebulae/default/m31.png", "night sky"),
    ("stellarium-data", f"{STELLARIUM}/skycultures/egyptian_dendera/Dendera_zodiac_Louvre.jpg",
     "low light, stone relief"),
    ("stellarium-data", f"{STELLARIUM}/skycultures/greek_farnese/Atlas_(Farnese_Globe).jpg",
     "indoors, a figure"),
    ("python3-scipy", SCIPY_FACE, "a face, fur"),
    ("stellarium-data", f"{STELLARIUM}/scenery3d/Sterngarten/Sterngarten_Wien_innerArea/"
     "Tafel_Sterngarten.jpg", "text and line art"),
    ("stellarium-data", f"{STELLARIUM}/skycultures/babylonian_mulapin/"
     "800px-MulApin-BritishMuseum.jpg", "engraved text"),
    ("stellarium-data", f"{STELLARIUM}/skycultures/greek_leidenAratea/descr_pics/"
     "Aratea fol. 3v und 4r.jpg", "manuscript text"),
    ("scribus-template", f"{SCRIBUS}/menu2/pizza.jpg", "texture, food"),
    ("scribus-template", f"{SCRIBUS}/br2/nature.jpg", "texture, rock and leaves"),
]

# The shipped examples' pictures (held out): examples/*/chelsea.*, coffee.*.
EXAMPLES = [f"{SKIMAGE}/chelsea.png", f"{SKIMAGE}/coffee.png"]


def load_rgb(path):
    """An H x W x 3 uint8 array, of a file or of ARCHIVE::MEMBER."""
    if path.endswith(".dat"):  # scipy's face: bz2 of 768 x 1024 x 3 bytes
        import bz2
        with open(path, "rb") as f:
            return np.frombuffer(bz2.decompress(f.read()), np.uint8).reshape(768, 1024, 3)
    if ARCHIVE_SEP in path:
        archive, member = path.split(ARCHIVE_SEP, 1)
        with zipfile.ZipFile(archive) as z:
            return np.asarray(Image.open(io.BytesIO(z.read(member))).convert("RGB"))
    return np.asarray(Image.open(path).convert("RGB"))


def textures(archive=UFOAI):
    """TEXTURE_FOLDERS' colour maps in archive, by the rule above, sorted:
    (package, ARCHIVE::MEMBER) entries; none when it is not installed."""
    if not os.path.exists(archive):
        return []
    out = []
    with zipfile.ZipFile(archive) as z:
        for n in sorted(z.namelist()):
            parts = n.split("/")
            if len(parts) != 3 or parts[1] not in TEXTURE_FOLDERS or "." not in parts[2]:
                continue
            base, ext = parts[2].rsplit(".", 1)
            if ext.lower() not in ("jpg", "png", "tga") or base.lower().endswith(TEXTURE_MAPS):
                continue
            im = Image.open(io.BytesIO(z.read(n)))
            if min(im.size) < 512 or im.mode not in ("RGB", "P") or "transparency" in im.info:
                continue
            out.append(("ufoai-textures", archive + ARCHIVE_SEP + n))
    return out


def available(entries):
    """The entries whose files are here; the packages that are missing."""
    have = [(pkg, p) for pkg, p in entries if os.path.exists(p.split(ARCHIVE_SEP)[0])]
    missing = sorted({pkg for pkg, p in entries if not os.path.exists(p)})
    return have, missing


def grace_hopper():
    return [("python3-matplotlib", p) for p in GRACE if os.path.exists(p)][:1]


def training_sets(smoke=False):
    """(photographs, smooth pictures, textures): (package, path) lists of
    what is installed. Refuses to train without python3-skimage's
    photographs; a full run (not smoke) refuses to train without every
    package (a model trained on a part would not be the one the docs
    describe)."""
    photos, missing_p = available(PHOTOS + grace_hopper())
    smooth, missing_s = available(SMOOTH)
    tex = textures()
    missing = sorted(set(missing_p) | set(missing_s) | (set() if tex else {"ufoai-textures"}))
    if not any(pkg == "python3-skimage" for pkg, _ in photos):
        raise SystemExit("training data missing: install python3-skimage")
    if missing and not smoke:
        raise SystemExit("training data missing: apt-get install " + " ".join(missing))
    unseen = {p for _, p, _ in HELD_OUT_WIDE} | {p for _, p in HELD_OUT + VALIDATION}
    if any(p in unseen for _, p in photos + smooth + tex):
        raise SystemExit("a held-out picture is in a training list")
    return photos, smooth, tex


def _scaled(a, f):
    h, w = a.shape[:2]
    return np.asarray(Image.fromarray(a).resize((max(1, round(w / f)), max(1, round(h / f))),
                                                Image.BOX))


def pyramid(a, size, first=2.0, step=1.5, top=768):
    """a scaled down by first (or more, to a short side of top: a 4K
    wallpaper's finest scale is still a photograph's whole view), then by
    step again and again while the short side stays at least size: the list
    of scales (uint8 arrays)."""
    out = []
    f = max(first, min(a.shape[:2]) / top)
    while min(a.shape[:2]) / f >= size:
        out.append(_scaled(a, f))
        f *= step
    if not out and min(a.shape[:2]) >= size:
        out.append(_scaled(a, min(a.shape[:2]) / size))  # a small picture: its one scale
    return out


class Crops:
    """Random multi-scale crops (with flips) of the training pictures, from
    one seeded generator, as float [0, 1] NCHW batches. state() and
    set_state() carry the generator across a resumed run."""

    def __init__(self, photos, smooth, size, seed, textures=(), shares=CROP_SHARES):
        self.size = size
        self.groups = []
        for entries in (photos, smooth, textures):
            self.groups.append([pyramid(load_rgb(p), size) for _, p in entries])
            self.groups[-1] = [g for g in self.groups[-1] if g]
        # A group with no picture gives its share to the others.
        w = np.array([s if g else 0.0 for s, g in zip(shares, self.groups)])
        self.cum = np.cumsum(w / w.sum())
        self.rng = np.random.default_rng(seed)

    def state(self):
        return self.rng.bit_generator.state

    def set_state(self, s):
        self.rng.bit_generator.state = s

    def crop(self):
        g = self.groups[min(int(np.searchsorted(self.cum, self.rng.random(), side="right")), 2)]
        levels = g[self.rng.integers(len(g))]
        a = levels[self.rng.integers(len(levels))]
        y = self.rng.integers(a.shape[0] - self.size + 1)
        x = self.rng.integers(a.shape[1] - self.size + 1)
        c = a[y:y + self.size, x:x + self.size]
        if self.rng.integers(2):
            c = c[:, ::-1]
        if self.rng.integers(2):
            c = c[::-1]
        return c

    def batch(self, n):
        out = np.empty((n, 3, self.size, self.size), dtype=np.float32)
        for i in range(n):
            out[i] = self.crop().transpose(2, 0, 1) / 255.0
        return out


def kodak_cut(a, w=768, h=512):
    """A picture cut as Kodak's are, the way pictures outside the project
    are evaluated: scaled (area filter) so it covers w x h (h x w for a
    portrait picture), then its centre; a smaller picture keeps its size,
    cut to multiples of 64 (WIH1's stride) about its centre."""
    if a.shape[0] > a.shape[1]:
        w, h = h, w
    if a.shape[0] >= h and a.shape[1] >= w:
        f = min(a.shape[0] / h, a.shape[1] / w)
        if f > 1:
            a = _scaled(a, f)
        th, tw = h, w
    else:
        th, tw = a.shape[0] // 64 * 64, a.shape[1] // 64 * 64
    y, x = (a.shape[0] - th) // 2, (a.shape[1] - tw) // 2
    return np.ascontiguousarray(a[y:y + th, x:x + tw])


def describe(photos, smooth, textures=()):
    """One line for a log: the counts, the shares and the packages."""
    pk = sorted({pkg for pkg, _ in list(photos) + list(smooth) + list(textures)})
    return (f"{len(photos)} photographs, {len(smooth)} smooth pictures, {len(textures)} textures "
            f"(shares {':'.join(f'{x:g}' for x in CROP_SHARES)}) from {', '.join(pk)}")
