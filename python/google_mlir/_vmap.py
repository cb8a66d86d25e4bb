"""gm.vmap: batching by rewriting the traced program.

The function is traced once on one example's shapes (a sub-trace), then
each recorded op is rewritten into the caller's trace by its batching rule
(BATCHING_RULES, one per google op): a batched value carries the batch as
its leading dimension, an unbatched one is used as it is. So the batched
program is google-dialect code compiled with the rest (never a loop over
examples): gm.jit(gm.vmap(f)) compiles once per signature, and vmap
composes with itself and with grad (a gradient inside vmap becomes the
gradient of the batched function, whose examples are independent).
"""

import functools

import numpy as np

from . import _tree
from ._autodiff import (_Staged, _as_array, _bind_positional, _name_of,
                        declare_vjp)
from ._control import _captures, _outer_value, _results
from ._trace import (OPS, Graph, Tracer, broadcast_to,
                     format_shape)


class _Batched:
    """A value of the caller's trace and whether dimension 0 is the
    batch."""

    __slots__ = ("value", "batched")

    def __init__(self, value, batched):
        self.value = value
        self.batched = batched


def _emit(graph, node, op, operands, attrs, shape, dtype=None):
    """google.<op> in `graph`, at `node`'s Python line (values of the
    graphs around it are captured)."""
    operands = [o if o.graph is graph else graph.lift(o) for o in operands]
    tracer = Tracer(graph, op, tuple(operands), attrs, shape,
                    node.dtype if dtype is None else dtype)
    tracer.location = node.location
    return tracer


