"""The google ops on numpy arrays: gm.* outside a trace, under
gm.disable_jit(), and when GOOGLE_MLIR_DEBUG_NANS replays a trace op by op.
"""

import numpy as np


def _scalar(x, value):
    return np.asarray(value, dtype=x.dtype)


def relu(x):
    return np.maximum(x, _scalar(x, 0))


def sigmoid(x):
    one = _scalar(x, 1)
    return one / (one + np.exp(-x))


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def _as_float(x):
    return x if x.dtype.kind == "f" else x.astype(np.float64)


_UNARY = {
    "relu": relu,
    "neg": np.negative,
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "tanh": np.tanh,
    "sigmoid": sigmoid,
    "sqrt": np.sqrt,
}

_BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "max": np.maximum,
    "min": np.minimum,
    "matmul": np.matmul,
}

_REDUCE = {
    "reduce_sum": np.sum,
    "reduce_max": np.max,
    "reduce_mean": np.mean,
}


def evaluate(node, operands):
    """The value of one recorded op, given its operands' values."""
    op, attrs = node.op, node.attrs
    with np.errstate(all="ignore"):
        if op == "constant":
            return attrs["value"]
        if op in _UNARY:
            return _UNARY[op](operands[0])
        if op in _BINARY:
            return _BINARY[op](*operands).astype(node.dtype, copy=False)
        if op in _REDUCE:
            return _REDUCE[op](operands[0], axis=attrs["axes"],
                               keepdims=attrs["keep_dims"]).astype(
                                   node.dtype, copy=False)
        if op == "softmax":
            return softmax(operands[0], attrs["axis"])
        if op == "transpose":
            return np.transpose(operands[0], attrs["perm"])
        if op == "reshape":
            shape = tuple(-1 if d is None else d for d in node.shape)
            return operands[0].reshape(shape)
        if op == "cast":
            return operands[0].astype(node.dtype)
    raise NotImplementedError(op)


def replay(graph, arguments):
    """Yields (node, value) for every live op of `graph`, in order."""
    values = {id(t): a for t, a in zip(graph.arguments, arguments)}
    for node in graph.live_nodes():
        value = evaluate(node, [values[id(o)] for o in node.operands])
        values[id(node)] = value
        yield node, value


__all__ = ["relu", "sigmoid", "softmax", "evaluate", "replay", "_as_float"]
