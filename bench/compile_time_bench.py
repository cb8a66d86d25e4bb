#!/usr/bin/python3
"""Compile time over growing programs: a chain of n steps of
x = tanh(x * 1.001 + 0.5) on 64x64 f32 (3n google ops, as a traced Python
loop makes), compiled cold by google-run at each n. Prints each stage's
time and the growth per doubling of n (2.0 is linear). Not a test: the
machines are shared and noisy.

  compile_time_bench.py [--google-run PATH] [--sizes 250,500,1000,2000]

Then the RNN training step of examples/train_rnn.py (gm.scan + gm.grad)
compiled for sequences of 16 and 1024 steps: the loop is a google.while,
so the compile time does not grow with the sequence.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def chain(n):
    lines = ["func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {",
             "  %a = google.constant dense<1.001> : tensor<f32>",
             "  %b = google.constant dense<0.5> : tensor<f32>"]
    value = "%x"
    for i in range(n):
        lines += [f"  %m{i} = google.mul {value}, %a : tensor<64x64xf32>, "
                  "tensor<f32> -> tensor<64x64xf32>",
                  f"  %s{i} = google.add %m{i}, %b : tensor<64x64xf32>, "
                  "tensor<f32> -> tensor<64x64xf32>",
                  f"  %t{i} = google.tanh %s{i} : tensor<64x64xf32>"]
        value = f"%t{i}"
    lines.append(f"  return {value} : tensor<64x64xf32>\n}}\n")
    return "\n".join(lines)


def scan_compile_times():
    """Cold compiles (a fresh cache) of the RNN gradient step at two
    sequence lengths, in a child process each."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = ("import sys, time; sys.path.insert(0, 'examples')\n"
            "import numpy as np, google_mlir as gm, train_rnn\n"
            "p = train_rnn.init_params()\n"
            "xs, t = train_rnn.make_batch(np.random.default_rng(0), "
            "steps=int(sys.argv[1]))\n"
            "f = gm.jit(gm.grad(train_rnn.loss_fn))\n"
            "s = time.perf_counter(); f(p, xs, t)\n"
            "print(time.perf_counter() - s)\n")
    python_path = os.path.join(root, "build", "python")
    for steps in (16, 1024):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, GOOGLE_MLIR_CACHE_DIR=cache,
                       PYTHONPATH=python_path)
            out = subprocess.run([sys.executable, "-c", code, str(steps)],
                                 cwd=root, env=env, capture_output=True,
                                 text=True, check=True).stdout
        print(f"RNN gradient step, sequence {steps:5d}: first call "
              f"(trace + compile + run) {float(out) * 1e3:8.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--google-run", default="build/bin/google-run")
    parser.add_argument("--sizes", default="250,500,1000,2000")
    args = parser.parse_args()
    stages = ("parse", "pipeline", "codegen", "link")
    print(f"{'n':>6} {'ops':>6} " + " ".join(f"{s:>9}" for s in stages) +
          f" {'total ms':>9} {'x per 2n':>9}")
    previous = None
    with tempfile.TemporaryDirectory() as work:
        for n in (int(s) for s in args.sizes.split(",")):
            path = os.path.join(work, f"chain{n}.mlir")
            with open(path, "w") as f:
                f.write(chain(n))
            env = dict(os.environ, GOOGLE_MLIR_CACHE_DIR=os.path.join(
                work, f"cache{n}"), GOOGLE_MLIR_LOG_COMPILES="1")
            done = subprocess.run(
                [args.google_run, path, f"--emit-object={path}.so"],
                env=env, capture_output=True, text=True)
            if done.returncode:
                sys.exit(done.stderr)
            times = {s: float(re.search(rf"{s} ([0-9.]+)", done.stderr)[1])
                     for s in stages}
            total = float(re.search(r"in ([0-9.]+) ms", done.stderr)[1])
            growth = f"{total / previous:9.2f}" if previous else f"{'':>9}"
            print(f"{n:>6} {3 * n:>6} " +
                  " ".join(f"{times[s]:9.1f}" for s in stages) +
                  f" {total:9.1f} {growth}")
            previous = total
    scan_compile_times()


if __name__ == "__main__":
    main()
