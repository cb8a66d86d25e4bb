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

Then gradients against their forward programs: the loss of
examples/train_mlp.py and of examples/train_cnn.py, jitted alone, as
gm.value_and_grad(loss) and as the whole SGD step, each compiled cold
(best of --repeat) by google-run, with the ratio to the forward's.
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


GRADIENT_MODULES = r"""
import sys
sys.path.insert(0, "examples")
import numpy as np
import google_mlir as gm
import cnn_digits, train_cnn, train_mlp

def dump(name, function, *args):
    jitted = function if hasattr(function, "lower") else gm.jit(function)
    with open(f"{sys.argv[1]}/{name}.mlir", "w") as f:
        f.write(jitted.lower(*args))

mlp = train_mlp.init_params()
x, onehot = np.zeros((250, 64), np.float32), np.zeros((250, 10), np.float32)
dump("mlp_loss", lambda p, x, t: train_mlp.loss_fn(p, x, t), mlp, x, onehot)
dump("mlp_value_and_grad", gm.value_and_grad(train_mlp.loss_fn), mlp, x,
     onehot)
dump("mlp_step", train_mlp.train_step, *mlp, x, onehot)
weights = cnn_digits.init_weights()
cnn = [weights[name] for name in cnn_digits.SHAPES]
x = np.zeros((256, 8, 8, 1), np.float32)
onehot = np.zeros((256, 10), np.float32)
dump("cnn_loss", lambda p, x, t: train_cnn.loss_fn(p, x, t), cnn, x, onehot)
dump("cnn_value_and_grad", gm.value_and_grad(train_cnn.loss_fn), cnn, x,
     onehot)
dump("cnn_step", train_cnn.train_step, *cnn, x, onehot)
"""


STAGES = ("parse", "pipeline", "codegen", "link")


def compile_ms(google_run, path, work, repeat):
    """The best of `repeat` cold compiles of `path`: total and per stage."""
    best = None
    for i in range(repeat):
        env = dict(os.environ, GOOGLE_MLIR_LOG_COMPILES="1",
                   GOOGLE_MLIR_CACHE_DIR=os.path.join(work, f"cache-{i}"))
        done = subprocess.run([google_run, path, f"--emit-object={path}.so"],
                              env=env, capture_output=True, text=True)
        if done.returncode:
            sys.exit(done.stderr)
        total = float(re.search(r"in ([0-9.]+) ms", done.stderr)[1])
        stages = {s: float(re.search(rf"{s} ([0-9.]+)", done.stderr)[1])
                  for s in STAGES}
        if best is None or total < best[0]:
            best = (total, stages)
    return best


def gradient_compile_times(google_run, repeat):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, PYTHONPATH=os.path.join(root, "build",
                                                       "python"))
        subprocess.run([sys.executable, "-c", GRADIENT_MODULES, work],
                       cwd=root, env=env, check=True)
        print(f"\ncold compiles, best of {repeat}: {'total ms':>9} "
              f"{'pipeline':>9} {'codegen':>9} {'x forward':>9}")
        for model in ("mlp", "cnn"):
            forward = None
            for program in ("loss", "value_and_grad", "step"):
                total, stages = compile_ms(
                    google_run, os.path.join(work, f"{model}_{program}.mlir"),
                    work, repeat)
                forward = forward or total
                print(f"  {model} {program:<23} {total:9.1f} "
                      f"{stages['pipeline']:9.1f} {stages['codegen']:9.1f} "
                      f"{total / forward:9.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--google-run", default="build/bin/google-run")
    parser.add_argument("--sizes", default="250,500,1000,2000")
    parser.add_argument("--repeat", type=int, default=5,
                        help="cold compiles per gradient row (best kept)")
    args = parser.parse_args()
    print(f"{'n':>6} {'ops':>6} " + " ".join(f"{s:>9}" for s in STAGES) +
          f" {'total ms':>9} {'x per 2n':>9}")
    previous = None
    with tempfile.TemporaryDirectory() as work:
        for n in (int(s) for s in args.sizes.split(",")):
            path = os.path.join(work, f"chain{n}.mlir")
            with open(path, "w") as f:
                f.write(chain(n))
            total, times = compile_ms(args.google_run, path, work, 1)
            growth = f"{total / previous:9.2f}" if previous else f"{'':>9}"
            print(f"{n:>6} {3 * n:>6} " +
                  " ".join(f"{times[s]:9.1f}" for s in STAGES) +
                  f" {total:9.1f} {growth}")
            previous = total
    scan_compile_times()
    gradient_compile_times(os.path.abspath(args.google_run), args.repeat)


if __name__ == "__main__":
    main()
