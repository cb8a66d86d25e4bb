# RUN: %python -m pytest -q -p no:cacheprovider %s
"""Every traced op against numpy, for every dtype that supports it."""

import math
import os
import sys

import numpy as np
import pytest

from google_mlir._op_table import OPS

import google_mlir as gm

FLOATS = [np.float32, np.float64, np.float16]
INTS = [np.int32, np.int64]


def tolerance(dtype):
    return {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}.get(
        np.dtype(dtype).type, 0)


def check(actual, expected):
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape
    tol = tolerance(expected.dtype)
    np.testing.assert_allclose(actual.astype(np.float64),
                               expected.astype(np.float64), rtol=tol,
                               atol=tol)


def data(rng, shape, dtype, positive=False):
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    values = rng.standard_normal(shape)
    if positive:
        values = np.abs(values) + 0.5
    return values.astype(dtype)


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "max": lambda a, b: gm.maximum(a, b),
    "min": lambda a, b: gm.minimum(a, b),
}
NUMPY_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
                "max": np.maximum, "min": np.minimum}


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_floor_divide_and_remainder(rng, dtype):
    """NumPy's floored division: the remainder takes the divisor's sign;
    integers divided by 0 give 0 and the minimum // -1 wraps."""
    a, b = data(rng, (3, 4, 5), dtype), data(rng, (4, 1), dtype)
    if np.dtype(dtype).kind == "i":
        b[0, 0] = 0
        b[1, 0] = -1
        a[0, 1] = np.iinfo(dtype).min
    else:
        b = np.where(np.abs(b) < 0.1, 0.5, b).astype(dtype)
    f = gm.jit(lambda x, y: (x // y, x % y, np.floor_divide(x, y),
                             np.remainder(x, y), np.mod(x, y), 7 // y,
                             divmod(x, y)[1], np.divmod(x, y)[0]))
    with np.errstate(all="ignore"):
        q, r = np.floor_divide(a, b), np.remainder(a, b)
        expected = (q, r, q, r, r, np.floor_divide(dtype(7), b), r, q)
    for ours, theirs in zip(f(a, b), expected):
        check(ours, theirs)


