# RUN: %python -m pytest -q -p no:cacheprovider %s
"""concat, stack, split, pad, take, integer-array indexing, argmax and
argmin, traced against numpy."""

import numpy as np
import pytest

import google_mlir as gm

DTYPES = [np.float32, np.float64, np.float16, np.int32, np.int64, np.bool_]


def data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.kind == "i":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def same(actual, expected):
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_concatenate_stack_split(rng, dtype):
    a, b = data(rng, (2, 3), dtype), data(rng, (2, 5), dtype)

    @gm.jit
    def f(a, b):
        joined = np.concatenate([a, b, a], axis=1)
        left, middle, right = gm.split(joined, [3, 8], axis=-1)
        return (joined, np.stack([left, right]), np.stack([a, a], axis=-1),
                np.concatenate([a, b], axis=None), middle)

    joined = np.concatenate([a, b, a], axis=1)
    results = f(a, b)
    for actual, expected in zip(results, (
            joined, np.stack([a, a]), np.stack([a, a], axis=-1),
            np.concatenate([a, b], axis=None), b)):
        same(actual, expected)


def test_concatenate_promotes_and_takes_constants(rng):
    a = data(rng, (2, 3), np.float32)
    f = gm.jit(lambda a: np.concatenate([a, np.ones((1, 3), np.float64)]))
    same(f(a), np.concatenate([a, np.ones((1, 3))]))
    parts = gm.jit(lambda x: tuple(np.split(x, 3)))(np.arange(6.0))
    for actual, expected in zip(parts, np.split(np.arange(6.0), 3)):
        same(actual, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_pad(rng, dtype):
    x = data(rng, (3, 4), dtype)
    value = True if dtype == np.bool_ else 7

    @gm.jit
    def f(x):
        return (np.pad(x, ((1, 2), (0, 3))), np.pad(x, 1,
                                                    constant_values=value),
                np.pad(x, (2, 0)))

    for actual, expected in zip(f(x), (
            np.pad(x, ((1, 2), (0, 3))),
            np.pad(x, 1, constant_values=value), np.pad(x, (2, 0)))):
        same(actual, expected)


def test_pad_with_a_traced_value(rng):
    x = data(rng, (3,), np.float32)
    f = gm.jit(lambda x, v: np.pad(x, (1, 1), constant_values=v))
    same(f(x, np.array(2.5, np.float32)),
         np.pad(x, (1, 1), constant_values=2.5))


@pytest.mark.parametrize("dtype", DTYPES)
def test_take_and_array_indexing(rng, dtype):
    table = data(rng, (10, 4), dtype)
    ids = rng.integers(-10, 10, size=(3, 5))

    @gm.jit
    def f(table, ids):
        return (table[ids], np.take(table, ids, axis=0),
                table[:, ids[0] % 4], table[ids[1], 1:3], np.take(table, ids))

    expected = (table[ids], np.take(table, ids, axis=0), table[:, ids[0] % 4],
                table[ids[1], 1:3], np.take(table, ids))
    for actual, want in zip(f(table, ids), expected):
        same(actual, want)


def test_embedding_lookup_with_int32_ids(rng):
    table = data(rng, (50, 8), np.float32)
    ids = rng.integers(0, 50, size=(2, 7)).astype(np.int32)
    f = gm.jit(lambda table, ids: table[ids].sum(axis=1))
    np.testing.assert_allclose(f(table, ids), table[ids].sum(axis=1),
                               rtol=1e-5)


def test_constant_indices(rng):
    x = data(rng, (4, 6), np.float32)
    f = gm.jit(lambda x: (x[[3, 0, -1]], x[..., np.array([5, 5])],
                          x[1, [0, 2]]))
    for actual, want in zip(f(x), (x[[3, 0, -1]], x[..., np.array([5, 5])],
                                   x[1, [0, 2]])):
        same(actual, want)


def test_index_out_of_range_is_an_error_of_the_call(rng):
    table = data(rng, (5, 2), np.float32)
    f = gm.jit(lambda table, ids: table[ids])
    same(f(table, np.array([4, -5])), table[[4, -5]])
    with pytest.raises(gm.Error, match="google.gather: 1 indices are "
                       r"outside \[-5, 5\) for axis 0"):
        f(table, np.array([0, 5]))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis "
                       "0 with size 5"):
        gm.jit(lambda t: t[[1, 7]])(table)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmax_argmin(rng, dtype, op):
    x = data(rng, (4, 6, 5), dtype)
    if np.dtype(dtype).kind == "i":
        x = x // 20  # ties: the first index wins

    @gm.jit
    def f(x):
        method = getattr(x, op)
        return (method(axis=1), getattr(np, op)(x, axis=-1), method(),
                method(axis=0, keepdims=True))

    expected = (getattr(x, op)(axis=1), getattr(np, op)(x, axis=-1),
                np.asarray(getattr(x, op)()),
                getattr(x, op)(axis=0, keepdims=True))
    for actual, want in zip(f(x), expected):
        same(actual, want)


def test_argmax_of_nan_is_its_first_index():
    x = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 1.0, 2.0, 0.5]],
                 np.float32)
    f = gm.jit(lambda x: (x.argmax(axis=1), x.argmin(axis=1)))
    for actual, want in zip(f(x), (x.argmax(axis=1), x.argmin(axis=1))):
        same(actual, want)


def test_errors():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="dimension 1 of array 1 is 4, "
                       "expected 3"):
        gm.jit(lambda x: np.concatenate([x, np.zeros((2, 4))]))(x)
    with pytest.raises(ValueError, match="all input arrays must have the "
                       "same shape"):
        gm.jit(lambda x: np.stack([x, x.T]))(x)
    with pytest.raises(ValueError, match="array split does not result in "
                       "an equal division"):
        gm.jit(lambda x: tuple(gm.split(x, 2, axis=1)))(x)
    with pytest.raises(NotImplementedError, match="mode 'edge' is not "
                       "supported"):
        gm.jit(lambda x: np.pad(x, 1, mode="edge"))(x)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty "
                       "sequence"):
        gm.jit(lambda x: x[:, :0].argmax(axis=1))(x)
    with pytest.raises(TypeError, match="indices must be integers"):
        gm.jit(lambda x, i: x[i])(x, np.array([0.5]))
    with pytest.raises(TypeError, match="more than one array"):
        gm.jit(lambda x: x[[0], [1]])(x)
    with pytest.raises(TypeError, match="a bool is not supported"):
        gm.jit(lambda x: x[True])(x)


def test_eager_replay_under_debug_nans(rng):
    """GOOGLE_MLIR_DEBUG_NANS replays every op in numpy: the new ops too."""
    table = data(rng, (6, 3), np.float32)
    ids = np.array([1, -1, 0])

    def f(table, ids):
        rows = np.concatenate([table[ids], np.pad(table, ((0, 0), (1, 0)))
                               [:3, 1:]], axis=0)
        return rows.argmax(axis=0), np.log(rows)

    gm.set_debug_nans(True)
    try:
        with pytest.raises(FloatingPointError, match="google.log"):
            gm.jit(f)(table, ids)
    finally:
        gm.set_debug_nans(False)
