"""The gm.* functions: google ops on traced arrays, numpy on others."""

import numpy as np

from . import _eager
from ._trace import Tracer, binary
from ._trace import matmul as _traced_matmul
from ._trace import softmax as _traced_softmax


def _unary(name, eager):
    def op(x):
        if isinstance(x, Tracer):
            return x._unary(name)
        x = np.asarray(x)
        if name in ("exp", "log", "tanh", "sigmoid", "sqrt"):
            x = _eager._as_float(x)
        with np.errstate(all="ignore"):
            return eager(x)
    op.__name__ = name
    op.__qualname__ = name
    op.__doc__ = f"google.{name}, elementwise."
    return op


relu = _unary("relu", _eager.relu)
exp = _unary("exp", np.exp)
log = _unary("log", np.log)
tanh = _unary("tanh", np.tanh)
sigmoid = _unary("sigmoid", _eager.sigmoid)
sqrt = _unary("sqrt", np.sqrt)
abs = _unary("abs", np.abs)  # noqa: A001 (numpy's name)


def softmax(x, axis=-1):
    """exp(x - max) / sum(exp(x - max)) along `axis` (default: the last)."""
    if isinstance(x, Tracer):
        return _traced_softmax(x, axis)
    return _eager.softmax(_eager._as_float(np.asarray(x)), axis)


def maximum(a, b):
    """Elementwise maximum, with numpy broadcasting."""
    if isinstance(a, Tracer) or isinstance(b, Tracer):
        return binary("max", a, b)
    return np.maximum(a, b)


def minimum(a, b):
    """Elementwise minimum, with numpy broadcasting."""
    if isinstance(a, Tracer) or isinstance(b, Tracer):
        return binary("min", a, b)
    return np.minimum(a, b)


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
