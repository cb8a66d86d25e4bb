# RUN: %python -m pytest -q -p no:cacheprovider %s
"""gm.vmap: each op's batching rule against a Python loop over examples
(the function run eagerly by numpy), in_axes / out_axes, and composition
with jit, grad and vmap itself."""

import numpy as np
import pytest

import google_mlir as gm


def loop(fn, args, in_axes, out_axis=0):
    """numpy's answer: fn on each example, stacked along out_axis."""
    axes = in_axes if isinstance(in_axes, (tuple, list)) else \
        (in_axes,) * len(args)
    size = next(np.shape(a)[ax] for a, ax in zip(args, axes)
                if ax is not None)
    results = []
    for b in range(size):
        example = [a if ax is None else np.take(a, b, axis=ax)
                   for a, ax in zip(args, axes)]
        results.append(fn(*example))
    return np.stack(results, axis=out_axis)


def check(fn, *args, in_axes=0, out_axes=0, rtol=1e-12):
    got = gm.vmap(fn, in_axes=in_axes, out_axes=out_axes)(*args)
    expected = loop(fn, args, in_axes, out_axes)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=1e-12)


@pytest.fixture
def x(rng):
    return rng.standard_normal((3, 4, 5))


def test_elementwise_and_broadcasting(x, rng):
    check(lambda a, b: gm.relu(a * b - 1), x, rng.standard_normal(5),
          in_axes=(0, None))
    check(lambda a, b: a + b, x, rng.standard_normal((3, 5)),
          in_axes=(0, 0))  # (4, 5) + (5,) per example
    check(lambda a, b: np.where(a > b, a, b * 2), x, x[:, :1, :],
          in_axes=(0, 0))
    check(lambda a: (a > 0).astype(np.int32) + 1, x)


def test_axes_in_and_out(x):
    check(lambda a: np.tanh(a), x, in_axes=2)
    check(lambda a: a.sum(axis=0), x, in_axes=1, out_axes=1)
    check(lambda a: a * 2, x, in_axes=-1, out_axes=-1)


@pytest.mark.parametrize("fn", [
    lambda a: a.T, lambda a: a.reshape(-1), lambda a: a.reshape(5, 2, 2),
    lambda a: a.sum(axis=1, keepdims=True), lambda a: a.max(axis=0),
    lambda a: a.min(), lambda a: a.prod(axis=-1), lambda a: a.mean(axis=1),
    lambda a: np.argmax(a, axis=1), lambda a: a.argmin(),
    lambda a: gm.softmax(a, axis=0), lambda a: a[1:3, ::-2],
    lambda a: a[-1], lambda a: a[None, :, 2],
    lambda a: np.concatenate([a, a * 2], axis=1),
    lambda a: np.stack([a, np.ones((4, 5))]),
    lambda a: np.pad(a, ((1, 0), (2, 1)), constant_values=3.0),
    lambda a: a @ np.arange(10.0).reshape(5, 2),
    lambda a: np.arange(20.0).reshape(2, 10)[:, :4] @ a,
    lambda a: a.T @ a,
    lambda a: a + gm.arange(5, dtype=np.float64),
], ids=lambda f: f.__code__.co_positions().__next__().__str__())
def test_rules(fn, x):
    check(fn, x)


def test_batched_matmuls(rng):
    a = rng.standard_normal((3, 2, 4, 5))
    b = rng.standard_normal((3, 2, 5, 6))
    check(lambda p, q: p @ q, a, b)
    check(lambda p, q: p @ q, a, b[0], in_axes=(0, None))
    check(lambda p, q: p @ q, a[0], b, in_axes=(None, 0))


def test_gathers(rng):
    table = rng.standard_normal((4, 6, 3))
    ids = rng.integers(-6, 6, (4, 2, 5))
    columns = rng.integers(-3, 3, (4, 2, 5))
    check(lambda t, i: np.take(t, i, axis=0), table, ids)  # both mapped
    check(lambda t, i: np.take(t, i, axis=1), table, columns)
    check(lambda t, i: t[i], table, ids[0], in_axes=(0, None))
    check(lambda t, i: np.take(t, i, axis=1), table[0], columns,
          in_axes=(None, 0))
    check(lambda t, i: t[i], table[0], ids, in_axes=(None, 0))


