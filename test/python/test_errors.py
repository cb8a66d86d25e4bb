# RUN: %python -m pytest -q -p no:cacheprovider %s
"""Mistakes are reported clearly: at trace time against the user's line,
at call time naming the parameter, at run time naming the op."""

import re

import warnings

import numpy as np
import pytest

import google_mlir as gm

HERE = re.escape(__file__)


def f32(*shape):
    return np.ones(shape, np.float32)


def test_matmul_shape_mismatch_names_shapes_and_line():
    @gm.jit
    def f(x, w):
        return x @ w  # the line the error names

    with pytest.raises(ValueError) as info:
        f(f32(2, 3), f32(4, 5))
    message = str(info.value)
    line = f.__wrapped__.__code__.co_firstlineno + 2
    assert message.startswith(f"{__file__}:{line}: matmul")
    assert "(2, 3)" in message and "(4, 5)" in message


def test_numpy_functions_name_the_users_line():
    # Ops made through __array_function__ (np.sum, np.cumsum) were
    # reported at <__array_function__ internals>:200.
    @gm.jit
    def f(x):
        return np.cumsum(x)  # the line the error names

    with pytest.raises(TypeError) as info:
        f(f32(2, 3))
    line = f.__wrapped__.__code__.co_firstlineno + 2
    assert str(info.value).startswith(f"{__file__}:{line}: ")

    @gm.jit
    def g(x):
        return np.log(np.sum(x, axis=0))  # NaN from the log of a sum < 0

    gm.set_debug_nans(True)
    try:
        with pytest.raises(FloatingPointError) as info:
            g(np.full((2, 2), -1.0, np.float32))
    finally:
        gm.set_debug_nans(False)
    line = g.__wrapped__.__code__.co_firstlineno + 2
    assert f"google.log at {__file__}:{line}" in str(info.value)
    with pytest.raises(ValueError, match=r"max of an empty axis"):
        gm.jit(lambda x: x.max(axis=0))(f32(0, 3))


def test_options_with_a_target_are_rejected():
    with pytest.raises(ValueError, match=r"use target='cpu', 'cuda'"):
        gm.jit(lambda x: x, options="target=nvvm")


