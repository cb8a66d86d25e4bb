#!/usr/bin/python3
"""relu(A @ B + bias) in f32, side by side in one run, for 1 and 2 threads:
google-mlir's compiled code (opt-level 3, and opt-level 1: the untiled,
upstream linalg-to-loops lowering), OpenBLAS's cblas_sgemm with a bias +
relu loop (bench/openblas_mbr.c, the AVX-512 SkylakeX kernel forced with
OPENBLAS_CORETYPE), the same through NumPy, numpy as installed (the kernel
Debian's OpenBLAS picks by itself), Eigen 3
(bench/eigen_mbr.cpp, OpenMP threads) and the FMA peak of the cores
(bench/fma_peak.c). Every contender's result is checked against a float64
reference before it counts; contenders run interleaved (round-robin, three
rounds, the median of each round's median), so that a busy moment hits
them alike. Prints GFLOP/s with ratios to OpenBLAS SkylakeX and to the peak,
and writes a PNG plot (python3-matplotlib). Timings are for reports, never
asserted.

  bench/matmul_bench.py [--build DIR] [--shapes MxKxN,...] [--threads 1,2]
                        [--skip-untiled] [--plot FILE.png] [--rounds 3]

Shapes are M x K x N (A is MxK, B is KxN). It needs google-run from a build
(the README's first command), NumPy, clang-22 and libeigen3-dev.
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
parser.add_argument("--threads", default="1,2",
                    help="thread counts to measure, e.g. 1,2 (OpenBLAS, Eigen, "
                    "GOOGLE_MLIR_NUM_THREADS)")
parser.add_argument("--plot", default="matmul_bench.png",
                    help="where to write the PNG plot ('' for none)")
parser.add_argument("--rounds", type=int, default=3)
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


def inputs(m, k, n):
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
    return a, b, bias


def correct(got, m, k, n):
    """`got` agrees with the float64 reference to f32 accuracy."""
    a, b, bias = inputs(m, k, n)
    expected = np.maximum(a.astype(np.float64) @ b + bias, 0)
    bound = (np.abs(a.astype(np.float64)) @ np.abs(b) + np.abs(bias)) * \
        k * 2**-23
    return got.shape == expected.shape and \
        bool(np.all(np.abs(got - expected) <= bound + 1e-30))


NUMPY_TIMER = r"""
import sys, timeit, numpy as np
m, k, n, calls = map(int, sys.argv[1:5])
a, b, bias = (np.load(p) for p in sys.argv[5:8])
out = np.empty((m, n), np.float32)
def run():
    np.matmul(a, b, out=out)
    np.add(out, bias, out=out)
    np.maximum(out, 0, out=out)
