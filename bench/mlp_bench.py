#!/usr/bin/python3
"""Times the example MLP (examples/mlp.mlir) side by side: google-run's
compiled code (median per call from --benchmark) against NumPy on the same
inputs, and prints the ratio. Timings are for reports, never asserted.

  bench/mlp_bench.py [--build DIR] [--batch N] [--calls N]

It needs google-run from a build (the README's first command makes one in
build/) and NumPy.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import timeit

import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--build", default=os.path.join(root, "build"),
                    help="the build directory holding bin/google-run "
                         "(default: build/ in the repository)")
parser.add_argument("--batch", type=int, default=64)
parser.add_argument("--calls", type=int, default=500,
                    help="calls google-run times (after one warm-up)")
options = parser.parse_args()
google_run = os.path.join(options.build, "bin", "google-run")
if not os.access(google_run, os.X_OK):
    sys.exit(f"error: {google_run} not found: build first (the README's "
             "first command), or give --build DIR")
if options.batch <= 0 or options.calls <= 0:
    sys.exit("error: --batch and --calls must be positive")
batch = options.batch


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"

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
    done = subprocess.run(
        [google_run, os.path.join(root, "examples", "mlp.mlir"),
         f"--benchmark={options.calls}", "--expected_output=@" + expected,
         *args],
        capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: google-run failed: {done.stderr.strip()}")
    out = done.stdout
median_us = float(re.search(r"median ([0-9.]+) us", out).group(1))
runs = timeit.repeat(numpy_mlp, number=200, repeat=5)
numpy_us = min(runs) / 200 * 1e6
print(f"{cpu_name()}, {os.cpu_count()} cores")
print(f"MLP batch {batch} (64->128->10, softmax): google-mlir {median_us:.1f} us, "
      f"NumPy {numpy_us:.1f} us per call; google-mlir/NumPy = "
      f"{median_us / numpy_us:.2f}x")
