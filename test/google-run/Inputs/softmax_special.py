"""Writes x.npy (rows of 2048 f32 with NaN, +inf and -inf among finite
values) and expected.npy (NumPy's softmax of each row) into DIR.

  softmax_special.py DIR
"""

import os
import sys

import numpy as np

directory = sys.argv[1]
os.makedirs(directory, exist_ok=True)
rng = np.random.default_rng(7)
x = rng.uniform(-30, 30, size=(7, 2048)).astype(np.float32)
x[0, 1000] = np.nan            # a NaN inside the vector loop
x[1, 2047] = np.nan            # a NaN last
x[2, 5] = np.inf               # +inf: NaN throughout (inf - inf)
x[3, :] = -np.inf              # all -inf: NaN throughout
x[4, ::2] = -np.inf            # some -inf: those are 0
x[5, 17] = np.nan              # NaN and +inf in one row
x[5, 18] = np.inf
with np.errstate(all="ignore"):
    shifted = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    expected = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
np.save(os.path.join(directory, "x.npy"), x)
np.save(os.path.join(directory, "expected.npy"), expected)
