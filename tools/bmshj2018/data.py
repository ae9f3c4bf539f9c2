"""The photographs the set is trained on, every one from a Debian package.

  python3-skimage            skimage/data: astronaut (public domain), rocket
                             (SpaceX, public domain), motorcycle_left/right
                             (Middlebury stereo, free use), hubble_deep_field
                             (NASA, public domain), retina (CC0), horse is a
                             silhouette and left out
  python-matplotlib-data     sample_data/grace_hopper.jpg (public domain; it
                             comes with python3-matplotlib), if installed

Only pictures in the public domain or under CC0, so the weights trained on
them carry no licence of the pictures'.

chelsea and coffee (skimage, CC0) are held out: the shipped payloads are
coded from them, so their rate-distortion points are of pictures the model
never saw.
"""
import os

import numpy as np
from PIL import Image

SKIMAGE = "/usr/lib/python3/dist-packages/skimage/data"
TRAIN_SKIMAGE = ["astronaut.png", "rocket.jpg", "motorcycle_left.png", "motorcycle_right.png",
                 "hubble_deep_field.jpg", "retina.jpg"]
HELD_OUT = ["chelsea.png", "coffee.png"]
OPTIONAL = ["/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg",
            "/usr/lib/python3/dist-packages/matplotlib/mpl-data/sample_data/grace_hopper.jpg"]


def load_rgb(path):
    """An H x W x 3 uint8 array."""
    return np.asarray(Image.open(path).convert("RGB"))


def training_paths():
    paths = [os.path.join(SKIMAGE, n) for n in TRAIN_SKIMAGE]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise SystemExit("training data missing (install python3-skimage): " + ", ".join(missing))
    paths += [p for p in OPTIONAL if os.path.exists(p)][:1]
    return paths


def held_out_paths():
    return [os.path.join(SKIMAGE, n) for n in HELD_OUT]


class Crops:
    """Random crops (with flips) of the training pictures, from one seeded
    generator, as float [0, 1] NCHW batches."""

    def __init__(self, paths, size, seed):
        self.images = []
        for p in paths:
            a = load_rgb(p)
            # Large wallpapers are scaled so a crop holds detail, not a blur.
            h, w = a.shape[:2]
            if min(h, w) > 4 * size:
                f = 4 * size / min(h, w)
                a = np.asarray(Image.fromarray(a).resize((max(size, int(w * f)), max(size, int(h * f))),
                                                         Image.BICUBIC))
            if a.shape[0] >= size and a.shape[1] >= size:
                self.images.append(a)
        self.size = size
        self.rng = np.random.default_rng(seed)

    def batch(self, n):
        out = np.empty((n, 3, self.size, self.size), dtype=np.float32)
        for i in range(n):
            a = self.images[self.rng.integers(len(self.images))]
            y = self.rng.integers(a.shape[0] - self.size + 1)
            x = self.rng.integers(a.shape[1] - self.size + 1)
            c = a[y:y + self.size, x:x + self.size]
            if self.rng.integers(2):
                c = c[:, ::-1]
            if self.rng.integers(2):
                c = c[::-1]
            out[i] = c.transpose(2, 0, 1) / 255.0
        return out
