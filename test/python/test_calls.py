# RUN: %python -m pytest -q -p no:cacheprovider %s
"""Calls: zero-copy arguments and results, strided and read-only inputs,
inputs never modified, futures and threads, NaN debugging, eager mode and
the printed stages."""

import concurrent.futures
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import google_mlir as gm
from google_mlir import _native


def allocations():
    stats = _native.pool_stats()
    return stats["system_allocations"] + stats["reused_allocations"]


def test_contiguous_arguments_are_not_copied(rng):
    f = gm.jit(lambda x: x * 2.0)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    view = np.asfortranarray(x).T.T  # same values, column-major
    f(x), f(view)  # compile, warm the pool
    before = allocations()
    f(x)
    contiguous = allocations() - before
    before = allocations()
    f(view)
    strided = allocations() - before
    # Only the result for a contiguous argument, one copy more otherwise.
    assert contiguous == 1
    assert strided == contiguous + 1


def test_results_wrap_runtime_buffers(rng):
    f = gm.jit(lambda x: gm.exp(x))
    x = rng.standard_normal(1000).astype(np.float32)
    y = f(x)
    assert isinstance(y.base, _native.Buffer)
    assert not y.flags.owndata and y.flags.writeable and y.flags.c_contiguous
    assert y.ctypes.data % 64 == 0
    in_use = _native.pool_stats()["bytes_in_use"]
    del y
    assert _native.pool_stats()["bytes_in_use"] <= in_use - 4000


@pytest.mark.parametrize("make_view", [
    lambda a: a[:, ::2],
    lambda a: a.T,
    lambda a: a[::-1, 1:],
    lambda a: a[::2, ::-3],
])
def test_strided_inputs(rng, make_view):
    base = rng.standard_normal((12, 12)).astype(np.float32)
    view = make_view(base)
    f = gm.jit(lambda x, y: x @ y.T + 1.0)
    np.testing.assert_allclose(f(view, view), view @ view.T + 1, rtol=1e-5,
                               atol=1e-5)


def test_unaligned_strides_are_copied_once():
    record = np.zeros(6, dtype=[("a", np.int8), ("b", np.float32)])
    record["b"] = np.arange(6)
    unaligned = record["b"]  # stride 5 bytes: not a whole element
    f = gm.jit(lambda x: x + 1.0)
    np.testing.assert_array_equal(f(unaligned), np.arange(6) + 1)


