"""Calls through the Python extension for scripts/check-memory.sh to run
under valgrind: results of every kind, strided and bf16 arguments, argument
mismatches, run-time check failures and freed results."""

import numpy as np

import google_mlir as gm

pair = gm.jit(lambda x, y: (x + y, x * 2.0))
column_sums = gm.jit(lambda x: x.sum(axis=0), dynamic_dims={"x": [0]})
scaled = gm.jit(lambda x: gm.relu(x) * 2.0)
same = gm.jit(lambda x, y: x - y, dynamic_dims={"x": [0], "y": [0]})

x = np.ones((16, 16), np.float32)
y = np.ones(16, np.float32)
for i in range(20):
    a, b = pair(x, y)
    c = column_sums(x[: i % 16])
    d = scaled(x[:, ::2])
    e = scaled(gm.to_bfloat16(x))
    for bad in ((x, "bad"), (x, y.astype(np.float64))):
        try:
            pair(*bad)
        except TypeError:
            pass
    try:
        same(x, x[:3])
    except gm.Error:
        pass
    del a, b
assert float(c.sum()) == 16.0 * ((19 % 16))
assert float(d.sum()) == 256.0 and float(gm.from_bfloat16(e).sum()) == 512.0
print("memcheck_calls: done")
