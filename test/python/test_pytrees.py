# RUN: %python -m pytest -q -p no:cacheprovider %s
"""Pytrees (tuples, lists, dicts, namedtuples, None) as arguments and
results of gm.jit, and @gm.jit on methods (`self` static by identity)."""

import collections

import numpy as np
import pytest

import google_mlir as gm

Params = collections.namedtuple("Params", "w b")


def test_dict_and_nested_arguments_and_results(rng):
    @gm.jit
    def f(params, x):
        h = x @ params["layers"][0]["w"] + params["layers"][0]["b"]
        return {"out": gm.relu(h), "aux": [h.sum(), (x,)], "none": None}

    params = {"layers": [{"w": rng.standard_normal((3, 4)),
                          "b": rng.standard_normal(4)}]}
    x = rng.standard_normal((2, 3))
    result = f(params, x)
    h = x @ params["layers"][0]["w"] + params["layers"][0]["b"]
    assert sorted(result) == ["aux", "none", "out"]
    np.testing.assert_allclose(result["out"], np.maximum(h, 0), rtol=1e-12)
    assert isinstance(result["aux"], list)
    np.testing.assert_allclose(result["aux"][0], h.sum(), rtol=1e-12)
    assert isinstance(result["aux"][1], tuple)
    np.testing.assert_array_equal(result["aux"][1][0], x)
    assert result["none"] is None
    # Same structure and shapes: no new compile.
    f(params, x)
    assert f.num_compiled == 1


def test_namedtuples_keep_their_type(rng):
    @gm.jit
    def step(p, x):
        return Params(p.w * 2, p.b + x.sum())

    p = Params(rng.standard_normal((2, 2)).astype(np.float32),
               np.zeros(2, np.float32))
    out = step(p, np.ones(3, np.float32))
    assert isinstance(out, Params)
    assert out.w.dtype == np.float32
    np.testing.assert_allclose(out.w, p.w * 2)
    np.testing.assert_allclose(out.b, [3, 3])


def test_a_new_structure_compiles_again(rng):
    f = gm.jit(lambda t: sum(t.values() if isinstance(t, dict) else t))
    a = rng.standard_normal(3)
    np.testing.assert_allclose(f((a, a)), 2 * a)
    np.testing.assert_allclose(f([a, a, a]), 3 * a)
    np.testing.assert_allclose(f({"p": a, "q": a}), 2 * a)
    assert f.num_compiled == 3


def test_flat_tuples_and_lists_of_results():
    f = gm.jit(lambda x: [x, x + 1])
    g = gm.jit(lambda x: (x, x + 1))
    x = np.zeros(2)
    assert isinstance(f(x), list)
    assert isinstance(g(x), tuple)
    np.testing.assert_array_equal(f(x)[1], [1, 1])


def test_leaves_must_be_arrays():
    f = gm.jit(lambda d: d["a"])
    with pytest.raises(TypeError, match=r"argument 'd' must be a numpy "
                       r"array, got dict \(a pytree whose leaf "
                       r"'d\['a'\]' is float"):
        f({"a": 1.0})
    with pytest.raises(TypeError, match=r"argument 'd\['a'\]' has dtype "
                       "complex128"):
        f({"a": np.ones(2, np.complex128)})


def test_jit_inside_jit_with_pytrees(rng):
    inner = gm.jit(lambda p: p["w"] * 2)
    outer = gm.jit(lambda p: inner(p) + 1)
    np.testing.assert_allclose(outer({"w": np.ones(2)}), [3, 3])


def test_grad_of_a_pytree_under_jit(rng):
    def loss(p, x):
        return np.sum((x @ p["w"] + p["b"]) ** 2)

    p = {"w": rng.standard_normal((3, 2)), "b": rng.standard_normal(2)}
    x = rng.standard_normal((4, 3))
    g = gm.jit(gm.grad(loss))(p, x)
    r = x @ p["w"] + p["b"]
    np.testing.assert_allclose(g["w"], x.T @ (2 * r), rtol=1e-10)
    np.testing.assert_allclose(g["b"], (2 * r).sum(0), rtol=1e-10)


class Dense:
    def __init__(self, w):
        self.w = w

    @gm.jit
    def __call__(self, x):
        return x @ self.w

    @gm.jit(static_argnames="scale")
    def scaled(self, x, scale=1.0):
        return (x @ self.w) * scale


def test_methods_treat_self_as_static_by_identity(rng):
    a, b = Dense(rng.standard_normal((3, 2))), Dense(rng.standard_normal((3, 2)))
    x = rng.standard_normal((1, 3))
    np.testing.assert_allclose(a(x), x @ a.w)
    np.testing.assert_allclose(b(x), x @ b.w)
    np.testing.assert_allclose(a(x), x @ a.w)  # a's code, not b's
    assert Dense.__call__.num_compiled == 2
    np.testing.assert_allclose(a.scaled(x, scale=3.0), 3 * (x @ a.w))
    np.testing.assert_allclose(a.scaled(x), x @ a.w)
    assert "google.matmul" in a.scaled.lower(x)


def test_methods_of_unhashable_instances():
    class Model(dict):  # dicts are not hashable
        @gm.jit
        def apply(self, x):
            return x * self["scale"]

    m = Model(scale=np.float64(2.0))
    np.testing.assert_allclose(m.apply(np.ones(2)), [2, 2])


def test_donated_arguments_hold_results(rng):
    @gm.jit(donate_argnums=0)
    def step(params, grads):
        new = {k: params[k] - 0.5 * grads[k] for k in params}
        return new, sum(np.sum(g) for g in grads.values())

    params = {"w": np.ones((2, 3)), "b": np.zeros(3)}
    w, b = params["w"], params["b"]
    grads = {"w": np.full((2, 3), 2.0), "b": np.ones(3)}
    new, total = step(params, grads)
    assert new["w"] is w and new["b"] is b  # the donated buffers
    np.testing.assert_array_equal(w, np.zeros((2, 3)))
    np.testing.assert_array_equal(b, np.full(3, -0.5))
    assert float(total) == 15.0
    new, _ = step(new, grads)  # results of a donating call can be donated
    np.testing.assert_array_equal(new["b"], np.full(3, -1.0))


def test_a_donated_array_without_a_result_cannot_be_used_again():
    f = gm.jit(lambda a, b: (a * b).sum(), donate_argnums=(0,))
    a = np.ones(3)
    assert float(f(a, np.ones(3))) == 3.0
    with pytest.raises(ValueError, match=r"argument 'a' was donated to an "
                       r"earlier call \(donate_argnums\) and must not be "
                       "used again"):
        f(a, np.ones(3))
    with pytest.raises(ValueError, match="donate_argnums 2 is not an array "
                       "parameter"):
        gm.jit(lambda a, b: a, donate_argnums=2)
