# RUN: %python -m pytest -q -p no:cacheprovider %s
"""gm.cond, gm.while_loop, gm.fori_loop and gm.scan: traced once into
google.if / google.while (never unrolled), compiled at every opt-level,
against Python loops in numpy; gradients of cond; trace-time errors."""

import numpy as np
import pytest

import google_mlir as gm


@pytest.fixture(params=[0, 3], ids=["O0", "O3"])
def opt(request):
    return {"opt-level": request.param}


def test_cond_picks_a_branch(opt, rng):
    @gm.jit(options=opt)
    def f(p, x, y):
        return gm.cond(p, lambda a, b: (np.exp(a) @ b, a.sum()),
                       lambda a, b: (a @ b * 2, a.max()), x, y)

    x, y = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    out = f(np.array(True), x, y)
    np.testing.assert_allclose(out[0], np.exp(x) @ y, rtol=1e-12)
    np.testing.assert_allclose(out[1], x.sum(), rtol=1e-12)
    out = f(np.array(False), x, y)
    np.testing.assert_allclose(out[0], x @ y * 2, rtol=1e-12)
    assert "google.if" in f.lower(np.array(True), x, y)


def test_cond_on_a_computed_predicate_and_closures(rng):
    w = rng.standard_normal(3)

    @gm.jit
    def f(x):
        return gm.cond(x.sum() > 0, lambda: {"v": x * w}, lambda: {"v": -x})

    x = rng.standard_normal(3)
    expected = x * w if x.sum() > 0 else -x
    np.testing.assert_allclose(f(x)["v"], expected)
    np.testing.assert_allclose(f(-x)["v"], -x * w if -x.sum() > 0 else x)


def test_cond_with_a_python_bool_traces_one_branch():
    assert gm.cond(True, lambda: 1, lambda: 2) == 1


def test_while_loop(opt):
    @gm.jit(options=opt)
    def collatz_steps(n):
        def body(state):
            n, steps = state
            n = gm.cond(n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1)
            return n, steps + 1
        return gm.while_loop(lambda s: s[0] != 1, body, (n, np.int64(0)))[1]

    assert int(collatz_steps(np.array(27, np.int64))) == 111
    assert int(collatz_steps(np.array(1, np.int64))) == 0
    assert "google.while" in collatz_steps.lower(np.array(27, np.int64))


def test_fori_loop_matches_python(opt, rng):
    a = rng.standard_normal((4, 4)) / 4
    x = rng.standard_normal(4)

    @gm.jit(options=opt)
    def power(n, x):
        return gm.fori_loop(0, n, lambda i, v: np.tanh(a @ v) + i, x)

    expected = x
    for i in range(5):
        expected = np.tanh(a @ expected) + i
    np.testing.assert_allclose(power(np.array(5, np.int32), x), expected,
                               rtol=1e-12)
    np.testing.assert_allclose(power(np.array(0, np.int32), x), x)


def test_loops_are_not_unrolled():
    step = lambda i, v: v * 1.5 + 1.0
    short = gm.jit(lambda x: gm.fori_loop(0, 16, step, x)).lower(np.ones(2))
    long = gm.jit(lambda x: gm.fori_loop(0, 1024, step, x)).lower(np.ones(2))
    assert short.count("google.mul") == long.count("google.mul") == 1


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_rnn(reverse, opt, rng):
    wx, wh = rng.standard_normal((3, 5)), rng.standard_normal((5, 5)) / 3
    xs = rng.standard_normal((7, 2, 3)).astype(np.float32)

    def cell(h, x):
        h = np.tanh(x @ wx.astype(np.float32) + h @ wh.astype(np.float32))
        return h, {"h": h, "positive": h > 0}

    f = gm.jit(lambda h, xs: gm.scan(cell, h, xs, reverse=reverse),
               options=opt)
    h0 = np.zeros((2, 5), np.float32)
    carry, ys = f(h0, xs)
    h, hs = h0, []
    for x in (xs[::-1] if reverse else xs):
        h, y = cell(h, x)
        hs.append(y["h"])
    if reverse:
        hs = hs[::-1]
    np.testing.assert_allclose(carry, h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ys["h"], np.stack(hs), rtol=1e-5, atol=1e-6)
    assert ys["h"].dtype == np.float32
    assert ys["positive"].dtype == np.bool_
    np.testing.assert_array_equal(ys["positive"], np.stack(hs) > 0)


def test_scan_keeps_negative_zeros_and_runs_outside_jit():
    carry, ys = gm.scan(lambda c, x: (c + 1, -x * 0.0),
                        np.int64(0), np.array([1.0, -1.0, 2.0]))
    assert int(carry) == 3
    np.testing.assert_array_equal(np.signbit(ys), [True, False, True])


