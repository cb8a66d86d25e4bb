"""The google ops on numpy arrays: gm.* outside a trace, under
gm.disable_jit(), and when GOOGLE_MLIR_DEBUG_NANS replays a trace op by op.
"""

import math  # noqa: F401 (numpy expressions of the op table use it)

import numpy as np

from ._op_table import OPS
from ._trace import bfloat16, from_bfloat16, to_bfloat16


def _scalar(x, value):
    return np.asarray(value, dtype=x.dtype)


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def _as_float(x):
    return x if x.dtype.kind == "f" else x.astype(np.float64)


def _numpy_function(name, expression):
    parameters = "x, y" if len(OPS[name]["operands"]) == 2 else "x"
    return eval(f"lambda {parameters}: {expression}",
                {"np": np, "math": math})


# Every elementwise op on numpy arrays, from its expression in the op table.
ELEMENTWISE = {name: _numpy_function(name, op["numpy_eager"])
               for name, op in OPS.items() if op["numpy_eager"]}

_REDUCE = {
    "reduce_sum": np.sum,
    "reduce_max": np.max,
    "reduce_min": np.min,
    "reduce_prod": np.prod,
    "reduce_mean": np.mean,
}


def has_nan(value):
    if value.dtype == bfloat16:
        value = from_bfloat16(value)
    return value.dtype.kind == "f" and bool(np.isnan(value).any())


def cast(x, dtype):
    """Converts to `dtype` as google.cast does: floats round to nearest
    even, floats to ints truncate toward zero and saturate (NaN gives 0)."""
    x = np.asarray(x)
    dtype = np.dtype(dtype)
    if dtype == bfloat16:
        return to_bfloat16(cast(x, np.float32))
    if x.dtype == bfloat16:
        return cast(from_bfloat16(x), dtype)
    if x.dtype.kind == "f" and dtype.kind == "i":
        info = np.iinfo(dtype)
        with np.errstate(invalid="ignore"):
            clipped = np.clip(np.nan_to_num(x, nan=0.0), info.min, info.max)
            # Bounds that float rounds past the range saturate exactly.
            result = np.trunc(clipped).astype(dtype)
        result[x >= float(info.max)] = info.max
        result[x <= float(info.min)] = info.min
        return result
    return x.astype(dtype)


def evaluate(node, operands):
    """The value of one recorded op, given its operands' values (bf16 is
    computed in f32 and rounded)."""
    if node.op == "cast":
        return cast(operands[0], node.dtype)
    if node.dtype == bfloat16 or any(o.dtype == bfloat16 for o in operands):
        operands = [from_bfloat16(o) if o.dtype == bfloat16 else o
                    for o in operands]
        value = _evaluate(node, operands, np.float32)
        return to_bfloat16(value) if node.dtype == bfloat16 else value
    return _evaluate(node, operands, node.dtype)


def _evaluate(node, operands, dtype):
    op, attrs = node.op, node.attrs
    with np.errstate(all="ignore"):
        if op == "constant":
            return attrs["value"]
        if op in ELEMENTWISE:
            return np.asarray(ELEMENTWISE[op](*operands)).astype(
                dtype, copy=False)
        if op == "matmul":
            return np.matmul(*operands).astype(dtype, copy=False)
        if op in _REDUCE:
            return _REDUCE[op](operands[0], axis=attrs["axes"],
                               keepdims=attrs["keep_dims"]).astype(
                                   dtype, copy=False)
        if op == "softmax":
            return softmax(operands[0], attrs["axis"])
        if op == "transpose":
            return np.transpose(operands[0], attrs["perm"])
        if op == "slice":
            return operands[0][np.ix_(*[
                np.arange(s, l, st) for s, l, st in
                zip(attrs["starts"], attrs["limits"], attrs["strides"])])]
        if op == "reshape":
            shape = tuple(-1 if d is None else d for d in node.shape)
            return operands[0].reshape(shape)
    raise NotImplementedError(op)


def replay(graph, arguments):
    """Yields (node, value) for every live op of `graph`, in order."""
    values = {id(t): a for t, a in zip(graph.arguments, arguments)}
    for node in graph.live_nodes():
        value = evaluate(node, [values[id(o)] for o in node.operands])
        values[id(node)] = value
        yield node, value


__all__ = ["ELEMENTWISE", "cast", "softmax", "evaluate", "replay", "has_nan"]