def test_inputs_are_never_modified(rng):
    @gm.jit
    def many(x, w, b):
        h = gm.relu(x @ w + b)
        return h, x * 2.0, gm.softmax(x), x

    x = rng.standard_normal((8, 8)).astype(np.float32)
    w = rng.standard_normal((8, 8)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    copies = [a.copy() for a in (x, w, b)]
    for a in (x, w, b):
        a.flags.writeable = False  # read-only arrays are accepted too
    results = many(x, w, b)
    for a, c in zip((x, w, b), copies):
        np.testing.assert_array_equal(a, c)
    results[3][...] = 0  # a result never aliases an input
    np.testing.assert_array_equal(x, copies[0])


def test_updates_in_place_work_on_copies_of_inputs(rng, cache_dir):
    # A scatter_add would add into its base's buffer, a loop would step its
    # state in the buffer it starts from: with an input there, the
    # caller's array (passed without a copy) changed until the arguments
    # were marked read-only for bufferization.
    source = textwrap.dedent("""
        func.func @rows(%b: tensor<10x4xf32>, %ids: tensor<3xi64>, %u: tensor<3x4xf32>) -> tensor<10x4xf32> {
          %r = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32> -> tensor<10x4xf32>
          return %r : tensor<10x4xf32>
        }
    """)
    info = gm._native_module.compile(source, "rows", "", str(cache_dir), 0)
    from google_mlir import runtime
    rows = runtime.load(info["path"]).function("rows")
    b = rng.standard_normal((10, 4)).astype(np.float32)
    ids = np.array([1, 2, 1])
    u = rng.standard_normal((3, 4)).astype(np.float32)
    before = b.copy()
    expected = before.copy()
    np.add.at(expected, ids, u)
    np.testing.assert_allclose(rows(b, ids, u), expected, rtol=1e-6)
    np.testing.assert_array_equal(b, before)

    @gm.jit
    def halve_until_small(x):
        return gm.while_loop(lambda y: (y * y).sum() > 1.0,
                             lambda y: y * 0.5, x)

    x = rng.standard_normal((16, 16)).astype(np.float32) * 4
    before = x.copy()
    y = halve_until_small(x)
    np.testing.assert_array_equal(x, before)
    assert np.sum(y * y) <= 1.0 and np.sum(2 * y * (2 * y)) > 1.0


def test_keyword_arguments_and_defaults(rng):
    @gm.jit
    def affine(x, w, b=np.float32(0)):
        return x @ w + b

    x = rng.standard_normal((3, 4)).astype(np.float32)
    w = rng.standard_normal((4, 2)).astype(np.float32)
    b = np.ones(2, np.float32)
    np.testing.assert_allclose(affine(w=w, x=x, b=b), x @ w + b, rtol=1e-5)
    np.testing.assert_allclose(affine(x, w, b), x @ w + b, rtol=1e-5)


def test_submit_returns_futures(rng):
    f = gm.jit(lambda x, y: x @ y)
    pairs = [(rng.standard_normal((16, 16)).astype(np.float32),
              rng.standard_normal((16, 16)).astype(np.float32))
             for _ in range(20)]
    futures = [f.submit(a, b) for a, b in pairs]
    assert all(isinstance(fut, concurrent.futures.Future) for fut in futures)
    for fut, (a, b) in zip(futures, pairs):
        np.testing.assert_allclose(fut.result(timeout=120), a @ b,
                                   rtol=1e-4, atol=1e-4)
    with pytest.raises(TypeError, match=r"argument 'y'"):
        f.submit(pairs[0][0], "no").result(timeout=120)


def test_two_threads_call_compiled_code(rng):
    @gm.jit
    def work(x, w):
        return gm.tanh(x @ w) @ w

    inputs = [(rng.standard_normal((64, 128)).astype(np.float32),
               rng.standard_normal((128, 128)).astype(np.float32) * 0.1)
              for _ in range(2)]
    expected = [np.tanh(x @ w) @ w for x, w in inputs]
    errors = []

    def worker(index):
        try:
            x, w = inputs[index]
            for _ in range(200):
                np.testing.assert_allclose(work(x, w), expected[index],
                                           rtol=1e-4, atol=1e-4)
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert work.num_compiled == 1


def test_the_gil_is_released_while_compiled_code_runs(rng):
    f = gm.jit(lambda a, b: (a @ b) @ b)
    a = rng.standard_normal((2048, 2048)).astype(np.float32) * 0.02
    f(a, a)  # compile and run once

    def longest_pause():
        """This thread's longest stall while another thread runs the call,
        as a fraction of the call's time."""
        start = time.perf_counter()
        f(a, a)
        call = time.perf_counter() - start
        last, longest = time.perf_counter(), 0.0
        future = f.submit(a, a)
        while not future.done():
            now = time.perf_counter()
            longest, last = max(longest, now - last), now
        longest = max(longest, time.perf_counter() - last)
        future.result()
        return longest / call

    # Holding the GIL would stop this thread for the whole call, every time;
    # the best of three rides out a busy machine.
    pauses = [longest_pause() for _ in range(3)]
    assert min(pauses) < 0.5, pauses


def test_debug_nans_names_the_op_and_line(rng):
    @gm.jit
    def f(x):
        y = x * 2.0
        z = gm.log(y)  # NaN for negative x
        return z + 1.0

    x = np.array([1.0, -1.0], np.float32)
    assert np.isnan(f(x)[1])  # unchecked by default
    gm.set_debug_nans(True)
    try:
        line = f.__wrapped__.__code__.co_firstlineno + 3
        with pytest.raises(FloatingPointError,
                           match=rf"google\.log at .*test_calls.py:{line} "
                           r"produced NaN"):
            f(x)
        with pytest.raises(FloatingPointError,
                           match=r"argument 'x' contains NaN; first used by "
                           r"google\.mul"):
            f(np.array([np.nan], np.float32))
        np.testing.assert_allclose(f(np.ones(2, np.float32)),
                                   np.log(2.0) + 1, rtol=1e-6)
    finally:
        gm.set_debug_nans(False)


def test_debug_nans_environment_variable(tmp_path, cache_dir):
    script = tmp_path / "nan.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import google_mlir as gm

        @gm.jit
        def f(x):
            return gm.sqrt(x - 1.0)

        f(np.zeros(3, np.float32))
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True,
                          text=True,
                          env={**__import__("os").environ,
                               "GOOGLE_MLIR_DEBUG_NANS": "1"})
    assert done.returncode != 0
    assert "FloatingPointError: f(): google.sqrt at" in done.stderr
    assert "nan.py:7 produced NaN" in done.stderr