class _Batcher:
    """Rewrites one sub-trace's ops into `graph` with batch size `size`
    (None when dynamic)."""

    def __init__(self, graph, size, where):
        self.graph = graph
        self.size = size
        self.where = where

    def error(self, node, detail):
        file, line, _ = node.location
        return NotImplementedError(
            f"{self.where}: google.{node.op} at {file}:{line} cannot be "
            f"batched yet ({detail})")

    def static_size(self, node):
        if self.size is None:
            raise self.error(node, "a dynamic batch size")
        return self.size

    # Helpers on values of the caller's trace.
    def broadcast(self, value):
        """An unbatched value repeated along a new leading batch
        dimension."""
        if self.size is None:
            raise NotImplementedError(
                f"{self.where}: broadcasting an unmapped value over a "
                "dynamic batch size is not supported yet")
        return broadcast_to(value, (self.size,) + value.shape)

    def materialize(self, item):
        """`item`'s value with a leading batch dimension."""
        return item.value if item.batched else self.broadcast(item.value)

    def with_rank(self, value, rank):
        """A batched value with unit dimensions after the batch, to `rank`
        dimensions besides the batch (NumPy broadcasting aligns the rest)."""
        missing = rank - (value.ndim - 1)
        if missing <= 0:
            return value
        shape = (value.shape[0],) + (1,) * missing + value.shape[1:]
        return _emit(self.graph, value, "reshape", [value], {}, shape)

    # The driver.
    def run(self, sub, env):
        for node in sub.live_nodes():
            if node.op == "result":
                call = env[id(node.operands[0])]
                env[id(node)] = call[node.attrs["index"]]
                continue
            items = [env[id(o)] for o in node.operands]
            if node.op == "call":
                env[id(node)] = self.batch_call(sub, node, items)
                continue
            if node.op == "if":
                env[id(node)] = self.batch_if(sub, node, items, env)
                continue
            if node.op == "while":
                env[id(node)] = self.batch_while(sub, node, items, env)
                continue
            if not any(item.batched for item in items):
                value = _emit(self.graph, node, node.op,
                              [item.value for item in items],
                              dict(node.attrs), node.shape)
                env[id(node)] = _Batched(value, False)
                continue
            rule = BATCHING_RULES.get(node.op)
            if rule is None:
                raise self.error(node, "no batching rule")
            env[id(node)] = _Batched(rule(self, node, items), True)
        return env

    # Control flow: regions rebuilt with their ops batched.
    def region_env(self, sub, region, env):
        """`region`'s captured values (of `sub` or graphs around it) as
        their batched values."""
        return {id(inner): env[id(sub.lift(outer))]
                for outer, inner in region.captures}

    def inline(self, sub, region, env, args=()):
        """Runs `region`'s ops batched into this graph (its arguments
        bound to `args`); its outputs' batched values."""
        inner = self.region_env(sub, region, env)
        for arg, item in zip(region.arguments, args):
            inner[id(arg)] = item
        self.run(region, inner)
        return [inner[id(o)] for o in region.outputs]

    def rebuild(self, sub, region, env, state=(), batched_outputs=None):
        """`region` batched as a new region of this graph: its state
        arguments take `state` (flags: batched or not); outputs listed in
        `batched_outputs` are made batched. Returns (graph, output
        flags)."""
        graph = Graph(region.name, parent=self.graph)
        inner = _Batcher(graph, self.size, self.where)
        values = self.region_env(sub, region, env)
        for i, (arg, flag) in enumerate(zip(region.arguments, state)):
            shape = ((self.size,) + arg.shape) if flag else arg.shape
            values[id(arg)] = _Batched(graph.argument(f"s{i}", shape,
                                                      arg.dtype), flag)
        with graph.tracing():
            inner.run(region, values)
            outputs, flags = [], []
            for i, o in enumerate(region.outputs):
                item = values[id(o)]
                if batched_outputs is not None and i in batched_outputs:
                    item = _Batched(inner.materialize(item), True)
                outputs.append(graph.lift(item.value))
                flags.append(item.batched)
        graph.outputs = tuple(outputs)
        return graph, flags

    def batch_if(self, sub, node, items, env):
        then, other = node.attrs["then"], node.attrs["else"]
        pred = items[0]
        if pred.batched:
            # Per-example branches: both run, a select picks.
            a = self.inline(sub, then, env)
            b = self.inline(sub, other, env)
            results = []
            for x, y, o in zip(a, b, then.outputs):
                if not x.batched and not y.batched:
                    results.append(_Batched(_emit(
                        self.graph, node, "select", [pred.value, x.value,
                                                     y.value], {},
                        (self.size,) + o.shape), True))
                    continue
                shape = (self.size,) + o.shape
                condition = self.with_rank(pred.value, len(o.shape))
                results.append(_Batched(_emit(
                    self.graph, node, "select",
                    [condition, self.materialize(x), self.materialize(y)],
                    {}, shape, o.dtype), True))
            return results
        _, flags_a = self.rebuild(sub, then, env)
        _, flags_b = self.rebuild(sub, other, env)
        batched = {i for i, (p, q) in enumerate(zip(flags_a, flags_b))
                   if p or q}
        then_graph, _ = self.rebuild(sub, then, env, batched_outputs=batched)
        else_graph, _ = self.rebuild(sub, other, env, batched_outputs=batched)
        captured = _captures(self.graph, then_graph, else_graph)
        new = Tracer(self.graph, "if", (pred.value, *captured),
                     {"then": then_graph, "else": else_graph}, (), np.bool_)
        new.location = node.location
        return [_Batched(r, i in batched) for i, r in enumerate(
            _results(self.graph, new, then_graph.outputs))]

    def batch_while(self, sub, node, items, env):
        count = node.attrs["state"]
        cond, body = node.attrs["cond"], node.attrs["body"]
        flags = [item.batched for item in items[:count]]
        while True:  # the state batched wherever the body makes it so
            _, out = self.rebuild(sub, body, env, flags)
            grown = [f or o for f, o in zip(flags, out)]
            if grown == flags:
                break
            flags = grown
        _, (pred_batched,) = self.rebuild(sub, cond, env, flags)
        if pred_batched:
            flags = [True] * count
        init = [self.materialize(item) if flag else item.value
                for item, flag in zip(items[:count], flags)]
        batched_out = {i for i, f in enumerate(flags) if f}
        cond_graph, _ = self.rebuild(sub, cond, env, flags)
        body_graph, _ = self.rebuild(sub, body, env, flags,
                                     batched_outputs=batched_out)
        trip_count = node.attrs.get("trip_count")
        if pred_batched:
            # Until no example goes on; finished examples keep their state.
            trip_count = None
            with cond_graph.tracing():
                (p,) = cond_graph.outputs
                any_left = p.astype(np.int32).max() > 0
                cond_graph.outputs = (any_left,)
            with body_graph.tracing():
                inner = _Batcher(body_graph, self.size, self.where)
                state = body_graph.arguments[:count]
                (p,) = inner.inline(sub, cond, env, [
                    _Batched(a, True) for a in state])
                kept = []
                for new, old in zip(body_graph.outputs, state):
                    condition = inner.with_rank(p.value, old.ndim - 1)
                    kept.append(_emit(body_graph, node, "select",
                                      [condition, new, old], {}, old.shape,
                                      old.dtype))
                body_graph.outputs = tuple(kept)
        captured = _captures(self.graph, cond_graph, body_graph)
        new = Tracer(self.graph, "while", (*init, *captured),
                     {"cond": cond_graph, "body": body_graph, "state": count,
                      "trip_count": trip_count}, (), np.bool_)
        new.location = node.location
        return [_Batched(r, flag) for r, flag in zip(
            _results(self.graph, new, init), flags)]

    def batch_call(self, sub, node, items):
        """A call of a VJP (gm.grad inside vmap): the VJP of the batched
        function, every operand and cotangent batched (the examples are
        independent, so its gradients are the per-example ones)."""
        graph = self.graph
        info = graph.vjps.get(node.attrs["callee"])
        if info is None:
            raise self.error(node, f"a call of @{node.attrs['callee']}")
        name, wrt = info
        function = graph.function_graphs[name]
        size = self.static_size(node)
        batched_name = graph.unique_function_name(name + "_batched")
        batched = Graph(batched_name, names_from=graph)
        env = {id(arg): _Batched(batched.argument(f"a{i}", (size,) + arg.shape,
                                                  arg.dtype), True)
               for i, arg in enumerate(function.arguments)}
        inner = _Batcher(batched, size, self.where)
        with batched.tracing():
            inner.run(function, env)
            batched.outputs = tuple(inner.materialize(env[id(o)])
                                    for o in function.outputs)
        graph.adopt(batched)
        graph.functions[batched_name] = batched.to_mlir(
            batched_name, locations=True, private=True)
        graph.function_graphs[batched_name] = batched
        operand_types = [a.mlir_type for a in batched.arguments]
        vjp_name = declare_vjp(graph, batched_name, operand_types,
                               [o.mlir_type for o in batched.outputs], wrt)
        operands = [self.materialize(item) for item in items]
        result_types = [(o.shape, o.dtype) for o in batched.outputs]
        result_types += [(batched.arguments[k].shape,
                          batched.arguments[k].dtype) for k in wrt]
        return [_Batched(r, True)
                for r in graph.call(vjp_name, operands, result_types)]


