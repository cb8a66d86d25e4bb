#!/usr/bin/python3
"""A fused elementwise chain, relu(x * 2 + y) - 0.5, a row softmax, and
reductions over all axes (a squared error's sum, sum((x - y)^2), and a
max), in f32, side by side: google-mlir's compiled code (opt-level 3 and opt-level 1, the
unvectorized loops) and NumPy. Prints median times and GB/s (bytes of the
inputs and the result, each moved once), and the chain's share of the
bandwidth STREAM's triad reaches on one core over arrays of the same size
(bench/stream_triad.c: also two inputs, one result). Timings are for
reports, never asserted.

  bench/elementwise_bench.py [--build DIR] [--rows R] [--cols C]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import timeit

import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--build", default=os.path.join(root, "build"))
parser.add_argument("--rows", type=int, default=2048)
parser.add_argument("--cols", type=int, default=2048)
options = parser.parse_args()
google_run = os.path.join(options.build, "bin", "google-run")
if not os.access(google_run, os.X_OK):
    sys.exit(f"error: {google_run} not found: build first, or give --build")
if options.rows <= 0 or options.cols <= 0:
    sys.exit("error: --rows and --cols must be positive")
r, c = options.rows, options.cols
t = f"tensor<{r}x{c}xf32>"
CHAIN = f"""func.func @chain(%x: {t}, %y: {t}) -> {t} {{
  %two = google.constant dense<2.0> : tensor<f32>
  %half = google.constant dense<0.5> : tensor<f32>
  %0 = google.mul %x, %two : {t}, tensor<f32> -> {t}
  %1 = google.add %0, %y : {t}, {t} -> {t}
  %2 = google.relu %1 : {t}
  %3 = google.sub %2, %half : {t}, tensor<f32> -> {t}
  return %3 : {t}
}}
"""
SOFTMAX = f"""func.func @softmax(%x: {t}) -> {t} {{
  %0 = google.softmax %x {{axis = 1 : i64}} : {t}
  return %0 : {t}
}}
"""
SSE = f"""func.func @sse(%x: {t}, %y: {t}) -> tensor<f32> {{
  %0 = google.sub %x, %y : {t}, {t} -> {t}
  %1 = google.mul %0, %0 : {t}, {t} -> {t}
  %2 = google.reduce_sum %1 {{axes = array<i64: 0, 1>, keep_dims = false}} : {t} -> tensor<f32>
  return %2 : tensor<f32>
}}
"""
MAX_ALL = f"""func.func @max_all(%x: {t}) -> tensor<f32> {{
  %0 = google.reduce_max %x {{axes = array<i64: 0, 1>, keep_dims = false}} : {t} -> tensor<f32>
  return %0 : tensor<f32>
}}
"""
rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, (r, c)).astype(np.float32)
y = rng.uniform(-1, 1, (r, c)).astype(np.float32)


def google_us(directory, name, text, inputs, opt_level):
    module = os.path.join(directory, name + ".mlir")
    with open(module, "w") as f:
        f.write(text)
    args = []
    for i, value in enumerate(inputs):
        path = os.path.join(directory, f"{name}{i}.npy")
        np.save(path, value)
        args.append("--input=@" + path)
    done = subprocess.run(
        [google_run, module, "--benchmark=20", f"--output=@{directory}/out.npy",
         f"--pipeline-options=opt-level={opt_level}", *args],
        capture_output=True, text=True,
        env=dict(os.environ, GOOGLE_MLIR_CACHE_DIR=f"{directory}/cache"))
    if done.returncode != 0:
        sys.exit(f"error: google-run failed: {done.stderr.strip()}")
    return float(re.search(r"median ([0-9.]+) us", done.stdout).group(1)), \
        np.load(f"{directory}/out.npy")


def stream_triad_gbs(directory):
    """STREAM triad GB/s of one core over r * c elements, None without clang."""
    clang = shutil.which("clang-22") or shutil.which("clang")
    if not clang:
        return None
    binary = os.path.join(directory, "stream_triad")
    subprocess.run([clang, "-O3", "-march=native",
                    os.path.join(root, "bench", "stream_triad.c"), "-o",
                    binary], check=True)
    out = subprocess.run([binary, str(r * c)], capture_output=True, text=True,
                         check=True).stdout
    return float(out)


def numpy_us(function):
    return min(timeit.repeat(function, number=1, repeat=20)) * 1e6


def softmax(v):
    e = np.exp(v - v.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# (name, module, inputs, NumPy, tensors moved, relative tolerance: sums
# are reassociated)
cases = [("chain", CHAIN, [x, y], lambda: np.maximum(x * 2 + y, 0) - 0.5, 3,
          1e-5),
         ("softmax", SOFTMAX, [x], lambda: softmax(x), 2, 1e-5),
         ("sse", SSE, [x, y], lambda: np.sum((x - y) ** 2), 2, 1e-4),
         ("max_all", MAX_ALL, [x], lambda: x.max(), 1, 0)]
print(f"{r}x{c} f32")
with tempfile.TemporaryDirectory() as directory:
    stream = stream_triad_gbs(directory)
    if stream:
        print(f"STREAM triad, 1 core, {r * c} elements: {stream:.1f} GB/s")
    for name, text, inputs, reference, tensors, rtol in cases:
        o3, result = google_us(directory, name, text, inputs, 3)
        if not np.allclose(result, reference(), rtol=rtol, atol=1e-6):
            sys.exit(f"error: {name}: wrong result at opt-level=3")
        o1, _ = google_us(directory, name, text, inputs, 1)
        ref = numpy_us(reference)
        gbs = lambda us: tensors * r * c * 4 / us / 1e3
        print(f"{name}: google-mlir O3 {o3:.0f} us ({gbs(o3):.1f} GB/s), "
              f"O1 {o1:.0f} us ({gbs(o1):.1f} GB/s), NumPy {ref:.0f} us "
              f"({gbs(ref):.1f} GB/s); O3/NumPy = {o3 / ref:.2f}x"
              + (f", O3 at {gbs(o3) / stream:.0%} of the triad" if stream
                 else ""), flush=True)