def test_nan_replay_does_not_warn():
    # The mean of an empty row is NaN; the replay that finds it leaked
    # numpy's "Mean of empty slice" warning.
    f = gm.jit(lambda x: x.mean(axis=1))
    gm.set_debug_nans(True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(FloatingPointError, match=r"reduce_mean"):
                f(np.ones((2, 0), np.float32))
    finally:
        gm.set_debug_nans(False)


@pytest.mark.parametrize("body,kind,pattern", [
    (lambda x: x + f32(4), ValueError, r"google\.add: shapes \(6,\) and "
     r"\(4,\) do not broadcast"),
    (lambda x: x.reshape(4, 5), ValueError, r"cannot reshape 6 elements"),
    (lambda x: x.sum(axis=3), ValueError, r"axis 3 is out of range"),
    (lambda x: gm.softmax(x, axis=1), ValueError, r"axis 1 is out of range"),
    (lambda x: x.transpose(0, 0), ValueError, r"not a permutation"),
    (lambda x: x[np.array([7])], IndexError,
     r"index 7 is out of bounds for axis 0 with size 6"),
    (lambda x: x[x > 0], TypeError,
     r"take: indices must be integers \(int32 or int64\), got bool"),
    (lambda x: x[6], IndexError, r"index 6 is out of bounds for axis 0 with size 6"),
    (lambda x: x[0, 0], IndexError, r"too many indices"),
    (lambda x: x if x.sum() > 0 else -x, TypeError,
     r"truth value of a traced array"),
    (lambda x: (x > 0) + (x > 1), TypeError,
     r"google\.add on booleans is not supported \(cast them with astype\)"),
    (lambda x: x.astype(np.int32) & 3, TypeError,
     r"google\.and on int32 is not supported: & \| \^ and ~ take booleans"),
    (lambda x: np.exp(x > 0), TypeError, r"google\.exp on booleans"),
    (lambda x: bool(x), TypeError, r"truth value of a traced array"),
    (lambda x: np.arctan(x), TypeError, r"numpy\.arctan is not supported"),
    (lambda x: np.asarray(x), TypeError, r"cannot become a numpy array"),
    (lambda x: x.astype(np.int32) ** x.astype(np.int32), TypeError,
     r"x \*\* y on integer arrays is not supported"),
    (lambda x: x.astype(np.int32) ** -2, ValueError,
     r"integers to negative integer powers"),
    (lambda x: x.astype(np.uint8), TypeError, r"unsupported dtype uint8"),
    (lambda x: gm.cast(x, "float8"), TypeError, r"unsupported dtype float8 \(bfloat16"),
    (lambda x: x.reshape("a"), TypeError, r"the new shape must be ints"),
    (lambda x: gm.softmax(x, axis=(0,)), TypeError, r"axis must be an int"),
    (lambda x: x + np.ones(6, np.complex64), TypeError,
     r"dtype complex64 are not supported \(bfloat16, float32"),
])
def test_trace_errors_name_the_line(body, kind, pattern):
    with pytest.raises(kind, match=f"^{HERE}:[0-9]+: .*{pattern}"):
        gm.jit(body)(f32(6))


def test_at_most_eight_dimensions():
    f = gm.jit(lambda x: x * 2.0)
    with pytest.raises(TypeError, match=r"argument 'x' has rank 9; compiled "
                       r"functions take at most 8 dimensions"):
        f(np.ones((1,) * 9, np.float32))
    g = gm.jit(lambda x: x.reshape((1,) * 10))
    with pytest.raises(TypeError, match=r"result 0 has rank 10"):
        g(np.ones(1, np.float32))


def test_result_must_be_arrays():
    with pytest.raises(TypeError, match=r"result 0 is int"):
        gm.jit(lambda x: 3)(f32(2))


def test_leaked_tracer_is_rejected():
    leaked = []

    @gm.jit
    def leak(x):
        leaked.append(x)
        return x * 2

    leak(f32(2))

    @gm.jit
    def use(y):
        return y + leaked[0]

    with pytest.raises(ValueError, match=r"another trace"):
        use(f32(2))


def test_argument_errors_name_the_parameter():
    @gm.jit
    def f(x, weights):
        return x @ weights

    with pytest.raises(TypeError, match=r"f\(\): missing a required argument"
                       r": 'weights'"):
        f(f32(2, 3))
    with pytest.raises(TypeError, match=r"too many positional"):
        f(f32(2, 3), f32(3, 2), f32(1))
    with pytest.raises(TypeError, match=r"argument 'weights' must be a numpy "
                       r"array, got list"):
        f(f32(2, 3), [[1.0], [2.0], [3.0]])
    with pytest.raises(TypeError, match=r"argument 'x' must be a numpy array,"
                       r" got float \(or mark it static"):
        f(1.0, f32(3, 2))
    with pytest.raises(TypeError, match=r"argument 'weights' has dtype uint8"):
        f(f32(2, 3), np.ones((3, 2), np.uint8))
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'w'"):
        f(f32(2, 3), f32(3, 2), w=f32(3, 2))


def test_decorator_errors():
    with pytest.raises(TypeError, match=r"takes \*xs"):
        gm.jit(lambda *xs: xs[0])
    with pytest.raises(ValueError, match=r"static_argnames names 'y'"):
        gm.jit(lambda x: x, static_argnames="y")
    with pytest.raises(ValueError, match=r"dynamic_dims names 'y'"):
        gm.jit(lambda x: x, dynamic_dims={"y": [0]})
    with pytest.raises(ValueError, match=r"target 'nvvm'"):
        gm.jit(lambda x: x, target="nvvm")


def test_bad_pipeline_options_are_a_compile_error():
    with pytest.raises(gm.CompileError, match=r"opt-level"):
        gm.jit(lambda x: x + 1.0, options="opt-level=7")(f32(2))
    assert issubclass(gm.CompileError, gm.Error)
    assert issubclass(gm.Error, RuntimeError)


def test_code_for_a_cpu_this_one_lacks_is_refused():
    # It died with SIGILL; the manifest now says what the code needs.
    from google_mlir import _native
    for chip, feature in [("sapphirerapids", "avx512fp16"),
                          ("znver4", "sse4a")]:
        if not _native.cpu_has_feature(feature):
            break
    else:
        pytest.skip("this CPU has every feature the candidate chips need")
    f = gm.jit(lambda x: x + x, options=f"chip={chip}")
    with pytest.raises(gm.Error, match=rf"<lambda>\(\) compiled with options "
                       rf"'target=cpu chip={chip}' needs .*{feature}.*, which "
                       r"this CPU lacks"):
        f(np.ones(64, np.float16))


def test_dynamic_extent_mismatch_fails_the_call():
    @gm.jit(dynamic_dims={"x": [0], "y": [0]})
    def add(x, y):
        return x + y

    np.testing.assert_array_equal(add(f32(3, 2), f32(3, 2)), 2 * f32(3, 2))
    line = add.__wrapped__.__code__.co_firstlineno + 2
    for slow in (True, False):
        if slow:
            add.clear_cache()  # the call goes through the slow path
        with pytest.raises(gm.Error, match=r"google\.add: dimension 0 of "
                           r"operand #1 is 4, expected 3 .*\(google\.add at "
                           f"{HERE}:{line}\\)$"):
            add(f32(3, 2), f32(4, 2))
    # The function still works afterwards.
    np.testing.assert_array_equal(add(f32(4, 2), f32(4, 2)), 2 * f32(4, 2))


def test_dynamic_dims_out_of_range():
    f = gm.jit(lambda x: x * 2.0, dynamic_dims={"x": [1]})
    with pytest.raises(ValueError, match=r"argument 'x' has shape \(3,\), but "
                       r"dynamic_dims names dimensions \[1\]"):
        f(f32(3))


def test_static_argument_must_be_hashable():
    f = gm.jit(lambda x, axes: x.sum(axis=axes), static_argnames="axes")
    with pytest.raises(TypeError, match=r"static argument 'axes' must be "
                       r"hashable, got list"):
        f(f32(2, 3), [0])
    np.testing.assert_array_equal(f(f32(2, 3), (0,)), np.full(3, 2.0))