# ---- batching rules: (batcher, node, operands) -> batched value ----

def _batched_shape(batcher, node):
    return (batcher.size,) + node.shape


def _elementwise(batcher, node, items):
    rank = node.ndim
    operands = [batcher.with_rank(item.value, rank) if item.batched
                else item.value for item in items]
    return _emit(batcher.graph, node, node.op, operands, dict(node.attrs),
                 _batched_shape(batcher, node))


def _shifted(names):
    """Ops whose attributes `names` count dimensions: one more each."""
    def rule(batcher, node, items):
        attrs = dict(node.attrs)
        rank = node.operands[0].ndim
        for name in names:
            value = attrs[name]
            if isinstance(value, (tuple, list)):
                attrs[name] = tuple(int(v) % rank + 1 for v in value)
            else:
                attrs[name] = int(value) % max(rank, 1) + 1
        return _emit(batcher.graph, node, node.op, [items[0].value], attrs,
                     _batched_shape(batcher, node))
    return rule


def _transpose(batcher, node, items):
    perm = (0,) + tuple(int(p) + 1 for p in node.attrs["perm"])
    return _emit(batcher.graph, node, "transpose", [items[0].value],
                 {"perm": perm}, _batched_shape(batcher, node))


def _reshape(batcher, node, items):
    shape = _batched_shape(batcher, node)
    if shape.count(None) > 1:
        raise batcher.error(node, "a dynamic batch size with other "
                            "dynamic extents")
    return _emit(batcher.graph, node, "reshape", [items[0].value], {}, shape)