def test_cond_gradients(rng):
    w = rng.standard_normal(3)

    def f(x, w):
        return np.sum(gm.cond(x.sum() > 0, lambda v: np.exp(v) * w,
                              lambda v: v * 2, x))

    x = np.array([1.0, 2.0, -0.5])
    gx, gw = gm.grad(f, argnums=(0, 1))(x, w)
    np.testing.assert_allclose(gx, np.exp(x) * w)
    np.testing.assert_allclose(gw, np.exp(x))
    gx, gw = gm.grad(f, argnums=(0, 1))(-x, w)
    np.testing.assert_array_equal(gx, [2, 2, 2])
    np.testing.assert_array_equal(gw, [0, 0, 0])


def test_nested_cond_gradient():
    def g(x):
        return np.sum(gm.cond(x[0] > 0, lambda: gm.cond(
            x[1] > 0, lambda: x ** 3, lambda: x), lambda: x * 2))

    x = np.array([1.0, 2.0, -0.5])
    np.testing.assert_allclose(gm.grad(g)(x), 3 * x ** 2)


def test_errors():
    f = gm.jit(lambda x: gm.cond(x.sum() > 0, lambda: x, lambda: x.sum(), ))
    with pytest.raises(TypeError, match=r"true_fn and false_fn must return "
                       r"the same structure, shapes and dtypes; got "
                       r"\(float64\[3\]\) and \(float64\[\]\)"):
        f(np.ones(3))
    g = gm.jit(lambda x: gm.cond(x, lambda: x, lambda: x))
    with pytest.raises(TypeError, match=r"the predicate must be a boolean "
                       r"scalar, got float64\[3\]"):
        g(np.ones(3))
    h = gm.jit(lambda x: gm.while_loop(lambda v: v.sum() > 0, lambda v: v[0],
                                       x))
    with pytest.raises(TypeError, match=r"body_fun must return the loop "
                       r"state's structure, shapes and dtypes \(float64\[3\]"
                       r"\), got \(float64\[\]\)"):
        h(np.ones(3))
    k = gm.jit(lambda x: gm.while_loop(lambda v: v, lambda v: v, x))
    with pytest.raises(TypeError, match=r"cond_fun's result must be a "
                       r"boolean scalar, got float64\[3\]"):
        k(np.ones(3))
    with pytest.raises(TypeError, match=r"test_control_flow.py:[0-9]+: "
                       "gm.fori_loop: lower and upper must be integers"):
        gm.fori_loop(0.0, 3, lambda i, v: v, np.ones(2))


def numeric_gradient(fn, x, h=1e-6):
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[index] = h
        grad[index] = (fn(x + e) - fn(x - e)) / (2 * h)
    return grad


def test_fori_loop_gradients(rng):
    a = rng.standard_normal((3, 3)) / 3
    x = rng.standard_normal(3)

    def f(x, a):
        return np.sum(gm.fori_loop(
            0, 4, lambda i, v: np.tanh(a @ v) * (i + 1.0), x))

    def reference(x, a):
        v = x
        for i in range(4):
            v = np.tanh(a @ v) * (i + 1.0)
        return np.sum(v)

    gx, ga = gm.jit(gm.grad(f, argnums=(0, 1)))(x, a)
    np.testing.assert_allclose(gx, numeric_gradient(lambda v: reference(v, a),
                                                    x), rtol=1e-6)
    np.testing.assert_allclose(ga, numeric_gradient(lambda m: reference(x, m),
                                                    a), rtol=1e-6)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_gradients(reverse, rng):
    w = rng.standard_normal((3, 3)) / 2
    xs = rng.standard_normal((5, 3))

    def cell(h, x, w):
        return np.tanh(h @ w + x)

    def loss(w, xs):
        def step(carry, x):
            h, count = carry
            h = cell(h, x, w)
            return (h, count + 1), {"sum": np.sum(h), "big": h > 0.5}
        (h, _), ys = gm.scan(step, (np.zeros(3), np.int32(0)), xs,
                             reverse=reverse)
        return np.sum(ys["sum"]) + np.sum(h * h)

    def reference(w, xs):
        h, total = np.zeros(3), 0.0
        for x in (xs[::-1] if reverse else xs):
            h = cell(h, x, w)
            total += np.sum(h)
        return total + np.sum(h * h)

    gw, gxs = gm.grad(loss, argnums=(0, 1))(w, xs)
    np.testing.assert_allclose(gw, numeric_gradient(
        lambda m: reference(m, xs), w), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gxs, numeric_gradient(
        lambda m: reference(w, m), xs), rtol=1e-6, atol=1e-9)


def test_while_loop_gradient_is_a_clear_error():
    f = lambda x: np.sum(gm.while_loop(lambda v: v.sum() < 10,
                                       lambda v: v * 2, x))
    with pytest.raises(gm.CompileError, match="google.while is not "
                       "differentiable without a trip count"):
        gm.grad(f)(np.ones(2))


