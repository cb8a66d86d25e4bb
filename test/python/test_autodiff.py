# RUN: %python -m pytest -q -p no:cacheprovider %s
"""gm.grad / value_and_grad / vjp: gradients compiled from the adjoint rules
of --google-differentiate, checked against central finite differences in
float64 (the same numpy-spelled function evaluated eagerly by numpy)."""

import collections

import numpy as np
import pytest

import google_mlir as gm


def numeric_gradient(fn, args, argnum, h=1e-6):
    """Central differences of fn (evaluated by numpy) in argument argnum."""
    args = [np.array(a, dtype=np.float64) for a in args]
    x = args[argnum]
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        saved = x[index]
        x[index] = saved + h
        plus = float(fn(*args))
        x[index] = saved - h
        minus = float(fn(*args))
        x[index] = saved
        grad[index] = (plus - minus) / (2 * h)
    return grad


def check_gradients(fn, *args, argnums=None, rtol=1e-5, atol=1e-7):
    argnums = tuple(range(len(args))) if argnums is None else argnums
    grads = gm.grad(fn, argnums=argnums)(*args)
    for argnum, grad in zip(argnums, grads):
        assert grad.dtype == args[argnum].dtype
        assert grad.shape == args[argnum].shape
        expected = numeric_gradient(fn, args, argnum)
        np.testing.assert_allclose(grad, expected, rtol=rtol, atol=atol,
                                   err_msg=f"argument {argnum}")


def away_from_zero(rng, shape, low=0.2, high=2.0):
    """Values whose magnitudes keep finite differences off the kinks."""
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return sign * rng.uniform(low, high, shape)


UNARY = {
    "exp": (np.exp, None),
    "log": (np.log, "positive"),
    "tanh": (np.tanh, None),
    "sqrt": (np.sqrt, "positive"),
    "sin": (np.sin, None),
    "cos": (np.cos, None),
    "abs": (np.abs, None),
    "negative": (np.negative, None),
    "relu": (lambda x: np.maximum(x, 0.0), None),
    "sigmoid": (lambda x: 1.0 / (1.0 + np.exp(-x)), None),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, rng):
    fn, domain = UNARY[name]
    x = away_from_zero(rng, (2, 3))
    if domain == "positive":
        x = np.abs(x)
    check_gradients(lambda x: np.sum(fn(x) * np.arange(1.0, 7.0).reshape(2, 3)),
                    x)


@pytest.mark.parametrize("name", ["erf", "rsqrt", "gelu"])
def test_gm_functions(name, rng):
    import math
    x = away_from_zero(rng, (5,))
    if name == "rsqrt":
        x = np.abs(x)
    traced = {"erf": gm.erf, "rsqrt": gm.rsqrt, "gelu": gm.gelu}[name]
    eager = {"erf": np.vectorize(math.erf),
             "rsqrt": lambda v: 1.0 / np.sqrt(v),
             "gelu": lambda v: 0.5 * v * (1.0 + np.vectorize(math.erf)(
                 v / np.sqrt(2.0)))}[name]
    grad = gm.grad(lambda x: np.sum(traced(x) * np.arange(1.0, 6.0)))(x)
    expected = numeric_gradient(lambda x: np.sum(eager(x) *
                                                 np.arange(1.0, 6.0)), [x], 0)
    np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-7)


BINARY = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "divide": lambda x, y: x / y,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "power": lambda x, y: np.abs(x) ** y,
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)),
                                    ((4, 1), (1, 3)), ((2, 3), ())])
def test_binary_broadcasting(name, shapes, rng):
    op = BINARY[name]
    x = away_from_zero(rng, shapes[0])
    y = away_from_zero(rng, shapes[1]) + 0.05  # no ties for max/min
    weights = np.arange(1.0, 7.0).reshape(2, 3) if shapes[0] == (2, 3) \
        else 1.0
    check_gradients(lambda x, y: np.sum(op(x, y) * weights), x, y)


def test_maximum_tie_splits_evenly():
    x = np.array([1.0, 2.0, 3.0])
    gx, gy = gm.grad(lambda x, y: np.sum(np.maximum(x, y)),
                     argnums=(0, 1))(x, x.copy())
    np.testing.assert_array_equal(gx, [0.5, 0.5, 0.5])
    np.testing.assert_array_equal(gy, [0.5, 0.5, 0.5])


