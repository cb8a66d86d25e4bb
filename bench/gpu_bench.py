#!/usr/bin/python3
"""GPU benchmark: relu(A @ B + bias) in f32 and f16 (4096^3 by default),
the example MLP and an attention block (softmax(q k^T / sqrt(d)) v),
compiled with --target=cuda (or rocm) and timed by google-run --benchmark
with inputs and results kept on the device. Prints median TFLOP/s, the
share of the device's CUDA-core peak (SMs x FP32 lanes x 2 x the maximum
SM clock from nvidia-smi; f16 at twice that, though f16 matmuls in whole
128x128 tiles run on tensor cores from sm_80 on and may pass it) and,
where PyTorch is installed, cuBLAS through torch.matmul side by side.
Timings are for reports, never asserted. bench/gpu/ runs more kernels on
a GPU machine that has no MLIR.

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

# FP32 lanes per SM by compute capability (CUDA C Programming Guide,
# "Arithmetic Instructions"): 64 on sm_80 (A100), 128 on sm_86 and later.
FP32_LANES = {"sm_80": 64, "sm_86": 128, "sm_87": 128, "sm_89": 128,
              "sm_90": 128, "sm_100": 128, "sm_120": 128}


def cuda_core_peak_tflops():
    """FP32 TFLOP/s of CUDA cores of device 0, or None when unknown."""
    if options.target != "cuda":
        return None
    arch = re.search(r"\b(sm_[0-9]+)", device)
    sms = re.search(r"([0-9]+) (?:SMs|multiprocessors|compute units)",
                    device)
    try:
        clock = subprocess.run(
            ["nvidia-smi", "--id=0", "--query-gpu=clocks.max.sm",
             "--format=csv,noheader,nounits"], capture_output=True,
            text=True, timeout=30).stdout.strip()
        mhz = float(clock.splitlines()[0])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None
    if not arch or not sms or arch.group(1) not in FP32_LANES:
        return None
    return int(sms.group(1)) * FP32_LANES[arch.group(1)] * 2 * mhz / 1e6


peak_f32 = cuda_core_peak_tflops()
print("CUDA-core peak: " + (f"{peak_f32:.1f} TFLOP/s f32, "
                            f"{2 * peak_f32:.1f} f16" if peak_f32
                            else "unknown (needs nvidia-smi and a known sm)"))

ATTENTION = """
func.func @attention(%q: tensor<{b}x{s}x{d}xf32>, %k: tensor<{b}x{s}x{d}xf32>, %v: tensor<{b}x{s}x{d}xf32>) -> tensor<{b}x{s}x{d}xf32> {{
  %kt = google.transpose %k {{perm = array<i64: 0, 2, 1>}} : tensor<{b}x{s}x{d}xf32> -> tensor<{b}x{d}x{s}xf32>
  %s = google.matmul %q, %kt : tensor<{b}x{s}x{d}xf32>, tensor<{b}x{d}x{s}xf32> -> tensor<{b}x{s}x{s}xf32>
  %scale = google.constant dense<{scale}> : tensor<f32>
  %scaled = google.div %s, %scale : tensor<{b}x{s}x{s}xf32>, tensor<f32> -> tensor<{b}x{s}x{s}xf32>
  %p = google.softmax %scaled {{axis = -1 : i64}} : tensor<{b}x{s}x{s}xf32>
  %o = google.matmul %p, %v : tensor<{b}x{s}x{s}xf32>, tensor<{b}x{s}x{d}xf32> -> tensor<{b}x{s}x{d}xf32>
  return %o : tensor<{b}x{s}x{d}xf32>
}}
"""

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
    print(f"{'what':<28} {'google-mlir TFLOP/s':>20} {'of peak':>8} "
          f"{'cuBLAS (torch) TFLOP/s':>24}")
    for n in (int(s) for s in options.sizes.split(",")):
        for t in ("f32", "f16"):
            path = os.path.join(work, f"layer_{n}_{t}.mlir")
            with open(path, "w") as f:
                f.write(LAYER.format(n=n, t=t))
            flops = 2.0 * n * n * n
            us, error = median_us(path, [f"{n}x{n}x{t}=0.01",
                                         f"{n}x{n}x{t}=0.02", f"{n}x{t}=0.5"])
            ours = f"{flops / us / 1e6:.2f}" if us else f"error: {error}"
            peak = peak_f32 * (2 if t == "f16" else 1) if peak_f32 else None
            share = f"{flops / us / 1e6 / peak:.0%}" if us and peak else "n/a"
            theirs = None
            try:
                import torch
                theirs = torch_ms(n, torch.float32 if t == "f32"
                                  else torch.float16)
            except ImportError:
                pass
            reference = f"{flops / theirs / 1e9:.2f}" if theirs else "n/a"
            print(f"{f'matmul_bias_relu {n}^3 {t}':<28} {ours:>20} "
                  f"{share:>8} {reference:>24}")
    mlp = os.path.join(root, "examples", "mlp.mlir")
    us, error = median_us(mlp, ["1000x64xf32=0.1", "64x128xf32=0.01",
                                "128xf32=-0.05", "128x10xf32=0.02",
                                "10xf32=0.5"])
    print(f"{'examples/mlp.mlir batch 1000':<28} "
          f"{(f'{us:.1f} us' if us else 'error: ' + error):>20}")
    b, seq, d = 16, 1024, 64
    path = os.path.join(work, "attention.mlir")
    with open(path, "w") as f:
        f.write(ATTENTION.format(b=b, s=seq, d=d, scale=d ** 0.5))
    us, error = median_us(path, [f"{b}x{seq}x{d}xf32=0.01"] * 3)
    flops = 4.0 * b * seq * seq * d
    print(f"{f'attention {b}x{seq}x{d} f32':<28} "
          f"{(f'{flops / us / 1e6:.2f}' if us else 'error: ' + error):>20}"
          f" {(f'{flops / us / 1e6 / peak_f32:.0%}' if us and peak_f32 else 'n/a'):>8}")
