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


def conv2d(x, w, strides, dilations, padding, groups):
    """NHWC x HWIO convolution, padding (top, bottom, left, right)."""
    top, bottom, left, right = padding
    x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    kh, kw, cg, cout = w.shape
    fh, fw = dilations[0] * (kh - 1) + 1, dilations[1] * (kw - 1) + 1
    oh = (x.shape[1] - fh) // strides[0] + 1
    ow = (x.shape[2] - fw) // strides[1] + 1
    per_group = cout // groups
    dtype = np.result_type(x, w)
    wide = np.float32 if dtype == np.float16 else dtype
    out = np.zeros((x.shape[0], oh, ow, cout), wide)
    for g in range(groups):
        outputs = slice(g * per_group, (g + 1) * per_group)
        for i in range(kh):
            for j in range(kw):
                rows = x[:, i * dilations[0]:i * dilations[0] +
                         (oh - 1) * strides[0] + 1:strides[0],
                         j * dilations[1]:j * dilations[1] +
                         (ow - 1) * strides[1] + 1:strides[1],
                         g * cg:(g + 1) * cg]
                out[..., outputs] += rows.astype(wide) @ \
                    w[i, j, :, outputs].astype(wide)
    return out.astype(dtype)


def pool2d(x, reduce, window, strides, padding):
    """Pooling over the input elements of each window."""
    if isinstance(window, (int, np.integer)):
        window = (window, window)
    top, bottom, left, right = padding
    n, h, w, c = x.shape
    oh = (h + top + bottom - window[0]) // strides[0] + 1
    ow = (w + left + right - window[1]) // strides[1] + 1
    out = np.zeros((n, oh, ow, c), x.dtype)
    for y in range(oh):
        for z in range(ow):
            y0, z0 = y * strides[0] - top, z * strides[1] - left
            cells = x[:, max(y0, 0):min(y0 + window[0], h),
                      max(z0, 0):min(z0 + window[1], w)]
            out[:, y, z] = reduce(cells, axis=(1, 2))
    return out


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
        if op == "conv2d":
            return conv2d(operands[0], operands[1], attrs["strides"],
                          attrs["dilations"], attrs["padding"],
                          attrs["groups"]).astype(dtype, copy=False)
        if op in ("max_pool2d", "avg_pool2d"):
            return pool2d(operands[0], np.max if op == "max_pool2d" else
                          np.mean, attrs["window"], attrs["strides"],
                          attrs["padding"]).astype(dtype, copy=False)
        if op == "concat":
            return np.concatenate(operands, axis=attrs["axis"])
        if op == "pad":
            return np.pad(operands[0], tuple(zip(attrs["low"], attrs["high"])),
                          constant_values=operands[1][()])
        if op == "gather":
            return np.take(operands[0], operands[1], axis=attrs["axis"])
        if op in ("argmax", "argmin"):
            return getattr(np, op)(operands[0], axis=attrs["axis"],
                                   keepdims=attrs["keep_dims"])
        if op == "iota":
            shape = node.shape
            return np.broadcast_to(
                np.arange(shape[attrs["dimension"]], dtype=dtype).reshape(
                    [-1 if d == attrs["dimension"] else 1
                     for d in range(len(shape))]), shape).copy()
        if op == "reshape":
            shape = tuple(-1 if d is None else d for d in node.shape)
            return operands[0].reshape(shape)
    raise NotImplementedError(op)


def replay(graph, arguments):
    """Yields (node, value) for every live op of `graph`, in order (those
    in the regions of google.if / google.while as they run), up to the
    first call of a gradient (whose backward ops numpy cannot replay)."""
    values = {id(t): a for t, a in zip(graph.arguments, arguments)}
    return _replay_graph(graph, values, [])


def _replay_graph(graph, values, stopped):
    """Yields like `replay`; a gradient call sets `stopped`."""
    for node in graph.live_nodes():
        if node.op == "result":
            (owner,) = node.operands
            if owner.op == "call":
                stopped.append(True)
                return
            values[id(node)] = values[id(owner)][node.attrs["index"]]
            continue
        if node.op == "call":
            stopped.append(True)
            return
        if node.op in ("if", "while"):
            outputs = yield from _replay_region_op(graph, node, values,
                                                   stopped)
            if stopped:
                return
            values[id(node)] = outputs
            continue
        value = evaluate(node, [values[id(o)] for o in node.operands])
        values[id(node)] = value
        yield node, value


def _run_region(graph, region, values, args, stopped):
    """Runs a region graph (its block arguments bound to `args`); its
    outputs' values."""
    for outer, inner in region.captures:
        values[id(inner)] = values[id(graph.lift(outer))]
    for arg, value in zip(region.arguments, args):
        values[id(arg)] = value
    yield from _replay_graph(region, values, stopped)
    return [values[id(o)] for o in region.outputs]


def _replay_region_op(graph, node, values, stopped):
    if node.op == "if":
        taken = "then" if values[id(node.operands[0])] else "else"
        return (yield from _run_region(graph, node.attrs[taken], values, (),
                                       stopped))
    state = [values[id(o)] for o in node.operands[:node.attrs["state"]]]
    while not stopped:
        (go,) = yield from _run_region(graph, node.attrs["cond"], values,
                                       state, stopped)
        if stopped or not go:
            break
        state = yield from _run_region(graph, node.attrs["body"], values,
                                       state, stopped)
    return state


__all__ = ["ELEMENTWISE", "cast", "conv2d", "pool2d", "softmax", "evaluate",
           "replay", "has_nan"]
