#!/usr/bin/python3
"""Python front end: dispatch overhead of a cached @jit call, and the MLP end
to end, side by side with numpy in one process (contenders interleaved,
medians of repeated runs).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py

Dispatch contenders on a 4-element f32 add: @gm.jit, numpy's np.add, the
compiled function called through the extension without the jit wrapper
(google_mlir._native.Function), and the C runtime's google_rt_call measured
by build/bin/runtime_bench (C++, no Python) when it exists.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import google_mlir as gm


def per_call_us(function, args, calls):
    start = time.perf_counter()
    for _ in range(calls):
        function(*args)
    return (time.perf_counter() - start) / calls * 1e6


def interleaved(contenders, args_of, calls, repeats):
    """Median microseconds per call of each contender, run in turns."""
    samples = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, function in contenders.items():
            samples[name].append(per_call_us(function, args_of(name), calls))
    return {name: statistics.median(values)
            for name, values in samples.items()}


def c_runtime_ns(root):
    tool = os.path.join(root, "build", "bin", "runtime_bench")
    if not os.path.exists(tool):
        return None
    done = subprocess.run([tool, os.path.join(root, "bench", "mlp_784.mlir")],
                          capture_output=True, text=True)
    match = re.search(r"google_rt_call (\d+) ns \(caller buffer\), (\d+) ns "
                      r"\(runtime-allocated result\)", done.stdout)
    return (int(match.group(1)), int(match.group(2))) if match else None


def dispatch(repeats):
    @gm.jit
    def add(a, b):
        return a + b

    a = np.arange(4, dtype=np.float32)
    b = np.ones(4, np.float32)
    np.testing.assert_array_equal(add(a, b), np.add(a, b))
    native = add._fast.function
    np.testing.assert_array_equal(native(a, b), np.add(a, b))
    medians = interleaved({"gm.jit": add, "numpy": np.add,
                           "native Function": native},
                          lambda name: (a, b), 20000, repeats)
    print("dispatch, 4-element f32 add (median us per call, "
          f"{repeats} runs of 20000 calls):")
    for name, us in medians.items():
        print(f"  {name:16s} {us:6.2f} us   ({us / medians['numpy']:.2f}x "
              "numpy)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    c = c_runtime_ns(root)
    if c:
        print(f"  {'C google_rt_call':16s} {c[1] / 1000:6.2f} us   (from C, "
              f"runtime-allocated result; {c[0] / 1000:.2f} us into a "
              "caller buffer)")


def mlp_numpy(x, w1, b1, w2, b2):
    h = np.maximum(x @ w1 + b1, 0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mlp(repeats):
    def body(x, w1, b1, w2, b2):
        h = gm.relu(x @ w1 + b1)
        return gm.softmax(h @ w2 + b2)

    dynamic = gm.jit(body, dynamic_dims={"x": [0]})
    static = gm.jit(body)
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(s).astype(np.float32) * 0.05
               for s in [(784, 256), (256,), (256, 10), (10,)]]
    print("MLP 784 -> 256 -> 10 + softmax (median us per call); dynamic: "
          "one compile for every batch, static: one per batch size:")
    print(f"  {'batch':>6s} {'dynamic':>10s} {'static':>10s} {'numpy':>10s} "
          f"{'numpy/static':>13s}")
    for batch in (1, 7, 64, 1000):
        x = rng.standard_normal((batch, 784)).astype(np.float32)
        args = (x, *weights)
        for f in (dynamic, static):
            np.testing.assert_allclose(f(*args), mlp_numpy(*args),
                                       rtol=1e-4, atol=1e-6)
        calls = max(10, 20000 // batch)
        medians = interleaved({"dynamic": dynamic, "static": static,
                               "numpy": mlp_numpy},
                              lambda name: args, calls, repeats)
        print(f"  {batch:6d} {medians['dynamic']:10.1f} "
              f"{medians['static']:10.1f} {medians['numpy']:10.1f} "
              f"{medians['numpy'] / medians['static']:12.1f}x")
    assert dynamic.num_compiled == 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"threads {os.environ.get('GOOGLE_MLIR_NUM_THREADS', 'all')}")
    dispatch(args.repeats)
    mlp(args.repeats)


if __name__ == "__main__":
    main()