def test_relu_at_zero_is_zero():
    g = gm.grad(lambda x: np.sum(gm.relu(x)))(np.array([-1.0, 0.0, 2.0]))
    np.testing.assert_array_equal(g, [0.0, 0.0, 1.0])


def test_matmul_and_layout(rng):
    a = rng.standard_normal((3, 4))
    b = rng.standard_normal((4, 5))
    c = rng.standard_normal((2, 3, 4))
    d = rng.standard_normal((2, 4, 2))
    check_gradients(lambda a, b: np.sum(np.tanh(a @ b)), a, b)
    check_gradients(lambda c, d: np.sum((c @ d) ** 2), c, d)
    check_gradients(lambda a: np.sum(a.T.reshape(2, 6)[1] * np.arange(6.0)),
                    a)
    check_gradients(lambda c: np.sum(np.transpose(c, (2, 0, 1))[1:3, :, 1:]
                                     ** 3), c)


def test_concatenate_and_pad(rng):
    a = rng.standard_normal((2, 3))
    b = rng.standard_normal((2, 2))
    w = rng.standard_normal((2, 5))
    check_gradients(lambda a, b: np.sum(np.concatenate([a, b, a], axis=1)[:,
                                        :5] * w), a, b)
    check_gradients(lambda a: np.sum(np.pad(a, ((1, 0), (2, 1))) ** 2 *
                                     np.arange(18.0).reshape(3, 6)), a)


@pytest.mark.parametrize("index", [
    np.s_[::2], np.s_[1::3, :], np.s_[::-1], np.s_[::-2, 1::2],
    np.s_[5:1:-2, ::-3], np.s_[6:0:-4], np.s_[1:2, ::5]])
def test_strided_slices(index, rng):
    x = rng.standard_normal((7, 6))

    def fn(x):
        y = x[index]
        return np.sum(y ** 3 * np.arange(y.size).reshape(y.shape))
    check_gradients(fn, x)


def test_empty_slices_get_zero_gradients(rng):
    x = rng.standard_normal((3, 4))
    g = gm.grad(lambda x: np.sum(x[2:1] * 3.0) + np.sum(x[1:2] ** 2))(x)
    expected = np.zeros_like(x)
    expected[1] = 2 * x[1]
    np.testing.assert_allclose(g, expected, rtol=1e-12)


@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(keepdims, rng):
    x = rng.permutation(24).reshape(2, 3, 4) * 0.25 - 3.0  # no ties
    w = rng.standard_normal((2, 3, 4))
    for reduce in (np.sum, np.mean, np.max, np.min):
        def fn(x, reduce=reduce):
            r = reduce(x * w, axis=(0, 2), keepdims=keepdims)
            return np.sum(r * np.arange(1.0, 4.0).reshape(r.shape))
        check_gradients(fn, x)
    check_gradients(lambda x: np.max(x * w), x)


def test_products_with_and_without_zeros(rng):
    x = away_from_zero(rng, (3, 4))
    check_gradients(lambda x: np.sum(np.prod(x, axis=1) *
                                     np.arange(1.0, 4.0)), x)
    check_gradients(lambda x: np.prod(x[:, :2], axis=(0, 1),
                                      keepdims=True).sum(), x)
    # One zero in a row: only it gets the product of the others; two: none.
    z = np.array([[2.0, 0.0, 3.0], [0.0, 5.0, 0.0], [1.0, 2.0, 4.0]])
    g = gm.grad(lambda z: np.sum(np.prod(z, axis=1)))(z)
    np.testing.assert_array_equal(g, [[0, 6, 0], [0, 0, 0], [8, 4, 2]])


def test_max_gradient_goes_to_the_first_maximum():
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    g = gm.grad(lambda x: np.sum(np.max(x, axis=1)))(x)
    np.testing.assert_array_equal(g, [[0, 1, 0], [1, 0, 0]])


def test_softmax_and_where(rng):
    x = rng.standard_normal((3, 5))
    w = rng.standard_normal((3, 5))
    check_gradients(lambda x: np.sum(gm.softmax(x, axis=-1) * w)
                    if False else np.sum(_softmax(x) * w), x)
    check_gradients(lambda x: np.sum(np.where(x > 0.1, x * 2.0, x ** 2) * w),
                    x)


