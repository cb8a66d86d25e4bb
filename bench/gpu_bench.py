#!/usr/bin/python3
"""GPU benchmark: relu(A @ B + bias) in f32 and f16 (4096^3 by default) and
the example MLP, compiled with --target=cuda (or rocm) and timed by
google-run --benchmark with inputs and results kept on the device. Prints
median TFLOP/s and, where PyTorch is installed, cuBLAS through
torch.matmul side by side. Timings are for reports, never asserted.

  bench/gpu_bench.py [--build DIR] [--target cuda|rocm] [--sizes 4096,...]
                     [--calls N]

Without a GPU driver or device it says so and exits 0 (nothing to measure).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--build", default=os.path.join(root, "build"))
parser.add_argument("--target", default="cuda", choices=("cuda", "rocm"))
parser.add_argument("--sizes", default="4096")
parser.add_argument("--calls", type=int, default=20)
options = parser.parse_args()
google_run = os.path.join(options.build, "bin", "google-run")
if not os.access(google_run, os.X_OK):
    sys.exit(f"error: {google_run} not found: build first, or give --build")

listing = subprocess.run([google_run, "--list-devices"], capture_output=True,
                         text=True).stdout
device = next((line for line in listing.splitlines()
               if line.startswith(options.target + ":0:")), None)
if device is None:
    reason = next((line for line in listing.splitlines()
                   if line.startswith(options.target + ":")), "no device")
    print(f"gpu_bench: nothing to measure: {reason}")
    sys.exit(0)
print(f"device: {device}")

LAYER = """
func.func @layer(%a: tensor<{n}x{n}x{t}>, %b: tensor<{n}x{n}x{t}>, %bias: tensor<{n}x{t}>) -> tensor<{n}x{n}x{t}> {{
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<{n}x{n}x{t}>, tensor<{n}x{n}x{t}>, tensor<{n}x{t}> -> tensor<{n}x{n}x{t}>
  return %0 : tensor<{n}x{n}x{t}>
}}
"""


def median_us(module, inputs):
    done = subprocess.run(
        [google_run, module, f"--target={options.target}",
         f"--benchmark={options.calls}"] + [f"--input={i}" for i in inputs],
        capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1]
    match = re.search(r"median ([0-9.]+) us", done.stdout)
    return float(match.group(1)), None


def torch_ms(n, dtype):
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    bias = torch.randn(n, device="cuda", dtype=dtype)
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    times = []
    for _ in range(options.calls):
        start.record()
        torch.relu(a @ b + bias)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


with tempfile.TemporaryDirectory() as work:
    print(f"{'what':<28} {'google-mlir TFLOP/s':>20} {'cuBLAS (torch) TFLOP/s':>24}")
    for n in (int(s) for s in options.sizes.split(",")):
        for t in ("f32", "f16"):
            path = os.path.join(work, f"layer_{n}_{t}.mlir")
            with open(path, "w") as f:
                f.write(LAYER.format(n=n, t=t))
            flops = 2.0 * n * n * n
            us, error = median_us(path, [f"{n}x{n}x{t}=0.01",
                                         f"{n}x{n}x{t}=0.02", f"{n}x{t}=0.5"])
            ours = f"{flops / us / 1e6:.2f}" if us else f"error: {error}"
            theirs = None
            try:
                import torch
                theirs = torch_ms(n, torch.float32 if t == "f32"
                                  else torch.float16)
            except ImportError:
                pass
            reference = f"{flops / theirs / 1e9:.2f}" if theirs else "n/a"
            print(f"{f'matmul_bias_relu {n}^3 {t}':<28} {ours:>20} {reference:>24}")
    mlp = os.path.join(root, "examples", "mlp.mlir")
    us, error = median_us(mlp, ["1000x64xf32=0.1", "64x128xf32=0.01",
                                "128xf32=-0.05", "128x10xf32=0.02",
                                "10xf32=0.5"])
    print(f"{'examples/mlp.mlir batch 1000':<28} "
          f"{(f'{us:.1f} us' if us else 'error: ' + error):>20}")
