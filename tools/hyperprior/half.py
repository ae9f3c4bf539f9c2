#!/usr/bin/python3
"""Writes a checkpoint with its floating-point tensors as float16: half the
bytes of train.py's float32, for the extra rate points shipped in
examples/hyperprior/ (q1.pt, q5.pt). lower.py and the RD script load it into
the float32 model as they load any checkpoint (load_state_dict converts), so
the rounding to float16 is part of the model they measure.

    /usr/bin/python3 tools/hyperprior/half.py IN.pt OUT.pt"""
import sys

import torch


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: half.py IN.pt OUT.pt")
    sd = torch.load(sys.argv[1])
    torch.save({k: v.half() if v.is_floating_point() else v for k, v in sd.items()}, sys.argv[2])


if __name__ == "__main__":
    main()