def _slice(batcher, node, items):
    size = batcher.static_size(node)
    attrs = {"starts": (0,) + tuple(node.attrs["starts"]),
             "limits": (size,) + tuple(node.attrs["limits"]),
             "strides": (1,) + tuple(node.attrs["strides"])}
    return _emit(batcher.graph, node, "slice", [items[0].value], attrs,
                 _batched_shape(batcher, node))


def _concat(batcher, node, items):
    operands = [batcher.materialize(item) for item in items]
    axis = int(node.attrs["axis"]) % node.ndim + 1
    return _emit(batcher.graph, node, "concat", operands, {"axis": axis},
                 _batched_shape(batcher, node))


def _pad(batcher, node, items):
    if items[1].batched:
        raise batcher.error(node, "a mapped padding value")
    attrs = {"low": (0,) + tuple(node.attrs["low"]),
             "high": (0,) + tuple(node.attrs["high"])}
    return _emit(batcher.graph, node, "pad", [items[0].value, items[1].value],
                 attrs, _batched_shape(batcher, node))


def _gather(batcher, node, items):
    table, indices = items
    axis = int(node.attrs["axis"]) % node.operands[0].ndim
    graph = batcher.graph
    if not indices.batched:
        return _emit(graph, node, "gather", [table.value, indices.value],
                     {"axis": axis + 1}, _batched_shape(batcher, node))
    index_rank = node.operands[1].ndim
    if not table.batched:
        # The batch comes with the indices, at `axis`: moved to the front.
        ids = indices.value
        shape = node.shape[:axis] + ids.shape + node.shape[axis + index_rank:]
        picked = _emit(graph, node, "gather", [table.value, ids],
                       {"axis": axis}, shape)
        if axis == 0:
            return picked
        perm = (axis,) + tuple(d for d in range(len(shape)) if d != axis)
        return _emit(graph, node, "transpose", [picked], {"perm": perm},
                     _batched_shape(batcher, node))
    # Both mapped: example b's rows live at b * extent + index in the
    # table with the batch and the axis merged.
    size = batcher.static_size(node)
    values = table.value
    extent = values.shape[axis + 1]
    if extent is None or None in values.shape:
        raise batcher.error(node, "dynamic extents")
    if axis != 0:
        perm = (0, axis + 1) + tuple(d for d in range(1, values.ndim)
                                     if d != axis + 1)
        values = values.transpose(perm)
    merged = values.reshape(size * extent, *values.shape[2:])
    ids = indices.value
    wrapped = ids + (ids < 0).astype(ids.dtype) * extent  # numpy's wrap
    offsets = graph.iota((size,) + ids.shape[1:], 0, ids.dtype) * extent
    picked_shape = ids.shape + merged.shape[1:]
    picked = _emit(graph, node, "gather", [merged, wrapped + offsets],
                   {"axis": 0}, picked_shape)
    if axis == 0:
        return picked
    # (B, idx..., rows...) -> the example's layout with the batch first.
    lead = list(range(1 + index_rank, 1 + index_rank + axis))
    perm = [0] + lead + list(range(1, 1 + index_rank)) + list(
        range(1 + index_rank + axis, len(picked_shape)))
    return _emit(graph, node, "transpose", [picked], {"perm": tuple(perm)},
                 _batched_shape(batcher, node))


