# SPDX-License-Identifier: BSD-2-Clause
"""A torch Dataset over a folder of WIH1 payloads and their parameter set.

    from wai.data import PayloadFolder
    ds = PayloadFolder("photos/", set="examples/hyperprior/sets/q3")
    x = ds[0]                       # torch.uint8 [3, h, w], RGB (h, w: the coded size)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=4)

Each process decodes with a decoder of its own, made on first use there (a
DataLoader's workers fork after the dataset is made, and a libwai context
is not shared across a fork), holding the set's members loaded once. The
decode is libwai's integer one: the same tensor in every worker, on every
machine. A payload the decoder refuses raises wai.WaiError naming the file;
one that is not a regular file, or is past wai.DEFAULT_MAX_MEMORY, raises
wai.FileRefused (an OSError) before it is read.
torch (Debian's python3-torch) is needed by this module only."""
import os

import numpy as np
import torch
import torch.utils.data

from . import DEFAULT_MAX_MEMORY, Decoder, WaiError, _members, _read_file

__all__ = ["PayloadFolder"]


class PayloadFolder(torch.utils.data.Dataset):
    """Every file under root whose name ends in suffix (".wih1"), sorted
    by path, decoded against set (a directory or a {name: bytes} mapping,
    read once here). Item i is files[i]'s picture as a uint8 tensor
    [3, h, w] (layout "chw") or [h, w, 3] ("hwc"), passed through transform
    when one is given. A WIH1 decodes at its coded size (multiples of 64);
    crop gives the top-left (h, w) of each instead. threads: each worker's
    decoder threads (1: the DataLoader's workers are the parallelism)."""

    def __init__(self, root, set, suffix=".wih1", transform=None, layout="chw", crop=None,
                 threads=1, recursive=True):
        if layout not in ("chw", "hwc"):
            raise ValueError(f"layout is 'chw' or 'hwc', not {layout!r}")
        self.root = os.fspath(root)
        self.members = _members(set)
        self.suffix = suffix
        self.transform = transform
        self.layout = layout
        self.crop = tuple(crop) if crop is not None else None
        self.threads = threads
        files = []
        if recursive:
            for d, _, names in os.walk(self.root):
                files += [os.path.join(d, n) for n in names if n.endswith(suffix)]
        else:
            files = [os.path.join(self.root, n) for n in os.listdir(self.root)
                     if n.endswith(suffix)]
        self.files = sorted(files)
        if not self.files:
            raise FileNotFoundError(f"no *{suffix} file under {self.root}")
        self._decoder = None
        self._pid = None

    def __len__(self):
        return len(self.files)

    def _dec(self):
        # One decoder a process: a forked worker makes its own.
        if self._pid != os.getpid():
            self._decoder = Decoder(capability="wai.neural.int_hyper", set=self.members,
                                    threads=self.threads)
            self._pid = os.getpid()
        return self._decoder

    def __getitem__(self, i):
        path = self.files[i]
        payload = _read_file(path, DEFAULT_MAX_MEMORY)   # never blocks on a FIFO
        try:
            out = self._dec().send(payload)
        except WaiError as e:
            raise WaiError(e.status, path, e.report) from None
        a = out[0].array
        if self.crop is not None:
            h, w = self.crop
            if h > a.shape[0] or w > a.shape[1]:
                raise ValueError(f"{path}: crop {h}x{w} is larger than its {a.shape[0]}x{a.shape[1]}")
            a = a[:h, :w]
        t = torch.from_numpy(np.ascontiguousarray(a))
        if self.layout == "chw":
            t = t.permute(2, 0, 1).contiguous()
        return self.transform(t) if self.transform is not None else t

    def __getstate__(self):
        # A decoder does not pickle (spawned workers): each makes its own.
        s = dict(self.__dict__)
        s["_decoder"] = None
        s["_pid"] = None
        return s
