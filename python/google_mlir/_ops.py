"""The gm.* functions: google ops on traced arrays, numpy on others."""

import numpy as np

from . import _eager
from ._op_table import OPS
from ._trace import Graph, Tracer, binary, to_bfloat16
from ._trace import bfloat16 as _bfloat16
from ._trace import broadcast_to as _traced_broadcast_to
from ._trace import clip as _traced_clip
from ._trace import matmul as _traced_matmul
from ._trace import softmax as _traced_softmax
from ._trace import conv2d as _traced_conv2d
from ._trace import pool2d as _traced_pool2d
from ._trace import split as _traced_split
from ._trace import window_padding as _window_padding


def _elementwise(name, python_name):
    """gm.<python_name>: google.<name> on traced arrays, its numpy
    expression from the op table on others."""
    binary_op = len(OPS[name]["operands"]) == 2
    float_only = OPS[name]["float_only"]
    eager = _eager.ELEMENTWISE[name]

    def prepare(value):
        value = np.asarray(value)
        return _eager._as_float(value) if float_only else value

    if binary_op:
        def op(a, b):
            if isinstance(a, Tracer) or isinstance(b, Tracer):
                return binary(name, a, b)
            with np.errstate(all="ignore"):
                return eager(prepare(a), prepare(b))
    else:
        def op(x):
            if isinstance(x, Tracer):
                return x._unary(name)
            x = prepare(x)
            with np.errstate(all="ignore"):
                value = eager(x)
            # (np.vectorize computes in float64.)
            if getattr(value, "dtype", x.dtype) != x.dtype:
                value = np.asarray(value).astype(x.dtype)[()]
            return value
    op.__name__ = python_name
    op.__qualname__ = python_name
    op.__doc__ = (f"google.{name}, elementwise"
                  f"{' with numpy broadcasting' if binary_op else ''}.")
    return op


# gm.relu, gm.exp, gm.maximum, ...: every elementwise op the table names.
ELEMENTWISE_FUNCTIONS = {op["python_name"]: _elementwise(name,
                                                         op["python_name"])
                         for name, op in OPS.items()
                         if op["elementwise"] and op["python_name"]}
globals().update(ELEMENTWISE_FUNCTIONS)


def gelu(x, approximate=False):
    """The GELU activation: x * Phi(x) with the erf form (approximate=False)
    or the tanh form (approximate=True), as JAX and PyTorch define them."""
    if not isinstance(x, Tracer):
        x = _eager._as_float(np.asarray(x))
    erf, tanh = ELEMENTWISE_FUNCTIONS["erf"], ELEMENTWISE_FUNCTIONS["tanh"]
    if approximate:
        inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x))
        return 0.5 * x * (1.0 + tanh(inner))
    return 0.5 * x * (1.0 + erf(x * 0.7071067811865476))


def softmax(x, axis=-1):
    """exp(x - max) / sum(exp(x - max)) along `axis` (default: the last)."""
    if isinstance(x, Tracer):
        return _traced_softmax(x, axis)
    return _eager.softmax(_eager._as_float(np.asarray(x)), axis)


def matmul(a, b):
    """a @ b: (M,K)@(K,N), (B,M,K)@(B,K,N), (B,M,K)@(K,N), vectors."""
    if isinstance(a, Tracer) or isinstance(b, Tracer):
        return _traced_matmul(a, b)
    return np.matmul(a, b)


def transpose(x, axes=None):
    """Permutes the dimensions (reverses them by default)."""
    if isinstance(x, Tracer):
        return x.transpose(*(axes or ()))
    return np.transpose(x, axes)


def cast(x, dtype):
    """Converts to `dtype`: floats round to nearest even, floats to ints
    truncate toward zero and saturate (NaN gives 0)."""
    if isinstance(x, Tracer):
        return x.astype(dtype)
    return _eager.cast(x, dtype)


def clip(x, a_min, a_max):
    """numpy.clip: minimum(maximum(x, a_min), a_max)."""
    if isinstance(x, Tracer):
        return _traced_clip(x, a_min, a_max)
    return np.clip(x, a_min, a_max)


def broadcast_to(x, shape):
    """numpy.broadcast_to (a copy when traced)."""
    if isinstance(x, Tracer):
        return _traced_broadcast_to(x, shape)
    return np.broadcast_to(x, shape)


def split(x, indices_or_sections, axis=0):
    """numpy.split: a list of slices of x along `axis`, at the given
    indices or into that many equal sections."""
    if isinstance(x, Tracer):
        return _traced_split(x, indices_or_sections, axis)
    return np.split(x, indices_or_sections, axis)


def _eager_windows(x, sizes, strides, padding, dilation=(1, 1)):
    """Numpy operands for conv2d/pooling outside a trace."""
    pair = (lambda v: (v, v) if isinstance(v, (int, np.integer)) else
            tuple(v))
    sizes, strides, dilation = pair(sizes), pair(strides), pair(dilation)
    effective = tuple(d * (k - 1) + 1 for d, k in zip(dilation, sizes))
    pads = _window_padding(padding, x.shape[1:3], effective, strides,
                           "window")
    return strides, dilation, pads