def _scatter_add(batcher, node, items):
    base, indices, updates = items
    graph = batcher.graph
    axis = int(node.attrs["axis"]) % node.ndim
    if not indices.batched:
        return _emit(graph, node, "scatter_add",
                     [batcher.materialize(base), indices.value,
                      batcher.materialize(updates)], {"axis": axis + 1},
                     _batched_shape(batcher, node))
    # (google.scatter_add comes from gm.scan's steps, whose index is never
    # mapped.)
    raise batcher.error(node, "mapped indices")


def _matmul(batcher, node, items):
    lhs, rhs = items
    graph = batcher.graph
    rank = node.operands[0].ndim
    out = _batched_shape(batcher, node)
    if rank == 2 and lhs.batched and not rhs.batched:
        # (B, M, K) @ (K, N): one matmul of every example's rows.
        b, m, k = lhs.value.shape
        if m is None or k is None:
            raise batcher.error(node, "dynamic extents")
        rows = lhs.value.reshape(-1, k)
        product = _emit(graph, node, "matmul", [rows, rhs.value], {},
                        (None if None in rows.shape else rows.shape[0],
                         node.shape[1]))
        return _emit(graph, node, "reshape", [product], {}, out)
    if rank == 2 and rhs.batched and not lhs.batched:
        # (M, K) @ (B, K, N): the examples' columns side by side.
        b, k, n = rhs.value.shape
        if b is None or k is None or n is None:
            raise batcher.error(node, "dynamic extents")
        columns = rhs.value.transpose(1, 0, 2).reshape(k, b * n)
        product = _emit(graph, node, "matmul", [lhs.value, columns], {},
                        (node.shape[0], b * n))
        product = product.reshape(node.shape[0], b, n)
        return _emit(graph, node, "transpose", [product], {"perm": (1, 0, 2)},
                     out)
    if rank == 2:
        return _emit(graph, node, "matmul", [lhs.value, rhs.value], {}, out)
    # Examples of batched matmuls: the two batches merged.
    size = batcher.static_size(node)
    a, b = batcher.materialize(lhs), batcher.materialize(rhs)
    if None in a.shape or None in b.shape:
        raise batcher.error(node, "dynamic extents")
    a = a.reshape(size * a.shape[1], *a.shape[2:])
    b = b.reshape(size * b.shape[1], *b.shape[2:])
    product = _emit(graph, node, "matmul", [a, b], {},
                    (a.shape[0], a.shape[1], b.shape[2]))
    return _emit(graph, node, "reshape", [product], {}, out)


def _merge_batch(batcher, node, value):
    """(B, N, ...) as (B*N, ...)."""
    if None in value.shape[1:]:
        raise batcher.error(node, "dynamic extents")
    return value.reshape(-1, *value.shape[2:])


def _windowed(batcher, node, items):
    """Pools and convolutions of mapped inputs by one filter: the batch
    merged into N."""
    x = _merge_batch(batcher, node, items[0].value)
    operands = [x] + [item.value for item in items[1:]]
    merged = _emit(batcher.graph, node, node.op, operands, dict(node.attrs),
                   (x.shape[0],) + node.shape[1:])
    return _emit(batcher.graph, node, "reshape", [merged], {},
                 _batched_shape(batcher, node))