def test_disable_jit_runs_numpy(rng):
    @gm.jit
    def f(x, w):
        return gm.softmax(gm.relu(x @ w) * 0.5, axis=0), x.mean(axis=1)

    x = rng.standard_normal((5, 6)).astype(np.float32)
    w = rng.standard_normal((6, 3)).astype(np.float32)
    with gm.disable_jit():
        eager = f(x, w)
    assert f.num_compiled == 0
    compiled = f(x, w)
    for e, c in zip(eager, compiled):
        assert e.dtype == c.dtype and e.shape == c.shape
        np.testing.assert_allclose(e, c, rtol=1e-5, atol=1e-6)


def test_disable_jit_is_per_thread():
    f = gm.jit(lambda x: x + 1.0)
    x = np.zeros(3, np.float32)
    with gm.disable_jit():
        other = f.submit(x).result(timeout=120)
        assert f.num_compiled == 1  # the worker thread compiled it
        np.testing.assert_array_equal(f(x), other)
        assert f.num_compiled == 1


def test_lower_prints_every_stage(rng):
    @gm.jit
    def mlp(x, w, b):
        return gm.relu(x @ w + b)

    args = (np.ones((4, 8), np.float32), np.ones((8, 2), np.float32),
            np.ones(2, np.float32))
    google = mlp.lower(*args)
    assert "google.matmul %arg0, %arg1 : tensor<4x8xf32>, tensor<8x2xf32> " \
        "-> tensor<4x2xf32>" in google
    assert "google.relu" in google
    assert "google.matmul_bias_relu" in mlp.lower(*args, stage="optimized")
    assert "linalg." in mlp.lower(*args, stage="linalg")
    assert "llvm.func @mlp" in mlp.lower(*args, stage="llvm")
    assert "define " in mlp.lower(*args, stage="llvm-ir")
    # A bad argument value: ValueError, not a compile error.
    with pytest.raises(ValueError, match=r"unknown stage 'asm'; expected "
                       r"one of google, optimized, linalg, llvm, llvm-ir"):
        mlp.lower(*args, stage="asm")
    assert mlp.num_compiled == 0


def test_fast_path_checks_byte_order_and_subclasses():
    # After a native call, an array of the other byte order took the fast
    # path and was read as little-endian ([1. 1. 1.] for x + 1.0).
    f = gm.jit(lambda x: x + 1.0)
    x = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_array_equal(f(x), x + 1)
    np.testing.assert_array_equal(f(x.astype(">f4")), x + 1)
    g = gm.jit(lambda x: x * 2)
    i = np.array([1, 2, 3], np.int64)
    np.testing.assert_array_equal(g(i), i * 2)
    np.testing.assert_array_equal(g(i.astype(">i8")), i * 2)
    # Masked arrays would lose their mask: rejected, also after a plain call.
    with pytest.raises(TypeError, match=r"masked array"):
        f(np.ma.masked_array(x, mask=[0, 1, 0]))
    # Data not aligned to its elements is copied, not read misaligned.
    raw = np.zeros(13, np.uint8)
    unaligned = raw[1:].view(np.float32)
    unaligned[:] = [1, 2, 3]
    assert not unaligned.flags.aligned
    np.testing.assert_array_equal(f(unaligned), x + 1)


def test_keyword_and_static_arguments_take_the_fast_path():
    @gm.jit(static_argnames="scale")
    def scaled(x, scale):
        return x * scale

    x = np.ones(4, np.float32)
    np.testing.assert_array_equal(scaled(x, scale=2.0), x * 2)
    np.testing.assert_array_equal(scaled(x, 3.0), x * 3)
    assert scaled.num_compiled == 2
    # The same static value, positional or by keyword, with no new compile.
    np.testing.assert_array_equal(scaled(x, scale=3.0), x * 3)
    np.testing.assert_array_equal(scaled(x=x, scale=3.0), x * 3)
    np.testing.assert_array_equal(scaled(x, 2.0), x * 2)
    # 2 == 2.0, but an int is another static argument (another compile).
    np.testing.assert_array_equal(scaled(x, 2), x * 2)
    assert scaled.num_compiled == 3

    add = gm.jit(lambda x, y: x + y)
    np.testing.assert_array_equal(add(x, y=x), x * 2)
    np.testing.assert_array_equal(add(y=x, x=x * 3), x * 4)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'z'"):
        add(x, z=x)