run()
np.save(sys.argv[8], out)
times = sorted(timeit.repeat(run, number=1, repeat=calls))
print(times[len(times) // 2])
"""


class Contenders:
    """Runs each contender on one shape; every result is checked."""

    def __init__(self, directory, threads):
        self.directory, self.threads = directory, threads
        self.openblas = os.path.join(directory, "openblas_mbr")
        if not os.path.exists(self.openblas):
            clang = shutil.which("clang-22") or shutil.which("clang")
            subprocess.run([clang, "-O3", "-march=native",
                            os.path.join(root, "bench", "openblas_mbr.c"),
                            "-o", self.openblas, "-ldl"], check=True)
        self.eigen = os.path.join(directory, "eigen_mbr")
        if not os.path.exists(self.eigen):
            clang = shutil.which("clang++-22") or shutil.which("clang++")
            done = subprocess.run(
                [clang, "-O3", "-march=native", "-fopenmp",
                 "-I/usr/include/eigen3",
                 os.path.join(root, "bench", "eigen_mbr.cpp"), "-o",
                 self.eigen, "-L/usr/lib/llvm-22/lib",
                 "-Wl,-rpath,/usr/lib/llvm-22/lib"],
                capture_output=True, text=True)
            if done.returncode != 0:
                print("(Eigen not built: " + done.stderr.strip()[:200] +
                      "; install libeigen3-dev)")
                self.eigen = None

    def files(self, m, k, n):
        paths = []
        for name, value in zip(("a", "b", "bias"), inputs(m, k, n)):
            path = os.path.join(self.directory, f"{name}_{m}x{k}x{n}")
            if not os.path.exists(path + ".npy"):
                np.save(path + ".npy", value)
                value.tofile(path + ".bin")
            paths.append(path)
        return paths

    def numpy(self, m, k, n, calls, coretype):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(self.threads))
        for variable in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
            env.pop(variable, None)
        if coretype:
            env["OPENBLAS_CORETYPE"] = coretype
        out = os.path.join(self.directory, "numpy_out.npy")
        done = subprocess.run(
            [sys.executable, "-c", NUMPY_TIMER, str(m), str(k), str(n),
             str(calls)] + [p + ".npy" for p in self.files(m, k, n)] + [out],
            env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"error: the NumPy timer failed: {done.stderr.strip()}")
        return float(done.stdout), correct(np.load(out), m, k, n)

    def cblas(self, m, k, n, calls):
        """cblas_sgemm + a bias/relu loop, OpenBLAS's SkylakeX kernel."""
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(self.threads),
                   OPENBLAS_CORETYPE="SkylakeX")
        env.pop("OPENBLAS_L2_SIZE", None)
        out = os.path.join(self.directory, "openblas_out.bin")
        done = subprocess.run(
            [self.openblas, str(m), str(k), str(n), str(calls)] +
            [p + ".bin" for p in self.files(m, k, n)] + [out],
            capture_output=True, text=True, env=env)
        if done.returncode != 0:
            sys.exit(f"error: openblas_mbr failed: {done.stderr.strip()}")
        got = np.fromfile(out, np.float32).reshape(m, n)
        return float(done.stdout), correct(got, m, k, n)

    def eigen_seconds(self, m, k, n, calls):
        if not self.eigen:
            return None, True
        out = os.path.join(self.directory, "eigen_out.bin")
        done = subprocess.run(
            [self.eigen, str(m), str(k), str(n), str(calls),
             str(self.threads)] + [p + ".bin" for p in self.files(m, k, n)] +
            [out], capture_output=True, text=True,
            env=dict(os.environ, OMP_NUM_THREADS=str(self.threads)))
        if done.returncode != 0:
            sys.exit(f"error: eigen_mbr failed: {done.stderr.strip()}")
        got = np.fromfile(out, np.float32).reshape(m, n)
        return float(done.stdout), correct(got, m, k, n)

    def google(self, m, k, n, calls, opt_level):
        module = os.path.join(self.directory, f"mbr_{m}x{k}x{n}.mlir")
        with open(module, "w") as f:
            f.write(f"""func.func @mbr(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>,
               %bias: tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %p = google.matmul %a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32> -> tensor<{m}x{n}xf32>
  %s = google.add %p, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32> -> tensor<{m}x{n}xf32>
  %r = google.relu %s : tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
""")
        out = os.path.join(self.directory, "google_out.npy")
        done = subprocess.run(
            [google_run, module, f"--benchmark={calls}", f"--output=@{out}",
             f"--pipeline-options=opt-level={opt_level}"] +
            [f"--input=@{p}.npy" for p in self.files(m, k, n)],
            capture_output=True, text=True,
            env=dict(os.environ,
                     GOOGLE_MLIR_CACHE_DIR=f"{self.directory}/cache",
                     GOOGLE_MLIR_NUM_THREADS=str(self.threads)))
        if done.returncode != 0:
            sys.exit(f"error: google-run failed: {done.stderr.strip()}")
        median = float(re.search(r"median ([0-9.]+) us", done.stdout).group(1))
        return median * 1e-6, correct(np.load(out), m, k, n)


CONTENDERS = ["google O3", "google O1 (upstream loops)", "OpenBLAS SkylakeX",
              "numpy SkylakeX", "numpy as installed", "Eigen"]


def measure(contenders, m, k, n):
    """GFLOP/s per contender (None: skipped), interleaved over rounds."""
    flops = 2.0 * m * k * n
    calls = calls_for(flops)
    runs = {
        "google O3": lambda: contenders.google(m, k, n, calls, 3),
        "google O1 (upstream loops)": None if options.skip_untiled else
        (lambda: contenders.google(m, k, n, calls_for(flops, 0.3, 1.5), 1)),
        "OpenBLAS SkylakeX": lambda: contenders.cblas(m, k, n, calls),
        "numpy SkylakeX": lambda: contenders.numpy(m, k, n, calls,
                                                   "SkylakeX"),
        "numpy as installed": lambda: contenders.numpy(m, k, n, calls, None),
        "Eigen": lambda: contenders.eigen_seconds(m, k, n, calls),
    }
    samples = {name: [] for name in CONTENDERS}
    for _ in range(options.rounds):
        for name in CONTENDERS:
            if runs[name] is None:
                continue
            seconds, ok = runs[name]()
            if not ok:
                sys.exit(f"error: {name} computed a wrong result for "
                         f"{m}x{k}x{n}")
            if seconds:
                samples[name].append(seconds)
    return {name: flops / sorted(times)[len(times) // 2] / 1e9
            if times else None for name, times in samples.items()}


thread_counts = [int(t) for t in options.threads.split(",")]
print(f"{cpu_name()}, {os.cpu_count()} cores")
results = {}
with tempfile.TemporaryDirectory() as directory:
    one_core = fma_peak(directory)
    for threads in thread_counts:
        peak = one_core * threads if one_core else None
        print(f"\n{threads} thread(s); FMA peak {peak:.0f} GFLOP/s" if peak
              else f"\n{threads} thread(s)")
        header = ["MxKxN"] + CONTENDERS + ["O3/SkylakeX", "O3/peak"]
        print(" | ".join(header))
        contenders = Contenders(directory, threads)
        for m, k, n in shapes:
            rates = measure(contenders, m, k, n)
            results[(threads, (m, k, n))] = (rates, peak)
            g = lambda r: f"{r:.1f}" if r else "-"
            o3, skx = rates["google O3"], rates["OpenBLAS SkylakeX"]
            row = [f"{m}x{k}x{n}"] + [g(rates[c]) for c in CONTENDERS] + [
                f"{o3 / skx:.2f}x", f"{o3 / peak:.0%}" if peak else "-"]
            print(" | ".join(row), flush=True)

if options.plot:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("(no plot: install python3-matplotlib)")
    figure, axes = plt.subplots(1, len(thread_counts), squeeze=False,
                                figsize=(6 * len(thread_counts), 4.5))
    for column, threads in enumerate(thread_counts):
        axis = axes[0][column]
        width = 0.8 / (len(CONTENDERS) + 1)
        for index, name in enumerate(CONTENDERS + ["FMA peak"]):
            values = []
            for shape in shapes:
                rates, peak = results[(threads, shape)]
                values.append((peak if name == "FMA peak" else rates[name])
                              or 0)
            axis.bar([x + index * width for x in range(len(shapes))], values,
                     width, label=name)
        axis.set_xticks([x + 0.4 - width / 2 for x in range(len(shapes))])
        axis.set_xticklabels(["x".join(map(str, s)) for s in shapes],
                             fontsize=8)
        axis.set_ylabel("GFLOP/s")
        axis.set_title(f"relu(A @ B + bias), f32, {threads} thread(s)")
    axes[0][0].legend(fontsize=7)
    figure.suptitle(cpu_name(), fontsize=9)
    figure.tight_layout()
    figure.savefig(options.plot, dpi=100)
    print(f"plot: {options.plot}")
