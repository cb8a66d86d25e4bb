"""Checks --google-approximate-math (what NVVM kernels compute without
libdevice) against NumPy in float64, with the differential tester's error
bounds for each function, over wide ranges of f32 inputs. The approximated
module runs on the CPU (google-run compiles linalg on tensors).

  approximate_math.py GOOGLE_OPT GOOGLE_RUN WORK_DIR
"""
import math
import os
import re
import subprocess
import sys

import numpy as np

google_opt, google_run, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
U = 2.0 ** -24
TINY = 2.0 ** -149
N = 20000
rng = np.random.default_rng(0)


def spread(low, high):
    """Values over [low, high], dense near 0 and at the ends."""
    return np.concatenate([np.linspace(low, high, N // 2),
                           rng.uniform(low, high, N // 2)]).astype(np.float32)


# name, inputs, reference, bound on |computed - reference| (difftest.py)
CASES = [
    ("exp", spread(-87, 88), np.exp, lambda r: 4 * U * r),
    ("log", np.concatenate([spread(1e-30, 10), spread(10, 3e38)]), np.log,
     lambda r: 4 * U * (np.abs(r) + 1)),
    ("tanh", spread(-20, 20), np.tanh, lambda r: 4 * U * np.abs(r)),
    ("sigmoid", spread(-80, 80), lambda x: 1 / (1 + np.exp(-x)),
     lambda r: 8 * U + 0 * r),
    ("sqrt", spread(0, 1e6), np.sqrt, lambda r: U * r),
    ("erf", spread(-6, 6), np.vectorize(math.erf, otypes=[np.float64]),
     lambda r: 6 * U * np.abs(r)),
]
failed = False
for name, x, reference, bound in CASES:
    source = os.path.join(work, f"{name}.mlir")
    with open(source, "w") as f:
        f.write(f"func.func @main(%x: tensor<{x.size}xf32>) -> "
                f"tensor<{x.size}xf32> {{\n"
                f"  %0 = google.{name} %x : tensor<{x.size}xf32>\n"
                f"  return %0 : tensor<{x.size}xf32>\n}}\n")
    linalg = subprocess.run(
        [google_opt, source, "--convert-google-to-linalg",
         "--google-approximate-math"], check=True, capture_output=True,
        text=True).stdout
    # Left: what NVPTX has instructions for (the serializer defines their
    # libdevice names with LLVM intrinsics).
    left = set(re.findall(r"math\.(\w+)", linalg)) - {"sqrt", "absf", "floor",
                                                    "fma"}
    if left:
        print(f"{name}: math functions left: {sorted(left)}")
        failed = True
    approximated = os.path.join(work, f"{name}-approximated.mlir")
    with open(approximated, "w") as f:
        f.write(linalg)
    np.save(os.path.join(work, f"{name}-x.npy"), x)
    out = os.path.join(work, f"{name}-y.npy")
    subprocess.run([google_run, approximated,
                    f"--input=@{os.path.join(work, name + '-x.npy')}",
                    f"--output=@{out}"], check=True)
    y = np.load(out).astype(np.float64)
    with np.errstate(all="ignore"):
        r = reference(x.astype(np.float64))
        error = np.abs(y - r)
        allowed = bound(r) + TINY
    bad = ~(error <= allowed)
    worst = np.max(np.where(np.isfinite(r), error / np.maximum(
        np.abs(r), 1e-300), 0)) / U
    if bad.any():
        i = np.argmax(bad)
        print(f"{name}: {bad.sum()} of {x.size} outside the bound, e.g. "
              f"x = {x[i]!r}: {y[i]!r}, expected {r[i]!r}")
        failed = True
    else:
        print(f"{name}: {x.size} values within the bound (worst "
              f"{worst:.2f} ulp)")
sys.exit(1 if failed else 0)