def test_clear_caches_releases_pooled_buffers():
    f = gm.jit(lambda x: x * 2.0)
    x = np.ones((256, 1024), np.float32)
    for _ in range(3):
        f(x)
    assert _native.pool_stats()["bytes_cached"] > 0
    gm.clear_caches()
    assert _native.pool_stats()["bytes_cached"] == 0
    assert f.num_compiled == 0
    np.testing.assert_array_equal(f(x), x * 2)


def test_pool_limit_bounds_cached_buffers(tmp_path):
    script = textwrap.dedent("""
        import numpy as np, google_mlir as gm
        from google_mlir import _native
        f = gm.jit(lambda x: x * 2.0)
        results = [f(np.ones((1024, 1024), np.float32)) for _ in range(8)]
        del results
        print(_native.pool_stats()["bytes_cached"])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, env={**os.environ,
                                          "GOOGLE_MLIR_POOL_LIMIT": "9M"})
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) <= 9 << 20
    bad = subprocess.run([sys.executable, "-c", script], capture_output=True,
                         text=True, env={**os.environ,
                                         "GOOGLE_MLIR_POOL_LIMIT": "lots"})
    assert "GOOGLE_MLIR_POOL_LIMIT must be a byte count" in bad.stderr


def test_non_ascii_names_and_many_arguments():
    def f(α, β):
        return α * β + 1.0

    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(gm.jit(f)(x, x), x * x + 1)

    def 平方(x):
        return x * x

    np.testing.assert_array_equal(gm.jit(平方)(x), x * x)
    # More than 64 arguments and results (the extension stopped at 64).
    names = [f"a{i}" for i in range(70)]
    namespace = {}
    exec(f"def wide({', '.join(names)}):\n"
         f"    return ({', '.join(n + ' + 1.0' for n in names)},)",
         namespace)
    results = gm.jit(namespace["wide"])(*[x] * 70)
    assert len(results) == 70
    np.testing.assert_array_equal(results[69], x + 1)


def test_integer_to_float_power_is_float64():
    f = gm.jit(lambda x: x ** 2.0)
    i = np.array([70000], np.int32)
    result = f(i)
    assert result.dtype == np.float64
    np.testing.assert_array_equal(result, i.astype(np.float64) ** 2.0)
    one = gm.jit(lambda x: x ** 1.0)(i)
    assert one.dtype == np.float64
    assert gm.jit(lambda x: x ** 2)(np.array([3], np.int32)).dtype == np.int32


def test_signed_zeros():
    # -x on a bf16 +0 gave +0 (traced as 0 - x); x + 0 is +0 for x = -0.
    x = gm.to_bfloat16(np.array([0.0, -0.0, 1.0], np.float32))
    negated = gm.from_bfloat16(gm.jit(lambda x: -x)(x))
    assert list(np.signbit(negated)) == [True, False, True]
    minus_zero = np.array([-0.0], np.float32)
    assert not np.signbit(gm.jit(lambda x: x + 0.0)(minus_zero))[0]
    assert not np.signbit(gm.jit(lambda x: 0.0 + x)(minus_zero))[0]
    assert np.signbit(gm.jit(lambda x: x - 0.0)(minus_zero))[0]


def test_zero_extents_and_narrow_sums():
    # a @ b with K = 0 killed the interpreter (SIGSEGV in the CPU schedule).
    product = gm.jit(lambda a, b: a @ b)(np.ones((8, 0), np.float32),
                                         np.ones((0, 8), np.float32))
    np.testing.assert_array_equal(product, np.zeros((8, 8), np.float32))
    # f16 sums accumulate in f32: the mean of 5000 ones was 0.41.
    ones = np.ones(5000, np.float16)
    assert gm.jit(lambda x: x.mean())(ones) == 1
    assert gm.jit(lambda x: x.sum())(ones) == 5000
    probs = gm.jit(lambda x: gm.softmax(x))(np.zeros((1, 5000), np.float16))
    total = probs.astype(np.float32).sum()
    assert abs(total - 1) < 1e-3


def test_numpy_scalars_are_rank_0_arrays():
    f = gm.jit(lambda x, s: x * s)
    out = f(np.ones(2, np.float32), np.float32(3))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [3, 3])