def test_convolutions_and_pools(rng):
    x = rng.standard_normal((2, 3, 7, 6, 4))
    w = rng.standard_normal((2, 3, 3, 2, 6))
    conv = lambda x, w: gm.conv2d(x, w, stride=(2, 1), padding="SAME",
                                  groups=2)
    check(conv, x, w[0], in_axes=(0, None), rtol=1e-10)
    check(conv, x, w, rtol=1e-10)  # a filter per example
    check(conv, x[0], w, in_axes=(None, 0), rtol=1e-10)
    check(lambda x: gm.max_pool2d(x, 2), x)
    check(lambda x: gm.avg_pool2d(x, 3, stride=2, padding="SAME"), x,
          rtol=1e-10)


def test_pytrees_and_unmapped_arguments(rng):
    params = {"w": rng.standard_normal((5, 2)), "b": rng.standard_normal(2)}
    xs = rng.standard_normal((6, 5))

    def predict(p, x):
        return {"y": x @ p["w"] + p["b"], "norm": np.sum(x * x)}

    out = gm.vmap(predict, in_axes=({"w": None, "b": None}, 0))(params, xs)
    np.testing.assert_allclose(out["y"], xs @ params["w"] + params["b"])
    np.testing.assert_allclose(out["norm"], np.sum(xs * xs, axis=1))
    out = gm.vmap(predict, in_axes=(None, 0),
                  out_axes={"y": 1, "norm": 0})(params, xs)
    assert out["y"].shape == (2, 6)
    # An output that does not depend on the mapped input is repeated.
    const = gm.vmap(lambda x, c: c * 2, in_axes=(0, None))(xs, np.ones(3))
    np.testing.assert_array_equal(const, np.full((6, 3), 2.0))


def test_composition_with_jit_and_itself(x):
    f = gm.jit(gm.vmap(gm.vmap(lambda a, b: a * b + 1), in_axes=(0, None)))
    b = np.arange(20.0).reshape(4, 5)
    np.testing.assert_allclose(f(x, b), x * b + 1)
    assert f.num_compiled == 1
    inner = gm.jit(lambda a: np.exp(a).sum(axis=-1))
    np.testing.assert_allclose(gm.vmap(inner)(x), np.exp(x).sum(axis=-1))


def test_per_example_gradients(rng):
    w = rng.standard_normal((4, 2))
    xs, ys = rng.standard_normal((5, 4)), rng.standard_normal((5, 2))

    def loss(w, x, y):
        return np.sum(np.tanh(x @ w - y) ** 2)

    grads = gm.jit(gm.vmap(gm.grad(loss), in_axes=(None, 0, 0)))(w, xs, ys)
    expected = np.stack([gm.grad(loss)(w, x, y) for x, y in zip(xs, ys)])
    np.testing.assert_allclose(grads, expected, rtol=1e-10)
    norms = np.sqrt((grads ** 2).sum(axis=(1, 2)))
    assert norms.shape == (5,)


def test_gradient_of_a_batched_function(rng):
    w = rng.standard_normal((4, 2))
    xs = rng.standard_normal((5, 4))

    def total(w):
        return np.sum(gm.vmap(lambda x: np.tanh(x @ w))(xs))

    g = gm.jit(gm.grad(total))(w)
    np.testing.assert_allclose(g, xs.T @ (1 - np.tanh(xs @ w) ** 2),
                               rtol=1e-10)


def test_errors(x):
    with pytest.raises(ValueError, match="mapped axes have different "
                       "sizes: 3, 4"):
        gm.vmap(lambda a, b: a)(x, x[0])
    with pytest.raises(ValueError, match="in_axes maps no argument"):
        gm.vmap(lambda a: a, in_axes=None)(x)
    with pytest.raises(ValueError, match="in_axes must be an int, None, or "
                       "a tuple of length 2"):
        gm.vmap(lambda a, b: a, in_axes=(0,))(x, x)
    with pytest.raises(ValueError, match="in_axes 3 is out of range"):
        gm.vmap(lambda a: a, in_axes=3)(x)
    with pytest.raises(ValueError, match="out_axes is None for an output "
                       "that depends on a mapped input"):
        gm.vmap(lambda a: a, out_axes=None)(x)
