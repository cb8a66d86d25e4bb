#!/usr/bin/python3
"""Models end to end, google-mlir (@gm.jit, opt-level 3, in-process, zero
copy) side by side with numpy on OpenBLAS's AVX-512 SkylakeX kernel, at 1
and 2 threads: plain matmul, batched matmul, the MLP (784 -> 256 -> 10,
softmax) at batch 1 and 64, and attention (softmax(q k^T / sqrt(d)) v).
Each contender runs in processes of its own (the workers of OpenBLAS and of
OpenMP spin on a core after a call, which would slow the other down): per
thread count, rounds alternate between a google-mlir process
(GOOGLE_MLIR_NUM_THREADS set; its numpy reference single-threaded) and a
numpy process (OPENBLAS_NUM_THREADS set, OPENBLAS_CORETYPE=SkylakeX forced,
the kernel tuning variables cleared). google-mlir's results are checked
against numpy before they are timed; medians over the rounds are printed
with the ratio numpy / google (above 1: google-mlir is faster). Timings are
for reports, never asserted.

    PYTHONPATH=build/python /usr/bin/python3 bench/models_bench.py
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def softmax_numpy(np, v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def models(np, gm, rng):
    """(name, flops, jitted function, numpy function, arguments)."""
    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    cases = []
    a, b = f32(512, 512), f32(512, 512)
    cases.append(("matmul 512x512x512", 2 * 512 ** 3,
                  gm.jit(lambda a, b: a @ b), lambda a, b: a @ b, (a, b)))
    a, b = f32(16, 128, 64), f32(16, 64, 128)
    cases.append(("batched matmul 16x128x64x128", 2 * 16 * 128 * 64 * 128,
                  gm.jit(lambda a, b: a @ b), lambda a, b: a @ b, (a, b)))

    weights = (f32(784, 256, scale=0.05), f32(256, scale=0.05),
               f32(256, 10, scale=0.05), f32(10, scale=0.05))

    def mlp(x, w1, b1, w2, b2):
        return gm.softmax(gm.relu(x @ w1 + b1) @ w2 + b2)

    def mlp_numpy(x, w1, b1, w2, b2):
        return softmax_numpy(np, np.maximum(x @ w1 + b1, 0) @ w2 + b2)

    mlp_jit = gm.jit(mlp, dynamic_dims={"x": [0]})
    for batch in (1, 64):
        cases.append((f"MLP 784-256-10 batch {batch}",
                      2 * batch * (784 * 256 + 256 * 10), mlp_jit, mlp_numpy,
                      (f32(batch, 784), *weights)))

    def attention(q, k, v):
        scale = np.float32(1 / np.sqrt(q.shape[-1]))
        return gm.softmax(q @ gm.transpose(k, (0, 2, 1)) * scale) @ v

    def attention_numpy(q, k, v):
        scale = np.float32(1 / np.sqrt(q.shape[-1]))
        return softmax_numpy(np, q @ np.transpose(k, (0, 2, 1)) * scale) @ v

    heads, seq, dim = 8, 128, 64
    cases.append((f"attention {heads}x{seq}x{dim}", 4 * heads * seq * seq * dim,
                  gm.jit(attention), attention_numpy,
                  tuple(f32(heads, seq, dim) for _ in range(3))))
    return cases


def per_call_s(function, args, seconds=0.05):
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            function(*args)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls
        calls *= 2


def child(contender):
    """One round: `name<TAB>seconds per call<TAB>flops` for each model."""
    import numpy as np
    import google_mlir as gm
    rng = np.random.default_rng(0)
    for name, flops, jitted, reference, args in models(np, gm, rng):
        if contender == "google":
            got, expected = jitted(*args), reference(*args)
            if not np.allclose(got, expected, rtol=1e-3, atol=1e-4):
                sys.exit(f"error: {name}: google-mlir's result differs from "
                         "numpy's")
            seconds = per_call_s(jitted, args)
        else:
            seconds = per_call_s(reference, args)
        print(f"{name}\t{seconds!r}\t{flops}", flush=True)


def run_round(contender, threads):
    env = dict(os.environ, OPENBLAS_CORETYPE="SkylakeX",
               GOOGLE_MLIR_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads if contender == "numpy"
                                        else 1))
    env.pop("OPENBLAS_L2_SIZE", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.join(root, "build", "python"),
                    os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, os.path.abspath(__file__),
                           f"--child={contender}"], env=env,
                          stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(done.returncode)
    return [line.split("\t") for line in done.stdout.splitlines()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts (default 1,2)")
    parser.add_argument("--rounds", type=int, default=11,
                        help="rounds (processes) per contender (default 11)")
    parser.add_argument("--child", choices=("google", "numpy"),
                        help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        return child(options.child)
    if options.rounds <= 0:
        sys.exit("error: --rounds must be positive")
    try:
        thread_counts = [int(t) for t in options.threads.split(",")]
    except ValueError:
        sys.exit("error: --threads expects comma-separated positive integers")
    if any(t <= 0 for t in thread_counts):
        sys.exit("error: --threads expects comma-separated positive integers")
    flops = {}
    for threads in thread_counts:
        samples = {"google": {}, "numpy": {}}
        for _ in range(options.rounds):
            for contender in samples:
                for name, seconds, count in run_round(contender, threads):
                    samples[contender].setdefault(name, []).append(
                        float(seconds))
                    flops[name] = int(count)
        print(f"{threads} thread(s), medians of {options.rounds} rounds")
        print(f"  {'model':<30s} {'google us':>10s} {'numpy us':>10s} "
              f"{'google GFLOP/s':>15s} {'numpy/google':>13s}")
        for name in samples["google"]:
            ours = statistics.median(samples["google"][name])
            theirs = statistics.median(samples["numpy"][name])
            print(f"  {name:<30s} {ours * 1e6:10.1f} {theirs * 1e6:10.1f} "
                  f"{flops[name] / ours / 1e9:15.1f} {theirs / ours:12.2f}x",
                  flush=True)


if __name__ == "__main__":
    main()