def conv2d(x, w, stride=1, padding="VALID", dilation=1, groups=1):
    """2-D convolution: x is NHWC, w is HWIO (kh, kw, C/groups, Cout);
    padding "VALID", "SAME" (TensorFlow's rule) or ((top, bottom), (left,
    right)); stride and dilation an int or a pair."""
    if isinstance(x, Tracer) or isinstance(w, Tracer):
        return _traced_conv2d(x, w, stride, padding, dilation, groups)
    x, w = np.asarray(x), np.asarray(w)
    strides, dilation, pads = _eager_windows(x, w.shape[:2], stride, padding,
                                             dilation)
    return _eager.conv2d(x, w, strides, dilation, pads, groups)


def max_pool2d(x, window, stride=None, padding="VALID"):
    """Max pooling over NHWC; stride defaults to the window."""
    if isinstance(x, Tracer):
        return _traced_pool2d("max_pool2d", x, window, stride, padding)
    x = np.asarray(x)
    strides, _, pads = _eager_windows(
        x, window, window if stride is None else stride, padding)
    return _eager.pool2d(x, np.max, window, strides, pads)


def avg_pool2d(x, window, stride=None, padding="VALID"):
    """Average pooling over NHWC; padded positions do not count (each
    window divides by the input elements it covers)."""
    if isinstance(x, Tracer):
        return _traced_pool2d("avg_pool2d", x, window, stride, padding)
    x = _eager._as_float(np.asarray(x))
    strides, _, pads = _eager_windows(
        x, window, window if stride is None else stride, padding)
    return _eager.pool2d(x, np.mean, window, strides, pads)


def _filled(shape, value, dtype):
    dtype = np.dtype(np.float64 if dtype is None else dtype)
    if dtype == _bfloat16:
        return to_bfloat16(np.full(shape, value, np.float32))
    return np.full(shape, value, dtype)


def _like(x, value, dtype):
    dtype = x.dtype if dtype is None else np.dtype(dtype)
    if isinstance(x, Tracer):
        # The shape of a trace is static: a constant of it.
        return x.graph.constant(_filled(x.shape, value, dtype))
    return _filled(np.shape(x), value, dtype)


def zeros(shape, dtype=None):
    """numpy.zeros (float64 by default); a constant inside traced code."""
    return _filled(shape, 0, dtype)


def ones(shape, dtype=None):
    """numpy.ones (float64 by default); a constant inside traced code."""
    return _filled(shape, 1, dtype)


def full(shape, fill_value, dtype=None):
    """numpy.full; the dtype defaults to the fill value's, as numpy's."""
    if dtype is None:
        dtype = np.asarray(fill_value).dtype
    return _filled(shape, fill_value, dtype)


def zeros_like(x, dtype=None):
    return _like(x, 0, dtype)


def ones_like(x, dtype=None):
    return _like(x, 1, dtype)


def full_like(x, fill_value, dtype=None):
    return _like(x, fill_value, dtype)


def iota(shape, dimension=0, dtype=np.int64):
    """The index along `dimension` at every position of `shape` (JAX's
    broadcasted_iota): google.iota inside traced code, numpy outside."""
    graph = Graph.current()
    if graph is not None:
        return graph.iota(shape, dimension, dtype)
    shape = tuple(int(d) for d in shape)
    dimension = int(dimension) % len(shape)
    counts = np.broadcast_to(np.arange(shape[dimension]).reshape(
        [-1 if d == dimension else 1 for d in range(len(shape))]), shape)
    if np.dtype(dtype) == _bfloat16:
        return to_bfloat16(counts.astype(np.float32))
    return counts.astype(dtype)


def _is_dtype(value):
    return isinstance(value, (type, np.dtype, str)) and \
        not isinstance(value, (bool, np.bool_))


# Integers up to these magnitudes are exact in each float type.
_EXACT_INTEGERS = {np.dtype(np.float16): 2 ** 11, np.dtype(_bfloat16): 2 ** 8,
                   np.dtype(np.float32): 2 ** 24, np.dtype(np.float64): 2 ** 53}


def _exact_iota(start, step, values, dtype):
    """Whether iota * step + start gives `values` exactly, however it is
    rounded or fused: integers, exact in `dtype`."""
    dtype = np.dtype(dtype)
    if dtype in (np.dtype(np.int32), np.dtype(np.int64)):
        return True
    limit = _EXACT_INTEGERS.get(dtype)
    return limit is not None and float(start).is_integer() and \
        float(step).is_integer() and \
        max(abs(float(start)), abs(float(values[-1])),
            abs(float(values[-1]) - float(start))) <= limit


def arange(start, stop=None, step=1, dtype=None):
    """numpy.arange: the values from `start` (0) up to `stop` by `step`;
    `gm.arange(n, dtype)` too. Inside traced code (static length) a
    google.iota, scaled and shifted when `start` or `step` is given."""
    if stop is not None and dtype is None and _is_dtype(stop):
        stop, dtype = None, stop
    if stop is None:
        start, stop = 0, start
    bf16 = dtype is not None and np.dtype(dtype) == _bfloat16
    values = np.arange(start, stop, step, dtype=np.float32 if bf16 else dtype)
    graph = Graph.current()
    if graph is None or values.size == 0 or not _exact_iota(
            start, step, values, _bfloat16 if bf16 else values.dtype):
        return to_bfloat16(values) if bf16 else values
    indices = graph.iota(values.shape, 0, _bfloat16 if bf16 else values.dtype)
    scalar = float if bf16 else values.dtype.type
    if step != 1:
        indices = indices * scalar(step)
    if start != 0:
        indices = indices + scalar(start)
    return indices
