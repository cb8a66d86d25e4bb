#!/usr/bin/env python3
"""relu(A @ B + bias) in f32, side by side in one run: google-mlir's
compiled code (opt-level 3, and opt-level 1, the untiled linalg-to-loops
lowering), OpenBLAS through NumPy (the AVX-512 SkylakeX kernel selected
with OPENBLAS_CORETYPE, and the kernel Debian's OpenBLAS picks by itself),
and the FMA peak of one core (bench/fma_peak.c). Prints median GFLOP/s and
ratios. Timings are for reports, never asserted.

  bench/matmul_bench.py [--build DIR] [--shapes MxKxN,...] [--threads 1]
                        [--skip-untiled]

Shapes are M x K x N (A is MxK, B is KxN). It needs google-run from a build
(the README's first command), NumPy and clang-22.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--build", default=os.path.join(root, "build"),
                    help="build directory holding bin/google-run")
parser.add_argument("--shapes",
                    default="128x512x256,512x512x512,1024x1024x1024,1x784x128")
parser.add_argument("--threads", type=int, default=1,
                    help="threads for OpenBLAS and google-mlir (GOOGLE_MLIR_NUM_THREADS)")
parser.add_argument("--skip-untiled", action="store_true",
                    help="do not time opt-level=1 (slow at large shapes)")
options = parser.parse_args()
google_run = os.path.join(options.build, "bin", "google-run")
if not os.access(google_run, os.X_OK):
    sys.exit(f"error: {google_run} not found: build first, or give --build")
try:
    shapes = [tuple(int(v) for v in s.split("x"))
              for s in options.shapes.split(",")]
    assert all(len(s) == 3 and min(s) > 0 for s in shapes)
except (ValueError, AssertionError):
    sys.exit("error: --shapes wants MxKxN[,MxKxN...] with positive extents")


def cpu_name():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def calls_for(flops, seconds=0.5, guess_gflops=100):
    return max(5, min(20000, int(seconds * guess_gflops * 1e9 / flops)))


def fma_peak(directory):
    clang = shutil.which("clang-22") or shutil.which("clang")
    if not clang:
        return None
    binary = os.path.join(directory, "fma_peak")
    subprocess.run([clang, "-O3", "-march=native",
                    os.path.join(root, "bench", "fma_peak.c"), "-o", binary],
                   check=True)
    out = subprocess.run([binary, "20000000"], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0])


NUMPY_TIMER = r"""
import sys, timeit, numpy as np
m, k, n, calls = map(int, sys.argv[1:5])
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
out = np.empty((m, n), np.float32)
def run():
    np.matmul(a, b, out=out)
    np.add(out, bias, out=out)
    np.maximum(out, 0, out=out)
run()
times = sorted(timeit.repeat(run, number=1, repeat=calls))
print(times[len(times) // 2])
"""


def numpy_seconds(m, k, n, calls, coretype):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(options.threads))
    env.pop("OPENBLAS_CORETYPE", None)
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
    out = subprocess.run([sys.executable, "-c", NUMPY_TIMER, str(m), str(k),
                          str(n), str(calls)], env=env, capture_output=True,
                         text=True)
    if out.returncode != 0:
        sys.exit(f"error: the NumPy timer failed: {out.stderr.strip()}")
    return float(out.stdout)


def google_seconds(directory, m, k, n, calls, opt_level):
    module = os.path.join(directory, f"mbr_{m}x{k}x{n}.mlir")
    with open(module, "w") as f:
        f.write(f"""func.func @mbr(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>,
               %bias: tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %p = google.matmul %a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32> -> tensor<{m}x{n}xf32>
  %s = google.add %p, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32> -> tensor<{m}x{n}xf32>
  %r = google.relu %s : tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
""")
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
    args = []
    for name, value in [("a", a), ("b", b), ("bias", bias)]:
        path = os.path.join(directory, name + ".npy")
        np.save(path, value)
        args.append("--input=@" + path)
    done = subprocess.run(
        [google_run, module, f"--benchmark={calls}", "--print-all",
         f"--pipeline-options=opt-level={opt_level}",
         *args],
        capture_output=True, text=True,
        env=dict(os.environ, GOOGLE_MLIR_CACHE_DIR=f"{directory}/cache",
                 GOOGLE_MLIR_NUM_THREADS=str(options.threads)))
    if done.returncode != 0:
        sys.exit(f"error: google-run failed: {done.stderr.strip()}")
    median = float(re.search(r"median ([0-9.]+) us", done.stdout).group(1))
    return median * 1e-6, done.stdout


def check(stdout, m, k, n):
    """The printed result agrees with NumPy to f32 accuracy."""
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
    expected = np.maximum(a.astype(np.float64) @ b + bias, 0)
    body = stdout[stdout.index("=") + 1:]
    body = body[:body.index("\n")] if "\n" in body else body
    got = np.array(body.replace("[", " ").replace("]", " ").split(),
                   dtype=np.float64).reshape(m, n)
    bound = (np.abs(a.astype(np.float64)) @ np.abs(b) + np.abs(bias)) * k * 2**-23
    return bool(np.all(np.abs(got - expected) <= bound + 1e-30))


print(f"{cpu_name()}, {os.cpu_count()} cores; threads (OpenBLAS and "
      f"google-mlir): {options.threads}")
with tempfile.TemporaryDirectory() as directory:
    peak = fma_peak(directory)
    if peak:
        peak *= options.threads
        print(f"FMA peak, {options.threads} core(s): {peak:.0f} GFLOP/s")
    header = ["MxKxN", "google O3", "google O1", "OpenBLAS SkylakeX",
              "OpenBLAS default", "O3/SkylakeX", "O3/peak"]
    print(" | ".join(header))
    for m, k, n in shapes:
        flops = 2.0 * m * k * n
        calls = calls_for(flops)
        o3, stdout = google_seconds(directory, m, k, n, calls, 3)
        if not check(stdout, m, k, n):
            sys.exit(f"error: wrong result at opt-level=3 for {m}x{k}x{n}")
        o1 = None
        if not options.skip_untiled:
            o1, _ = google_seconds(directory, m, k, n,
                                   calls_for(flops, 0.5, 1.5), 1)
        skx = numpy_seconds(m, k, n, calls, "SkylakeX")
        default = numpy_seconds(m, k, n, calls, None)
        g = lambda s: f"{flops / s / 1e9:.1f}" if s else "-"
        row = [f"{m}x{k}x{n}", g(o3), g(o1), g(skx), g(default),
               f"{skx / o3:.2f}x", f"{flops / o3 / 1e9 / peak:.0%}"
               if peak else "-"]
        print(" | ".join(row), flush=True)