def _softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def test_log_softmax_cross_entropy(rng):
    # The stable form: the shift's cotangents cancel exactly (no argmax
    # one-hot), ties at the maximum included.
    x = rng.standard_normal((4, 6))
    x[1, 2] = x[1, 4] = np.max(x[1]) + 1.0
    onehot = np.eye(6)[[0, 2, 5, 3]]

    def loss(x):
        top = np.max(x, axis=-1, keepdims=True)
        log_z = top + np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
        return -np.mean(np.sum(onehot * (x - log_z), axis=-1))
    check_gradients(loss, x)
    np.testing.assert_allclose(gm.grad(loss)(x), (_softmax(x) - onehot) / 4,
                               rtol=1e-12, atol=1e-15)


def test_softmax_op(rng):
    x = rng.standard_normal((3, 5))
    w = rng.standard_normal((3, 5))
    grad = gm.grad(lambda x: np.sum(gm.softmax(x, axis=-1) * w))(x)
    expected = numeric_gradient(lambda x: np.sum(_softmax(x) * w), [x], 0)
    np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("stride,dilation,padding", [
    (1, 1, "SAME"), (2, 1, "VALID"), (1, 2, ((1, 0), (2, 1))),
    ((2, 1), (1, 2), "SAME"), (3, 1, ((0, 2), (1, 1)))])
def test_conv2d(stride, dilation, padding, rng):
    x = rng.standard_normal((2, 7, 6, 3))
    w = rng.standard_normal((3, 2, 3, 4))

    def fn(x, w):
        y = gm.conv2d(x, w, stride=stride, padding=padding, dilation=dilation)
        return np.sum(np.tanh(y) * np.arange(y.size).reshape(y.shape) / y.size)
    check_gradients(fn, x, w)


@pytest.mark.parametrize("pool", ["max", "avg"])
@pytest.mark.parametrize("window,stride,padding", [
    (2, None, "VALID"), (3, 2, "SAME"), ((2, 3), (1, 2), ((1, 0), (0, 2)))])
def test_pools(pool, window, stride, padding, rng):
    x = rng.permutation(2 * 7 * 6 * 3).reshape(2, 7, 6, 3) * 0.01  # no ties
    op = gm.max_pool2d if pool == "max" else gm.avg_pool2d

    def fn(x):
        y = op(x, window, stride=stride, padding=padding)
        return np.sum(y * np.arange(y.size).reshape(y.shape) / y.size)
    check_gradients(fn, x)


def test_max_pool_gradient_goes_to_the_first_maximum():
    x = np.array([[1.0, 2.0], [2.0, 0.0]]).reshape(1, 2, 2, 1)
    g = gm.grad(lambda x: np.sum(gm.max_pool2d(x, 2)))(x)
    np.testing.assert_array_equal(g.reshape(2, 2), [[0, 1], [0, 0]])


def test_max_pool_gradient_goes_to_the_first_nan_or_tie():
    # Window 1 holds NaNs (the maximum, as argmax has it: the first one
    # takes the cotangent); window 2 ties across its rows.
    nan = np.nan
    x = np.array([[0.0, nan, 3.0, 1.0],
                  [nan, 1.0, 3.0, 3.0]]).reshape(1, 2, 4, 1)
    g = gm.grad(lambda x: np.sum(gm.max_pool2d(x, 2)))(x)
    np.testing.assert_array_equal(g.reshape(2, 4), [[0, 1, 1, 0],
                                                    [0, 0, 0, 0]])
    # The same as reduce_max's rule over each window.
    g_max = gm.grad(lambda x: np.max(x[:, :, 0:2]) + np.max(x[:, :, 2:4]))(x)
    np.testing.assert_array_equal(g_max, g)


def test_dtypes_are_kept(rng):
    x32 = rng.standard_normal((3, 4)).astype(np.float32)
    g32 = gm.grad(lambda x: np.sum(np.tanh(x)))(x32)
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, 1 - np.tanh(x32) ** 2, rtol=1e-5)
    xh = x32.astype(np.float16)
    gh = gm.grad(lambda x: np.sum(x * x))(xh)
    assert gh.dtype == np.float16
    np.testing.assert_allclose(gh, 2 * xh, rtol=1e-3)


