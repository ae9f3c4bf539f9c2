# SPDX-License-Identifier: BSD-2-Clause
"""The weights file of a wai-webnn-graph/1 description (docs/webnn.md,
"Graph descriptions"): float32 little-endian values, each constant at a
4-byte offset. Shared by make_set.py (decoder.f32) and
tools/hyperprior/analysis_graph.py (analysis.f32)."""
import numpy as np


class Weights:
    """The file being written: add() a tensor, get its byte offset."""

    def __init__(self):
        self.parts, self.offset = [], 0

    def add(self, t):
        a = np.ascontiguousarray(t.detach().cpu().numpy().astype("<f4"))
        at = self.offset
        self.parts.append(a.tobytes())
        self.offset += a.nbytes
        return at

    def bytes(self):
        return b"".join(self.parts)