def _conv2d(batcher, node, items):
    x, w = items
    if not w.batched:
        return _windowed(batcher, node, items)
    # A filter per example: the examples side by side in the channels, one
    # group (or `groups` groups) each.
    graph = batcher.graph
    size = batcher.static_size(node)
    xs = batcher.materialize(x)  # (B, N, H, W, C)
    ws = w.value  # (B, kh, kw, C/g, F)
    if None in xs.shape or None in ws.shape:
        raise batcher.error(node, "dynamic extents")
    _, n, h, width, c = xs.shape
    _, kh, kw, cg, f = ws.shape
    channels = xs.transpose(1, 2, 3, 0, 4).reshape(n, h, width, size * c)
    filters = ws.transpose(1, 2, 3, 0, 4).reshape(kh, kw, cg, size * f)
    attrs = dict(node.attrs)
    attrs["groups"] = int(node.attrs["groups"]) * size
    _, oh, ow, _ = node.shape
    y = _emit(graph, node, "conv2d", [channels, filters], attrs,
              (n, oh, ow, size * f))
    y = y.reshape(n, oh, ow, size, f)
    return _emit(graph, node, "transpose", [y], {"perm": (3, 0, 1, 2, 4)},
                 _batched_shape(batcher, node))


BATCHING_RULES = {name: _elementwise for name, op in OPS.items()
                  if op["elementwise"]}
BATCHING_RULES.update({
    "transpose": _transpose,
    "reshape": _reshape,
    "reduce_sum": _shifted(("axes",)),
    "reduce_max": _shifted(("axes",)),
    "reduce_min": _shifted(("axes",)),
    "reduce_prod": _shifted(("axes",)),
    "reduce_mean": _shifted(("axes",)),
    "argmax": _shifted(("axis",)),
    "argmin": _shifted(("axis",)),
    "softmax": _shifted(("axis",)),
    "slice": _slice,
    "concat": _concat,
    "pad": _pad,
    "gather": _gather,
    "scatter_add": _scatter_add,
    "matmul": _matmul,
    "conv2d": _conv2d,
    "max_pool2d": _windowed,
    "avg_pool2d": _windowed,
})


# ---- gm.vmap ----

def _axes_per_leaf(axes, args, what):
    """One axis (int or None) per leaf of `args` (a tuple): `axes` is one
    for all, or one per argument, each a pytree prefix of its argument."""
    if axes is None or isinstance(axes, int):
        return [axes] * len(_tree.flatten(args)[0])
    if not isinstance(axes, (tuple, list)) or len(axes) != len(args):
        raise ValueError(f"{what} must be an int, None, or a tuple of "
                         f"length {len(args)} (one per positional "
                         f"argument), got {axes!r}")
    result = []

    def visit(axis, arg):
        if axis is None or isinstance(axis, (int, np.integer)):
            result.extend([axis] * len(_tree.flatten(arg)[0]))
        elif isinstance(axis, dict) and isinstance(arg, dict) and \
                sorted(axis) == sorted(arg):
            for key in sorted(arg):
                visit(axis[key], arg[key])
        elif isinstance(axis, (tuple, list)) and \
                isinstance(arg, (tuple, list)) and len(axis) == len(arg):
            for a, child in zip(axis, arg):
                visit(a, child)
        else:
            raise ValueError(f"{what}: {axis!r} does not match the "
                             "structure of its argument")

    for arg, axis in zip(args, axes):
        visit(axis, arg)
    for axis in result:
        if axis is not None and (not isinstance(axis, (int, np.integer))
                                 or isinstance(axis, bool)):
            raise TypeError(f"{what}: axes are ints or None, got {axis!r}")
    return result