def test_value_and_grad_has_aux_and_pytrees(rng):
    Params = collections.namedtuple("Params", ["w", "b"])
    params = {"layer": Params(rng.standard_normal((3, 2)),
                              rng.standard_normal(2)),
              "scale": np.array(0.5)}
    x = rng.standard_normal((4, 3))

    def loss(params, x):
        layer = params["layer"]
        y = np.tanh(x @ layer.w + layer.b) * params["scale"]
        return np.sum(y ** 2), {"mean": np.mean(y)}

    (value, aux), grads = gm.value_and_grad(loss, has_aux=True)(params, x)
    y = np.tanh(x @ params["layer"].w + params["layer"].b) * 0.5
    np.testing.assert_allclose(value, np.sum(y ** 2), rtol=1e-12)
    np.testing.assert_allclose(aux["mean"], np.mean(y), rtol=1e-12)
    assert isinstance(grads["layer"], Params)
    expected_w = numeric_gradient(
        lambda w: loss({"layer": Params(w, params["layer"].b),
                        "scale": params["scale"]}, x)[0],
        [params["layer"].w], 0)
    np.testing.assert_allclose(grads["layer"].w, expected_w, rtol=1e-5)
    expected_scale = numeric_gradient(
        lambda s: loss({"layer": params["layer"], "scale": s}, x)[0],
        [params["scale"]], 0)
    np.testing.assert_allclose(grads["scale"], expected_scale, rtol=1e-5)


def test_jit_of_grad_compiles_once(rng):
    def loss(w, x):
        return np.mean((x @ w) ** 2)

    step = gm.jit(lambda w, x: w - 0.1 * gm.grad(loss)(w, x))
    w = rng.standard_normal((3, 2)).astype(np.float32)
    for _ in range(3):
        x = rng.standard_normal((5, 3)).astype(np.float32)
        expected = w - 0.1 * (2 * x.T @ (x @ w) / 10)
        w = step(w, x)
        np.testing.assert_allclose(w, expected, rtol=1e-5, atol=1e-6)
    assert step.num_compiled == 1


def test_training_a_linear_model_converges(rng):
    x = rng.standard_normal((64, 3)).astype(np.float32)
    true_w = np.array([[1.0], [-2.0], [0.5]], np.float32)
    y = x @ true_w

    @gm.jit
    def step(w, x, y):
        loss, g = gm.value_and_grad(lambda w: np.mean((x @ w - y) ** 2))(w)
        return w - 0.2 * g, loss

    w = np.zeros((3, 1), np.float32)
    for _ in range(100):
        w, loss = step(w, x, y)
    np.testing.assert_allclose(w, true_w, atol=1e-3)
    assert loss < 1e-6


def test_vjp(rng):
    x = rng.standard_normal((2, 3))
    out, vjp_fn = gm.vjp(lambda x: np.tanh(x) * 3.0, x)
    np.testing.assert_allclose(out, np.tanh(x) * 3.0, rtol=1e-12)
    ct = rng.standard_normal((2, 3))
    (gx,) = vjp_fn(ct)
    np.testing.assert_allclose(gx, ct * 3.0 * (1 - np.tanh(x) ** 2),
                               rtol=1e-12)


def test_gradient_of_a_non_scalar_is_a_type_error():
    with pytest.raises(TypeError, match=r"gm.grad\(<lambda>\): <lambda>\(\) "
                       r"must return a rank-0 float array"):
        gm.grad(lambda x: x * 2.0)(np.ones(3))


def test_gradient_with_respect_to_integers_is_a_type_error():
    with pytest.raises(TypeError, match="argument 0 has dtype int64; "
                       "gradients are taken with respect to float arrays"):
        gm.grad(lambda x: np.sum(x * 2))(np.ones(3, np.int64))


@pytest.mark.parametrize("groups,cin,cout,stride,padding", [
    (2, 4, 6, 1, "SAME"), (3, 3, 6, 2, "VALID"), (4, 4, 4, (1, 2), "SAME")])
