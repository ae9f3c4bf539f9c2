# SPDX-License-Identifier: BSD-2-Clause
"""A model's weights from any file the training writes: a checkpoint
(CompressAI's state-dict layout: train.py's OUT, float32), a shipped state
(OUT's .state: the same state dict as float16 under "model", with
"weights_only": True, the step, the model's kind, N and M, and nothing
else), or a run's working state (OUT's .run.state, which git ignores: the
same "model" beside both Adam optimisers' moments and the generators'
states; the form every .state had before issue 60). The shipped rate
points are their shipped states alone (examples/*/train/qN.state): the
set is those weights lowered, a resumed run starts from them (with a
fresh optimiser: train.py's docstring), and no second copy is kept.

load_state_dict converts float16 to the model's float32, so the rounding
to float16 is part of the model every tool measures."""
import os

import torch

# What a shipped state holds, and nothing more.
SHIPPED_KEYS = ("model", "weights_only", "step", "model_kind", "N", "M")


def is_state(obj):
    """Whether obj is a training state (shipped or working), not a bare
    state dict."""
    return (isinstance(obj, dict) and isinstance(obj.get("model"), dict)
            and ("opt" in obj or obj.get("weights_only") is True))


def shipped(state):
    """The shipped form of a training state (either form): its weights as
    float16, the step, the model's kind and shape."""
    if not is_state(state):
        raise ValueError("not a training state (no \"model\" beside \"opt\" or \"weights_only\")")
    model = {k: v.half() if v.is_floating_point() else v for k, v in state["model"].items()}
    return {"model": model, "weights_only": True, "step": state["step"],
            "model_kind": state.get("model_kind", "hyperprior"), "N": state["N"], "M": state["M"]}


def weights(path):
    """The state dict in path (a checkpoint, a shipped state or a working
    state)."""
    obj = torch.load(path, map_location="cpu")
    return obj["model"] if is_state(obj) else obj


# ---- what both training scripts (tools/learned/train.py,
# tools/mlicpp/train.py) do with their states ----

def half_state(sd):
    """A state dict with its floating tensors as float16."""
    return {k: v.half() if v.is_floating_point() else v for k, v in sd.items()}


def run_state_path(state_path):
    """The working state beside a shipped one: qN.state's is qN.run.state."""
    return (state_path[:-len(".state")] if state_path.endswith(".state") else state_path) + ".run.state"


def save_atomic(obj, path):
    """torch.save, by a rename: a run stopped mid-write leaves the old file."""
    torch.save(obj, path + ".tmp")
    os.replace(path + ".tmp", path)


def load_resumable(run_path, state_path):
    """(the state a run resumes from, its path, whether it holds the
    weights alone): the working state where there is one, else the shipped
    one; (None, None, False) for a first run."""
    for path in (run_path, state_path):
        if os.path.exists(path):
            st = torch.load(path)
            if not is_state(st):
                raise SystemExit(f"{path} is not a training state")
            return st, path, st.get("weights_only") is True
    return None, None, False


def append_log(path, lines):
    """Appends lines to the run's log and empties the list."""
    with open(path, "a") as f:
        f.write("".join(line + "\n" for line in lines))
    lines.clear()