def _vmap_record(fn, in_axes, out_axes, where):
    def record(*args):
        leaves, treedef = _tree.flatten(args)
        axes = _axes_per_leaf(in_axes, args, f"{where}: in_axes")
        graph = Graph.current()
        name = graph.unique_function_name(_name_of(fn) + "_example")
        sub = Graph(name, parent=graph)
        sub_leaves, bindings, size, sizes = [], [], None, []
        for index, (leaf, axis) in enumerate(zip(leaves, axes)):
            leaf = _as_array(leaf)
            if not isinstance(leaf, (Tracer, np.ndarray)):
                if axis is not None:
                    raise ValueError(
                        f"{where}: in_axes maps leaf {index}, a "
                        f"{type(leaf).__name__}; only arrays can be mapped")
                sub_leaves.append(leaf)
                continue
            value = _outer_value(graph, leaf, f"{where}: leaf {index}")
            if axis is not None:
                if not -value.ndim <= axis < value.ndim:
                    raise ValueError(
                        f"{where}: in_axes {axis} is out of range for an "
                        f"argument of shape {format_shape(value.shape)}")
                axis %= value.ndim
                if axis:
                    value = value.transpose(
                        (axis,) + tuple(d for d in range(value.ndim)
                                        if d != axis))
                sizes.append(value.shape[0])
                example = value.shape[1:]
            else:
                example = value.shape
            bindings.append(_Batched(value, axis is not None))
            sub_leaves.append(sub.argument(f"a{len(bindings) - 1}", example,
                                           value.dtype))
        if not sizes:
            raise ValueError(f"{where}: in_axes maps no argument (at least "
                             "one must be an int)")
        static = {s for s in sizes if s is not None}
        if len(static) > 1:
            raise ValueError(f"{where}: mapped axes have different sizes: "
                             f"{', '.join(str(s) for s in sizes)}")
        size = static.pop() if static else None
        with sub.tracing():
            out = fn(*_tree.unflatten(treedef, sub_leaves))
            out_leaves, out_def = _tree.flatten(out)
            traced = []
            for leaf in out_leaves:
                leaf = _as_array(leaf)
                if isinstance(leaf, np.ndarray):
                    leaf = sub.constant(leaf)
                if not isinstance(leaf, Tracer):
                    raise TypeError(f"{where}: {_name_of(fn)}() must return "
                                    "arrays (or pytrees of them), got "
                                    f"{type(leaf).__name__}")
                traced.append(sub.lift(leaf))
        sub.outputs = tuple(traced)
        graph.adopt(sub)
        env = {id(arg): binding
               for arg, binding in zip(sub.arguments, bindings)}
        for outer, inner in sub.captures:
            env[id(inner)] = _Batched(graph.lift(outer), False)
        batcher = _Batcher(graph, size, where)
        batcher.run(sub, env)
        if out_axes is None or isinstance(out_axes, int):
            axes_out = [out_axes] * len(traced)
        elif isinstance(out, tuple):
            axes_out = _axes_per_leaf(out_axes, out, f"{where}: out_axes")
        else:
            axes_out = _axes_per_leaf((out_axes,), (out,),
                                      f"{where}: out_axes")
        results = []
        for leaf, axis in zip(traced, axes_out):
            item = env[id(leaf)]
            if axis is None:
                if item.batched:
                    raise ValueError(f"{where}: out_axes is None for an "
                                     "output that depends on a mapped "
                                     "input")
                results.append(item.value)
                continue
            value = batcher.materialize(item)
            rank = value.ndim
            if not -rank <= axis < rank:
                raise ValueError(f"{where}: out_axes {axis} is out of range "
                                 f"for an output of rank {rank - 1}")
            axis %= rank
            if axis:
                perm = list(range(1, rank))
                perm.insert(axis, 0)
                value = value.transpose(perm)
            results.append(value)
        return _tree.unflatten(out_def, results)

    return record


def vmap(fn, in_axes=0, out_axes=0):
    """A function that maps `fn` over an axis of its arguments, computed by
    one batched program (JAX's semantics): in_axes is an int, None (not
    mapped) or a tuple with one entry per positional argument (each an
    int, None or a pytree of them); out_axes says where each output's batch
    goes. Composes with jit, grad and itself."""
    where = f"gm.vmap({_name_of(fn)})"
    staged = _Staged(_vmap_record(fn, in_axes, out_axes, where),
                     f"vmap_{_name_of(fn)}")

    @functools.wraps(fn)
    def batched(*args, **kwargs):
        return staged(*_bind_positional(fn, args, kwargs, where))

    return batched