def test_grouped_conv2d(groups, cin, cout, stride, padding, rng):
    x = rng.standard_normal((2, 6, 7, cin))
    w = rng.standard_normal((3, 2, cin // groups, cout))

    def fn(x, w):
        y = gm.conv2d(x, w, stride=stride, padding=padding, groups=groups)
        return np.sum(np.tanh(y) * np.arange(y.size).reshape(y.shape) / y.size)
    check_gradients(fn, x, w)


def test_debug_nans_stops_at_gradients_with_a_clear_error():
    gm.set_debug_nans(True)
    try:
        step = gm.jit(lambda w, x: gm.grad(
            lambda w: np.sum(np.sqrt(x @ w)))(w))
        with pytest.raises(FloatingPointError, match="the ops before the "
                           "gradient taken at .*test_autodiff.py:[0-9]+ "
                           "produced none"):
            step(np.ones((3, 1), np.float32), -np.ones((2, 3), np.float32))
    finally:
        gm.set_debug_nans(False)


@pytest.mark.parametrize("axis,index_shape", [(0, (3, 4)), (1, (5,)),
                                              (-1, ())])
def test_gather(axis, index_shape, rng):
    # Repeated and negative indices: picked rows' gradients add up.
    x = rng.standard_normal((4, 3, 5))
    extent = x.shape[axis]
    ids = rng.integers(-extent, extent, index_shape)

    def fn(x):
        y = np.take(x, ids, axis=axis)
        return np.sum(np.sin(y) * np.arange(y.size).reshape(y.shape))
    check_gradients(fn, x)


def test_embedding_gradient_counts_repeated_tokens(rng):
    table = rng.standard_normal((6, 3)).astype(np.float32)
    tokens = np.array([[1, 1, 4], [1, 0, -1]])
    g = gm.grad(lambda t: np.sum(t[tokens]))(table)
    assert g.dtype == np.float32
    np.testing.assert_array_equal(g[:, 0], [1, 3, 0, 0, 1, 1])


def test_embedding_gradient_in_f16_keeps_its_dtype(rng):
    table = rng.standard_normal((5, 4)).astype(np.float16)
    tokens = np.array([0, 2, 2, 4])
    g = gm.grad(lambda t: np.sum(t[tokens] * 2))(table)
    assert g.dtype == np.float16
    np.testing.assert_array_equal(g[:, 0], [2, 0, 4, 0, 2])

def test_higher_order_gradients():
    # The outer gradient differentiates a function that calls the inner
    # one's VJP: the pass inlines it (its body built first).
    f = lambda x: np.sum(np.sin(x) * x)
    x = np.array([0.5, 1.0, 2.0])
    d1 = gm.grad(f)
    d2 = gm.grad(lambda x: np.sum(d1(x)))
    np.testing.assert_allclose(d2(x), 2 * np.cos(x) - x * np.sin(x),
                               rtol=1e-12)
    d3 = gm.grad(lambda x: np.sum(gm.grad(lambda y: np.sum(d1(y)))(x)))
    np.testing.assert_allclose(d3(x), -3 * np.sin(x) - x * np.cos(x),
                               rtol=1e-12)


def test_nested_functions_get_distinct_names():
    # (The inner gradient's private function once took the outer one's
    # name, and its VJP then called itself.)
    inner = gm.grad(lambda x: np.sum(x ** 3))
    outer = gm.jit(gm.grad(lambda x: np.sum(inner(x))))
    text = outer.lower(np.ones(2))
    names = [line.split("@")[1].split("(")[0] for line in text.splitlines()
             if "func.func" in line]
    assert len(names) == len(set(names)), names
    np.testing.assert_allclose(outer(np.array([1.0, 2.0])), [6, 12])


def test_second_order_through_a_loop():
    def g(w):
        return np.sum(gm.fori_loop(0, 3, lambda i, v: np.tanh(v * w),
                                   np.ones(2)))

    def reference(w):
        v = np.ones(2)
        for _ in range(3):
            v = np.tanh(v * w)
        return np.sum(v)

    w = np.array([0.3, 0.7])
    hessian_sums = gm.grad(lambda w: np.sum(gm.grad(g)(w)))(w)
    first = lambda w: numeric_gradient(reference, [w], 0, h=1e-5)
    expected = numeric_gradient(lambda w: np.sum(first(w)), [w], 0, h=1e-4)
    np.testing.assert_allclose(hessian_sums, expected, rtol=1e-5)