def test_gradient_of_a_loop_that_never_runs():
    # (A trip count of 0 once built a tape of extent 0, which
    # google.scatter_add rejects.)
    f = lambda x: np.sum(gm.fori_loop(3, 3, lambda i, v: v * v, x) * x)
    np.testing.assert_array_equal(gm.grad(f)(np.arange(3.0)), [0, 2, 4])


def test_scan_carry_must_keep_its_dtype():
    with pytest.raises(TypeError, match=r"gm.scan: f must return a carry "
                       r"with init's shapes and dtypes \(float32\[\]\), got "
                       r"\(float64\[\]\)"):
        gm.scan(lambda c, x: (c + x, c), np.float32(0), np.ones(3))


def test_vmap_of_control_flow(rng):
    xs = rng.standard_normal((4, 3))

    def branch(x):
        return gm.cond(x.sum() > 0, lambda: np.exp(x), lambda: x * 2)

    def shared_branch(p, x):
        return gm.cond(p, lambda: np.exp(x), lambda: x * 2)

    def counted(x):
        return gm.fori_loop(0, 3, lambda i, v: np.tanh(v) * 2 + x, x)

    def until(x):
        return gm.while_loop(lambda v: v.sum() < 10, lambda v: v * 2 + 0.5,
                             np.abs(x))

    def running_sum(x):
        return gm.scan(lambda c, e: (c + e, c * e), np.float64(0), x)[1]

    for fn in (branch, counted, until, running_sum):
        np.testing.assert_allclose(gm.vmap(fn)(xs),
                                   np.stack([fn(x) for x in xs]),
                                   rtol=1e-12, err_msg=fn.__name__)
    np.testing.assert_allclose(
        gm.vmap(shared_branch, in_axes=(None, 0))(np.array(False), xs),
        xs * 2)
    # Per-example gradients through a loop.
    w = rng.standard_normal(3)
    loss = lambda w, x: np.sum(gm.fori_loop(0, 2, lambda i, v: np.tanh(v * w),
                                            x))
    grads = gm.vmap(gm.grad(loss), in_axes=(None, 0))(w, xs)
    np.testing.assert_allclose(grads, np.stack([gm.grad(loss)(w, x)
                                                for x in xs]), rtol=1e-10)


def test_debug_nans_looks_inside_branches_and_loops():
    gm.set_debug_nans(True)
    try:
        f = gm.jit(lambda x: gm.fori_loop(0, 3, lambda i, v: np.log(v - 1.0),
                                          x))
        with pytest.raises(FloatingPointError, match=r"google.log at "
                           r".*test_control_flow.py:[0-9]+ produced NaN"):
            f(np.array([5.0, 3.0]))
        g = gm.jit(lambda p, x: gm.cond(p, lambda: np.sqrt(x), lambda: x))
        with pytest.raises(FloatingPointError, match="google.sqrt at"):
            g(np.array(True), np.array([-1.0]))
        np.testing.assert_array_equal(g(np.array(False), np.array([-1.0])),
                                      [-1.0])
    finally:
        gm.set_debug_nans(False)


def test_disable_jit_runs_control_flow_in_python_and_still_differentiates():
    seen = []

    def body(i, v):
        seen.append(int(i))  # a Python side effect: runs every step eagerly
        return v * 2

    with gm.disable_jit():
        np.testing.assert_array_equal(gm.fori_loop(0, 3, body, np.ones(2)),
                                      [8, 8])
        carry, ys = gm.scan(lambda c, x: (c + x, c * x), np.float64(0),
                            np.arange(4.0))
        np.testing.assert_array_equal(ys, [0, 0, 2, 9])
        assert gm.while_loop(lambda v: v < 10, lambda v: v * 3, 1) == 27
        assert gm.cond(np.array(False), lambda: 1, lambda: 2) == 2
        # Transformations still compile (numpy cannot differentiate).
        np.testing.assert_array_equal(
            gm.grad(lambda x: np.sum(x * x))(np.ones(2)), [2, 2])
        np.testing.assert_array_equal(gm.vmap(lambda x: x * 2)(np.ones(2)),
                                      [2, 2])
    assert seen == [0, 1, 2]


def test_gradient_code_does_not_grow_with_the_trip_count():
    # (The tape of -0.0 was once a constant of the loop's size in the
    # object: 16 MB for an RNN of 1024 steps.)
    def loss(w, xs):
        h, _ = gm.scan(lambda h, x: (np.tanh(h * w + x), None),
                       np.zeros(8, np.float32), xs)
        return np.sum(h)

    # Both tapes are made by fill loops (a few steps' one is a small
    # constant, and its loops are vectorized otherwise: not comparable).
    w = np.ones(8, np.float32)
    step = gm.jit(gm.grad(loss))
    short = step.lower(w, np.ones((1024, 8), np.float32), stage="llvm-ir")
    long = step.lower(w, np.ones((65536, 8), np.float32), stage="llvm-ir")
    assert len(long) < 1.2 * len(short)