def test_floor_divide_signs():
    x = np.array([7, -7, 7, -7, -0.0, 5.5], np.float32)
    y = np.array([2, 2, -2, -2, 3, 0], np.float32)
    q, r = gm.jit(lambda a, b: (a // b, a % b))(x, y)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(q, np.floor_divide(x, y))
        np.testing.assert_array_equal(np.signbit(q),
                                      np.signbit(np.floor_divide(x, y)))
        np.testing.assert_array_equal(r, np.remainder(x, y))


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_comparisons_and_where(rng, dtype):
    a, b = data(rng, (3, 4, 5), dtype), data(rng, (4, 1), dtype)
    a[0, 0, :2] = b[0, 0]  # some equal elements
    f = gm.jit(lambda x, y: (x == y, x != y, x < y, x <= y, x > y, x >= y,
                             np.greater(x, y), 0 < x, np.where(x < y, x, y),
                             np.where(x > 0, x, 0), (x < y) & (x > 0),
                             (x < y) | (x > 0), (x < y) ^ (x > 0), ~(x < y),
                             np.logical_not(x < y), (x > y).sum(axis=0)))
    expected = (a == b, a != b, a < b, a <= b, a > b, a >= b, a > b, 0 < a,
                np.where(a < b, a, b), np.where(a > 0, a, dtype(0)),
                (a < b) & (a > 0), (a < b) | (a > 0), (a < b) ^ (a > 0),
                ~(a < b), ~(a < b), (a > b).sum(axis=0))
    for ours, theirs in zip(f(a, b), expected):
        check(ours, theirs)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_min_and_prod(rng, dtype):
    x = data(rng, (3, 4, 5), dtype)
    if np.dtype(dtype).kind == "f":
        x = (np.abs(x) + 0.5).astype(dtype)
    else:
        x = x // 10
    f = gm.jit(lambda a: (a.min(), a.min(axis=1), np.min(a, axis=(0, 2),
                                                        keepdims=True),
                          np.amin(a, axis=-1), a.prod(axis=2),
                          np.prod(a, axis=0, keepdims=True),
                          (a > 0).prod(axis=1)))
    expected = (x.min(), x.min(axis=1), np.min(x, axis=(0, 2), keepdims=True),
                np.amin(x, axis=-1), x.prod(axis=2),
                np.prod(x, axis=0, keepdims=True), (x > 0).prod(axis=1))
    for ours, theirs in zip(f(x), expected):
        check(ours, theirs)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_basic_indexing(rng, dtype):
    x = data(rng, (3, 5, 8), dtype)
    f = gm.jit(lambda a: (a[1], a[:, 1:4], a[..., 0], a[None], a[0, ::-1, ::3],
                          a[-1, -1, -1], a[:, None, 2], a[...], a[1:1],
                          a[::-1, 4:0:-2, 7:2:-2], a[:, -1] @ a[0].T[:, :3]
                          if np.dtype(dtype).kind == "f" else a[:, -1]))
    expected = (x[1], x[:, 1:4], x[..., 0], x[None], x[0, ::-1, ::3],
                x[-1, -1, -1], x[:, None, 2], x[...], x[1:1],
                x[::-1, 4:0:-2, 7:2:-2], x[:, -1] @ x[0].T[:, :3]
                if np.dtype(dtype).kind == "f" else x[:, -1])
    for ours, theirs in zip(f(x), expected):
        check(ours, theirs)


def test_nan_compares_unequal():
    x = np.array([1.0, np.nan, 3.0], np.float32)
    results = gm.jit(lambda v: (v == v, v != v, v < 2, v >= 2))(x)
    for ours, theirs in zip(results, (x == x, x != x, x < 2, x >= 2)):
        np.testing.assert_array_equal(ours, theirs)


def test_boolean_arguments_and_results(rng):
    p = rng.integers(0, 2, (4, 7)).astype(bool)
    q = rng.integers(0, 2, (7,)).astype(bool)
    x = data(rng, (4, 7), np.float32)
    f = gm.jit(lambda p, q, x: (p & q, np.where(p, x, -x), p.T,
                                p.reshape(28), p.astype(np.float32),
                                x.astype(bool), p == q, p < q))
    expected = (p & q, np.where(p, x, -x), p.T, p.reshape(28),
                p.astype(np.float32), x.astype(bool), p == q, p < q)
    for ours, theirs in zip(f(p, q, x), expected):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)


def test_causal_mask(rng):
    """A decoder's attention mask: iota-like constants, compare, select."""
    s = data(rng, (16, 16), np.float32)
    rows = np.arange(16)

    def masked(scores):
        keep = rows[None, :] <= rows[:, None]
        return gm.softmax(np.where(keep, scores, -np.inf), axis=-1)

    expected = np.where(rows[None, :] <= rows[:, None], s, -np.inf)
    expected = np.exp(expected - expected.max(axis=-1, keepdims=True))
    expected /= expected.sum(axis=-1, keepdims=True)
    check(gm.jit(masked)(s), expected.astype(np.float32))


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_clip_broadcast_to_and_filled_arrays(rng, dtype):
    x = data(rng, (4, 6), dtype)
    f = gm.jit(lambda a: (np.clip(a, -1, 1), a.clip(0, None), gm.clip(a, None, 2),
                          np.broadcast_to(a, (2, 4, 6)),
                          gm.broadcast_to(a, (3, 4, 6)),
                          gm.zeros_like(a) + a, gm.ones_like(a) * 2,
                          gm.full_like(a, 3), gm.zeros((6,), dtype) + a,
                          gm.full((4, 1), 2, dtype) * a,
                          a + gm.arange(6).astype(dtype)))
    expected = (np.clip(x, -1, 1), x.clip(0, None), np.clip(x, None, 2),
                np.broadcast_to(x, (2, 4, 6)), np.broadcast_to(x, (3, 4, 6)),
                np.zeros_like(x) + x, np.ones_like(x) * 2, np.full_like(x, 3),
                np.zeros((6,), dtype) + x, np.full((4, 1), 2, dtype) * x,
                x + np.arange(6).astype(dtype))
    for ours, theirs in zip(f(x), expected):
        check(ours, theirs)


def test_broadcast_to_keeps_negative_zero():
    x = np.array([-0.0, 1.0], np.float32)
    y = gm.jit(lambda a: np.broadcast_to(a, (3, 2)))(x)
    assert np.all(np.signbit(y[:, 0]))


def test_filled_arrays_outside_traces():
    assert gm.zeros((2, 3)).dtype == np.float64
    assert gm.full((2,), 7).dtype == np.full((2,), 7).dtype
    np.testing.assert_array_equal(gm.arange(2, 9, 3), np.arange(2, 9, 3))
    assert gm.arange(5, np.float32).dtype == np.float32
    assert gm.ones_like(np.ones(3, np.int32)).dtype == np.int32


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_arange_in_traces(rng, dtype):
    x = data(rng, (3, 6), dtype)
    f = gm.jit(lambda a: (a + gm.arange(6, dtype), a * gm.arange(6, dtype=dtype),
                          a - gm.arange(-4, 8, 2, dtype)))
    text = f.lower(x)
    # Integer sequences are google.iota, not constants the size of the
    # sequence.
    assert text.count("google.iota") == 3 and "dense<[" not in text
    expected = (x + np.arange(6).astype(dtype), x * np.arange(6).astype(dtype),
                x - np.arange(-4, 8, 2).astype(dtype))
    for ours, theirs in zip(f(x), expected):
        check(ours, theirs)
    # Fractional steps stay NumPy's exact constants.
    y = gm.jit(lambda a: a[0] + gm.arange(0.5, 3.5, 0.5, np.float32))(
        x.astype(np.float32))
    check(y, x[0].astype(np.float32) + np.arange(0.5, 3.5, 0.5, np.float32))


@pytest.mark.parametrize("dtype", FLOATS)
def test_power(rng, dtype):
    x = data(rng, (4, 9), dtype, positive=True)
    y = (data(rng, (9,), dtype) * 2).astype(dtype)
    f = gm.jit(lambda a, b: (a ** b, np.power(a, b), a ** 3, a ** -1,
                             a ** 0, a ** 2.5, 2 ** b, a ** 0.5))
    expected = (x ** y, np.power(x, y), x ** 3, x ** -1, x ** 0, x ** 2.5,
                2 ** y, x ** 0.5)
    for ours, theirs in zip(f(x, y), expected):
        check(ours, theirs)


@pytest.mark.parametrize("dtype", INTS)
def test_integer_powers(rng, dtype):
    x = data(rng, (10,), dtype)
    f = gm.jit(lambda a: (a ** 3, a ** 0, a ** 1, a ** 5, a ** 2.0))
    expected = (x ** 3, x ** 0, x ** 1, x ** 5, x ** 2.0)
    for ours, theirs in zip(f(x), expected):
        check(ours, theirs)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_broadcast(rng, op, dtype):
    f = gm.jit(BINARY[op])
    a, b = data(rng, (3, 4, 5), dtype), data(rng, (4, 1), dtype)
    check(f(a, b), NUMPY_BINARY[op](a, b))


@pytest.mark.parametrize("dtype", FLOATS)
def test_divide(rng, dtype):
    f = gm.jit(lambda a, b: a / b)
    a, b = data(rng, (6, 7), dtype), data(rng, (7,), dtype, positive=True)
    check(f(a, b), a / b)


def test_integer_division_is_float64(rng):
    f = gm.jit(lambda a, b: a / b)
    a = data(rng, (5,), np.int32)
    b = np.arange(1, 6, dtype=np.int32)
    check(f(a, b), a / b)


@pytest.mark.parametrize("pair", [(np.float32, np.float64),
                                  (np.int32, np.float32),
                                  (np.int32, np.int64),
                                  (np.float16, np.float32)])
def test_dtype_promotion(rng, pair):
    f = gm.jit(lambda a, b: a * b + a)
    a, b = data(rng, (4, 3), pair[0]), data(rng, (4, 3), pair[1])
    check(f(a, b), a * b + a)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_python_scalars_keep_the_dtype(rng, dtype):
    f = gm.jit(lambda x: 2 * x - 3 + x * 4)
    x = data(rng, (8,), dtype)
    check(f(x), 2 * x - 3 + x * 4)
    if np.dtype(dtype).kind == "f":
        g = gm.jit(lambda x: 1.0 / (x * 0.5 + 2.0) - 1.5)
        x = data(rng, (8,), dtype, positive=True)
        check(g(x), 1.0 / (x * 0.5 + 2.0) - 1.5)


def test_float_scalar_with_integer_array_is_float64(rng):
    x = data(rng, (5,), np.int32)
    check(gm.jit(lambda x: x * 0.5)(x), x * 0.5)


UNARY = {
    "relu": (gm.relu, lambda x: np.maximum(x, 0)),
    "exp": (gm.exp, np.exp),
    "log": (gm.log, np.log),
    "tanh": (gm.tanh, np.tanh),
    "sigmoid": (gm.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    "sqrt": (gm.sqrt, np.sqrt),
    "neg": (lambda x: -x, np.negative),
    "abs": (abs, np.abs),
    "erf": (gm.erf, np.vectorize(math.erf, otypes=[np.float64])),
    "sin": (gm.sin, np.sin),
    "cos": (gm.cos, np.cos),
    "rsqrt": (gm.rsqrt, lambda x: 1 / np.sqrt(x)),
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary(rng, op, dtype):
    ours, theirs = UNARY[op]
    x = data(rng, (4, 33), dtype, positive=op in ("log", "sqrt", "rsqrt"))
    check(gm.jit(ours)(x), theirs(x).astype(dtype))


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("op", ["relu", "neg", "abs", "exp"])
def test_unary_on_integers(rng, op, dtype):
    ours, theirs = UNARY[op]
    x = data(rng, (10,), dtype)
    if op == "exp":
        x = x // 10
    check(gm.jit(ours)(x), theirs(x))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("approximate", [False, True])
def test_gelu(rng, dtype, approximate):
    x = data(rng, (3, 40), dtype) * 3
    wide = x.astype(np.float64)
    if approximate:
        expected = 0.5 * wide * (1 + np.tanh(np.sqrt(2 / np.pi) * (
            wide + 0.044715 * wide ** 3)))
    else:
        expected = 0.5 * wide * (1 + UNARY["erf"][1](wide / np.sqrt(2)))
    expected = expected.astype(dtype)
    check(gm.jit(lambda v: gm.gelu(v, approximate))(x), expected)
    check(gm.gelu(x, approximate), expected)


def test_eager_functions_keep_the_dtype(rng):
    for dtype in FLOATS:
        x = data(rng, (6,), dtype)
        for name in ("erf", "exp", "sigmoid"):
            expected = UNARY[name][1](x.astype(np.float64)).astype(dtype)
            check(getattr(gm, name)(x), expected)
    assert gm.erf(np.array([1, 2])).dtype == np.float64


def test_every_op_is_covered():
    """A new op of the dialect's table is checked by the differential
    tester (whose numpy models are its own); elementwise ones are traced
    and eager too."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))
    import difftest
    for name, op in OPS.items():
        if name == "constant":
            continue
        assert name in difftest.COVERED, name
        if op["python_name"]:
            assert getattr(gm, op["python_name"]).__name__ == \
                op["python_name"]
            assert op["python_name"] in gm.__all__


def test_numpy_ufuncs_on_traced_arrays(rng):
    f = gm.jit(lambda x, y: np.exp(np.maximum(x, y)) + np.sqrt(np.abs(x)))
    x, y = data(rng, (3, 5), np.float32), data(rng, (5,), np.float32)
    check(f(x, y), np.exp(np.maximum(x, y)) + np.sqrt(np.abs(x)))


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_matmul(rng, dtype):
    a, b = data(rng, (5, 7), dtype), data(rng, (7, 3), dtype)
    if np.dtype(dtype).kind == "i":
        a, b = a // 10, b // 10
    check(gm.jit(lambda a, b: a @ b)(a, b), a @ b)


def test_matmul_shapes(rng):
    a3, b3 = data(rng, (2, 5, 7), np.float32), data(rng, (2, 7, 3), np.float32)
    check(gm.jit(lambda a, b: a @ b)(a3, b3), a3 @ b3)
    b2 = data(rng, (7, 3), np.float32)
    check(gm.jit(lambda a, b: a @ b)(a3, b2), a3 @ b2)
    v, m = data(rng, (7,), np.float32), data(rng, (5, 7), np.float32)
    check(gm.jit(lambda m, v: m @ v)(m, v), m @ v)
    check(gm.jit(lambda v, b: v @ b)(v, b2), v @ b2)
    check(gm.jit(lambda v, w: v @ w)(v, v), np.asarray(v @ v))
    check(gm.jit(gm.matmul)(m, b2), m @ b2)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_transpose_and_reshape(rng, dtype):
    x = data(rng, (2, 3, 4), dtype)
    check(gm.jit(lambda x: x.T)(x), x.T)
    check(gm.jit(lambda x: gm.transpose(x, (1, 0, 2)))(x),
          np.transpose(x, (1, 0, 2)))
    check(gm.jit(lambda x: x.transpose(2, 0, 1))(x), x.transpose(2, 0, 1))
    check(gm.jit(lambda x: x.reshape(6, -1))(x), x.reshape(6, -1))
    check(gm.jit(lambda x: x.reshape((24,)))(x), x.reshape(24))
    check(gm.jit(lambda x: np.reshape(x, (4, 6)))(x), x.reshape(4, 6))


@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("method", ["sum", "max", "mean"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False),
                                           (-1, True), ((0, 2), False),
                                           ((0, 1, 2), True)])
def test_reductions(rng, method, dtype, axis, keepdims):
    if method == "mean" and np.dtype(dtype).kind == "i":
        dtype = np.float64  # numpy's mean of integers is float64 too
    x = data(rng, (3, 4, 5), dtype)
    f = gm.jit(lambda x: getattr(x, method)(axis=axis, keepdims=keepdims))
    expected = getattr(x, method)(axis=axis, keepdims=keepdims)
    check(f(x), np.asarray(expected))


def test_numpy_reduction_functions(rng):
    x = data(rng, (3, 4), np.float32)
    f = gm.jit(lambda x: (np.sum(x, axis=0), np.max(x, axis=1),
                          np.mean(x, axis=0, keepdims=True)))
    s, m, a = f(x)
    check(s, x.sum(axis=0))
    check(m, x.max(axis=1))
    check(a, x.mean(axis=0, keepdims=True))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax(rng, dtype, axis):
    x = data(rng, (6, 9), dtype) * 3
    e = np.exp(x.astype(np.float64) - x.max(axis=axis, keepdims=True))
    expected = (e / e.sum(axis=axis, keepdims=True)).astype(dtype)
    check(gm.jit(lambda x: gm.softmax(x, axis=axis))(x), expected)


@pytest.mark.parametrize("src,dst", [(np.float32, np.float16),
                                     (np.float16, np.float64),
                                     (np.float64, np.float32),
                                     (np.int32, np.float32),
                                     (np.int64, np.int32),
                                     (np.float32, np.int32)])
def test_cast(rng, src, dst):
    x = data(rng, (17,), src) * (3 if np.dtype(src).kind == "f" else 1)
    check(gm.jit(lambda x: gm.cast(x, dst))(x), gm.cast(x, dst))
    check(gm.jit(lambda x: x.astype(dst))(x), gm.cast(x, dst))


def test_float_to_int_saturates(rng):
    x = np.array([1e10, -1e10, np.nan, 2.7, -2.7], dtype=np.float32)
    got = gm.jit(lambda x: gm.cast(x, np.int32))(x)
    np.testing.assert_array_equal(
        got, np.array([2**31 - 1, -2**31, 0, 2, -2], dtype=np.int32))


def test_several_results_and_constants(rng):
    w = data(rng, (4, 4), np.float32)

    @gm.jit
    def f(x):
        return x @ w, (x + 1.0).sum(axis=0), x

    x = data(rng, (2, 4), np.float32)
    a, b, c = f(x)
    check(a, x @ w)
    check(b, (x + 1).sum(axis=0))
    check(c, x)
    assert not np.shares_memory(c, x)


def test_single_result_tuple_stays_a_tuple(rng):
    x = data(rng, (3,), np.float32)
    result = gm.jit(lambda x: (x * 2,))(x)
    assert isinstance(result, tuple) and len(result) == 1
    check(result[0], x * 2)


def test_rank_zero(rng):
    x = data(rng, (), np.float32)
    # numpy 1.x promotes 0-d arrays with Python floats to float64; SPEC
    # (and numpy 2) keep the array's dtype.
    check(gm.jit(lambda x: x * 3.0 + 1.0)(x), (x * 3 + 1).astype(np.float32))
    y = data(rng, (4, 5), np.float32)
    check(gm.jit(lambda y: y.sum())(y), np.asarray(y.sum()))


def test_empty_arrays(rng):
    x = np.zeros((0, 3), np.float32)
    got = gm.jit(lambda x: x + 1.0)(x)
    assert got.shape == (0, 3) and got.dtype == np.float32


def test_bfloat16_conversions():
    values = np.array([1.0, -2.5, 3.14159, 1e-3, np.inf, -np.inf, 65504.0,
                       1.00390625, 1.01171875], np.float32)
    bits = gm.to_bfloat16(values)
    assert bits.dtype == gm.bfloat16
    # Round to nearest even: 1 + 2^-8 is a tie that rounds down to 1, and
    # 1 + 3 * 2^-8 one that rounds up to 1 + 2^-6.
    np.testing.assert_array_equal(
        gm.from_bfloat16(bits),
        np.array([1.0, -2.5, 3.140625, 0.00099945068359375, np.inf, -np.inf,
                  65536.0, 1.0, 1.015625], np.float32))
    assert np.isnan(gm.from_bfloat16(gm.to_bfloat16(np.float32(np.nan))))


def test_bfloat16_arguments_and_results(rng):
    a = gm.to_bfloat16(rng.standard_normal((8, 16)))
    b = gm.to_bfloat16(rng.standard_normal((16, 4)))
    bias = gm.to_bfloat16(rng.standard_normal(4))

    @gm.jit
    def dense(a, b, bias):
        return gm.relu(a @ b + bias) * 2.0, (a @ b).astype(np.float32)

    y, y32 = dense(a, b, bias)
    assert y.dtype == gm.bfloat16 and y32.dtype == np.float32
    fa, fb, fbias = (gm.from_bfloat16(v) for v in (a, b, bias))
    np.testing.assert_allclose(gm.from_bfloat16(y),
                               np.maximum(fa @ fb + fbias, 0) * 2,
                               rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(y32, fa @ fb, rtol=2e-2, atol=2e-2)
    assert "tensor<8x16xbf16>" in dense.lower(a, b, bias)


def test_bfloat16_promotes_with_float32(rng):
    x = gm.to_bfloat16(rng.standard_normal(5))
    y = rng.standard_normal(5).astype(np.float32)
    got = gm.jit(lambda x, y: x * y + gm.cast(y, gm.bfloat16))(x, y)
    assert got.dtype == np.float32
    fx = gm.from_bfloat16(x)
    expected = fx * y + gm.from_bfloat16(gm.to_bfloat16(y))
    np.testing.assert_allclose(got, expected, rtol=1e-6)
