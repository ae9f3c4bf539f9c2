# SPDX-License-Identifier: BSD-2-Clause
"""A model's weights from either file the training writes: a checkpoint
(CompressAI's state-dict layout: train.py's OUT, float32) or a training
state (OUT's .state: the same state dict as float16 under "model", beside
the optimisers'). The shipped rate points are their states alone
(examples/*/train/qN.state): the weights a resumed run starts from are the
weights the set was lowered from, and no second copy is kept.

load_state_dict converts float16 to the model's float32, so the rounding
to float16 is part of the model every tool measures."""
import torch


def weights(path):
    """The state dict in path (a checkpoint or a training state)."""
    obj = torch.load(path, map_location="cpu")
    if isinstance(obj, dict) and "model" in obj and "opt" in obj:
        return obj["model"]
    return obj
