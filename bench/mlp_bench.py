#!/usr/bin/env python3
"""Times the example MLP (examples/mlp.mlir) side by side: google-run's
compiled code (median per call from --benchmark) against NumPy on the same
inputs, and prints the ratio. Timings are for reports, never asserted.

  bench/mlp_bench.py [BUILD_DIR] [BATCH]
"""
import os
import re
import subprocess
import sys
import tempfile
import timeit

import numpy as np

build = sys.argv[1] if len(sys.argv) > 1 else "build"
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 64
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, (batch, 64)).astype(np.float32)
w1 = rng.uniform(-0.2, 0.2, (64, 128)).astype(np.float32)
b1 = rng.uniform(-0.1, 0.1, (128,)).astype(np.float32)
w2 = rng.uniform(-0.2, 0.2, (128, 10)).astype(np.float32)
b2 = rng.uniform(-0.1, 0.1, (10,)).astype(np.float32)


def numpy_mlp():
    h = np.maximum(x @ w1 + b1, 0)
    y = np.maximum(h @ w2 + b2, 0)
    e = np.exp(y - y.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


with tempfile.TemporaryDirectory() as directory:
    args = []
    for name, value in [("x", x), ("w1", w1), ("b1", b1), ("w2", w2),
                        ("b2", b2)]:
        path = os.path.join(directory, name + ".npy")
        np.save(path, value)
        args.append("--input=@" + path)
    expected = os.path.join(directory, "expected.npy")
    np.save(expected, numpy_mlp())
    out = subprocess.run(
        [os.path.join(build, "bin", "google-run"),
         os.path.join(root, "examples", "mlp.mlir"), "--benchmark=500",
         "--expected_output=@" + expected, *args],
        capture_output=True, text=True, check=True).stdout
median_us = float(re.search(r"median ([0-9.]+) us", out).group(1))
runs = timeit.repeat(numpy_mlp, number=200, repeat=5)
numpy_us = min(runs) / 200 * 1e6
print(f"MLP batch {batch} (64->128->10, softmax): google-mlir {median_us:.1f} us, "
      f"NumPy {numpy_us:.1f} us per call; google-mlir/NumPy = "
      f"{median_us / numpy_us:.2f}x")
