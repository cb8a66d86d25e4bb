"""Structured control flow: gm.cond, gm.while_loop, gm.fori_loop, gm.scan.

Each traces its functions once into regions of google.if / google.while
(JAX's semantics: the branches and the loop body are traced, not run), so
a loop compiles to one loop whatever its trip count. The loop state and
the branches' results are pytrees of arrays with fixed shapes and dtypes.
Called outside a trace, they run through gm.jit like the other
transformations.
"""

import numpy as np

from . import _tree
from ._autodiff import _Staged, _as_array, _name_of
from ._jit import jit_disabled
from ._trace import (Graph, SUPPORTED_DTYPES, Tracer, broadcast_to,
                     format_shape, trace_error)


def _outer_value(graph, leaf, what):
    """`leaf` as a value of `graph` (arrays and Python numbers become
    constants)."""
    leaf = _as_array(leaf)
    if isinstance(leaf, np.ndarray):
        if leaf.dtype not in SUPPORTED_DTYPES:
            raise TypeError(f"{what} has dtype {leaf.dtype}")
        return graph.constant(leaf)
    if not isinstance(leaf, Tracer):
        raise TypeError(f"{what} must be an array, got "
                        f"{type(leaf).__name__}")
    return graph.lift(leaf)


def _signature(values):
    return [(v.shape, v.dtype) for v in values]


def _spec(value):
    """float32[2,3], as JAX prints an array's type."""
    dims = ",".join("?" if d is None else str(d) for d in value.shape)
    return f"{np.dtype(value.dtype).name}[{dims}]"


def _describe(values):
    return "(" + ", ".join(_spec(v) for v in values) + ")"


def _set_outputs(sub, out, what):
    """The pytree `out` (arrays become constants) as `sub`'s outputs;
    returns its treedef. Call while tracing `sub`."""
    out_leaves, out_def = _tree.flatten(out)
    traced = []
    for i, leaf in enumerate(out_leaves):
        leaf = _as_array(leaf)
        if isinstance(leaf, np.ndarray):
            leaf = sub.constant(leaf)
        if not isinstance(leaf, Tracer):
            raise trace_error(TypeError, f"{what} must return arrays (or "
                              f"pytrees of them); leaf {i} is "
                              f"{type(leaf).__name__}")
        traced.append(sub.lift(leaf))
    sub.outputs = tuple(traced)
    return out_def


def _trace_region(graph, name, fn, args, what):
    """Traces fn(*args) (pytrees of Tracers of a new sub-graph of
    `graph`); returns (sub-graph, output leaves, output treedef)."""
    sub = Graph(name, parent=graph)
    leaves, treedef = _tree.flatten(args)
    inner = [sub.argument(f"s{i}", leaf.shape, leaf.dtype)
             for i, leaf in enumerate(leaves)]
    with sub.tracing():
        out_def = _set_outputs(sub, fn(*_tree.unflatten(treedef, inner)),
                               what)
    return sub, inner, out_def


def _captures(graph, *subs):
    """The values of `graph` the regions use: lifted once each."""
    values = []
    for sub in subs:
        graph.adopt(sub)
        for outer, _ in sub.captures:
            value = graph.lift(outer)
            if all(value is not v for v in values):
                values.append(value)
    return values


def _results(graph, node, values):
    return [Tracer(graph, "result", (node,), {"index": i}, v.shape, v.dtype)
            for i, v in enumerate(values)]


def _predicate(value, what):
    if not isinstance(value, Tracer) or value.shape != () or \
            value.dtype != np.bool_:
        got = _spec(value) if isinstance(value, Tracer) else \
            type(value).__name__
        raise trace_error(TypeError, f"{what} must be a boolean scalar, got "
                          f"{got}")
    return value


def _eager(*trees):
    """Whether no leaf is traced (under gm.disable_jit(), control flow on
    such values runs as plain Python)."""
    return not any(isinstance(leaf, Tracer)
                   for leaf in _tree.flatten(trees)[0])


def _scan_eagerly(f, init, xs, length, reverse):
    x_leaves, x_def = _tree.flatten(xs)
    count = len(x_leaves[0]) if x_leaves else int(length)
    carry, ys = init, []
    for t in (range(count - 1, -1, -1) if reverse else range(count)):
        carry, y = f(carry, _tree.unflatten(x_def, [x[t] for x in x_leaves]))
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys:
        return carry, None
    y_leaves = [_tree.flatten(y)[0] for y in ys]
    stacked = [np.stack([leaves[k] for leaves in y_leaves])
               for k in range(len(y_leaves[0]))]
    return carry, _tree.unflatten(_tree.flatten(ys[0])[1], stacked)


# ---- gm.cond ----

def _cond_record(pred, true_fn, false_fn, *operands):
    graph = Graph.current()
    where = "gm.cond"
    pred = _as_array(pred)
    if isinstance(pred, np.ndarray):
        pred = graph.constant(pred)
    if isinstance(pred, Tracer) and pred.shape == () and \
            pred.dtype != np.bool_:
        pred = pred != 0  # as JAX: a number's truth
    _predicate(pred, f"{where}: the predicate")
    pred = graph.lift(pred)
    branches = []
    for label, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        name = graph.unique_function_name(f"{_name_of(fn)}_{label}")
        sub = Graph(name, parent=graph)
        with sub.tracing():
            treedef = _set_outputs(sub, fn(*operands), f"{where}: {label}")
        branches.append((sub, treedef))
    (then_graph, then_def), (else_graph, else_def) = branches
    if then_def != else_def or _signature(then_graph.outputs) != \
            _signature(else_graph.outputs):
        raise trace_error(TypeError, f"{where}: true_fn and false_fn must "
                          "return the same structure, shapes and dtypes; "
                          f"got {_describe(then_graph.outputs)} and "
                          f"{_describe(else_graph.outputs)}")
    captured = _captures(graph, then_graph, else_graph)
    node = Tracer(graph, "if", (pred, *captured),
                  {"then": then_graph, "else": else_graph}, (), np.bool_)
    return _tree.unflatten(then_def,
                           _results(graph, node, then_graph.outputs))


def cond(pred, true_fn, false_fn, *operands):
    """true_fn(*operands) if pred else false_fn(*operands), as one
    google.if: both branches are traced and must return the same pytree of
    shapes and dtypes. A Python bool picks the branch while tracing."""
    if isinstance(pred, (bool, np.bool_)) or (
            jit_disabled() and _eager(pred, operands)):
        return (true_fn if pred else false_fn)(*operands)
    return _Staged(lambda p, *ops: _cond_record(p, true_fn, false_fn, *ops),
                   "cond")(pred, *operands)


# ---- gm.while_loop ----

def _while(graph, cond_fn, body_fn, init, where, trip_count=None):
    """google.while on the pytree `init` in `graph`; the final state.
    `trip_count`: how many times the body runs, when static (the loop is
    then differentiable)."""
    leaves, treedef = _tree.flatten(init)
    state = [_outer_value(graph, leaf, f"{where}: init leaf {i}")
             for i, leaf in enumerate(leaves)]
    init_tree = _tree.unflatten(treedef, state)
    cond_graph, _, _ = _trace_region(
        graph, graph.unique_function_name("cond"), cond_fn, (init_tree,),
        f"{where}: cond_fun")
    if len(cond_graph.outputs) != 1:
        raise trace_error(TypeError, f"{where}: cond_fun must return a "
                          "boolean scalar, got "
                          f"{len(cond_graph.outputs)} arrays")
    _predicate(cond_graph.outputs[0], f"{where}: cond_fun's result")
    body_graph, _, body_def = _trace_region(
        graph, graph.unique_function_name("body"), body_fn, (init_tree,),
        f"{where}: body_fun")
    if body_def != treedef or _signature(body_graph.outputs) != \
            _signature(state):
        raise trace_error(TypeError, f"{where}: body_fun must return the "
                          "loop state's structure, shapes and dtypes "
                          f"{_describe(state)}, got "
                          f"{_describe(body_graph.outputs)}")
    captured = _captures(graph, cond_graph, body_graph)
    node = Tracer(graph, "while", (*state, *captured),
                  {"cond": cond_graph, "body": body_graph,
                   "state": len(state), "trip_count": trip_count}, (),
                  np.bool_)
    return _tree.unflatten(treedef, _results(graph, node, state))


def while_loop(cond_fun, body_fun, init_val):
    """Repeats `init_val = body_fun(init_val)` while `cond_fun(init_val)`
    (a boolean scalar) holds, as one google.while; the state is a pytree
    of arrays whose shapes and dtypes the body keeps."""
    where = "gm.while_loop"
    if jit_disabled() and _eager(init_val):
        while cond_fun(init_val):
            init_val = body_fun(init_val)
        return init_val
    return _Staged(lambda init: _while(Graph.current(), cond_fun, body_fun,
                                       init, where), "while_loop")(init_val)


# ---- gm.fori_loop ----

def _index_dtype(*bounds):
    for bound in bounds:
        if isinstance(bound, (Tracer, np.ndarray, np.integer)):
            dtype = np.dtype(bound.dtype)
            if dtype.kind != "i":
                raise trace_error(TypeError, "gm.fori_loop: lower and upper "
                                  f"must be integers, got {dtype}")
            return dtype
        if not isinstance(bound, int) or isinstance(bound, bool):
            raise trace_error(TypeError, "gm.fori_loop: lower and upper "
                              "must be integers, got "
                              f"{type(bound).__name__}")
    return np.dtype(np.int32)  # JAX's index type


def fori_loop(lower, upper, body_fun, init_val):
    """for i in range(lower, upper): init_val = body_fun(i, init_val), as
    one google.while (i is an int32 scalar unless the bounds are arrays of
    another integer type)."""
    where = "gm.fori_loop"
    dtype = _index_dtype(lower, upper)
    if jit_disabled() and _eager(lower, upper, init_val):
        for i in range(int(lower), int(upper)):
            init_val = body_fun(dtype.type(i), init_val)
        return init_val

    def record(lower, upper, init):
        graph = Graph.current()
        low = _outer_value(graph, np.asarray(lower, dtype) if not
                           isinstance(lower, Tracer) else lower,
                           f"{where}: lower").astype(dtype)
        high = _outer_value(graph, np.asarray(upper, dtype) if not
                            isinstance(upper, Tracer) else upper,
                            f"{where}: upper").astype(dtype)
        for bound, label in ((low, "lower"), (high, "upper")):
            if bound.shape != ():
                raise TypeError(f"{where}: {label} must be a scalar, got "
                                f"shape {format_shape(bound.shape)}")
        static = all(isinstance(b, (int, np.integer)) and
                     not isinstance(b, bool) for b in (lower, upper))
        final = _while(graph, lambda s: s[0] < high,
                       lambda s: (s[0] + 1, body_fun(s[0], s[1])),
                       (low, init), where,
                       max(int(upper) - int(lower), 0) if static else None)
        return final[1]

    return _Staged(record, "fori_loop")(lower, upper, init_val)


# ---- gm.scan ----

def scan(f, init, xs=None, length=None, reverse=False):
    """JAX's lax.scan: carry, y = f(carry, x) for each x of xs along axis 0
    (in reverse with reverse=True); returns (carry, the ys stacked). One
    google.while: each step reads its slice of xs (a gather) and writes its
    y into the stacked ys (a scatter_add into -0.0, exact)."""
    where = "gm.scan"
    if jit_disabled() and _eager(init, xs):
        return _scan_eagerly(f, init, xs, length, reverse)

    def record(init, xs):
        graph = Graph.current()
        x_leaves, x_def = _tree.flatten(xs)
        x_values = [_outer_value(graph, leaf, f"{where}: xs leaf {i}")
                    for i, leaf in enumerate(x_leaves)]
        steps = {v.shape[0] if v.ndim else "scalar" for v in x_values}
        if "scalar" in steps:
            raise ValueError(f"{where}: xs leaves must have a leading axis")
        if length is not None:
            steps.add(int(length))
        if not steps:
            raise ValueError(f"{where}: give xs or length")
        if len(steps) != 1:
            raise ValueError(f"{where}: xs leaves and length disagree on the "
                             f"number of steps: {sorted(map(str, steps))}")
        (count,) = steps
        if count is None:
            raise ValueError(f"{where}: the number of steps must be static")
        carry_leaves, carry_def = _tree.flatten(init)
        carry = [_outer_value(graph, leaf, f"{where}: init leaf {i}")
                 for i, leaf in enumerate(carry_leaves)]

        def step(t, carry_values):
            x = _tree.unflatten(x_def, [np.take(v, t, axis=0)
                                        for v in x_values])
            out = f(_tree.unflatten(carry_def, list(carry_values)), x)
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise trace_error(TypeError, f"{where}: f must return "
                                  "(carry, y)")
            return out

        # The ys' shapes: f traced once on its own (then dropped).
        probe = Graph(graph.unique_function_name("scan_probe"), parent=graph)
        with probe.tracing():
            t0 = probe.argument("t", (), np.int32)
            args = [probe.argument(f"c{i}", c.shape, c.dtype)
                    for i, c in enumerate(carry)]
            _, y = step(t0, args)
            y_leaves, y_def = _tree.flatten(y)
            y_specs = []
            for leaf in y_leaves:
                leaf = _as_array(leaf)
                if not isinstance(leaf, (Tracer, np.ndarray)):
                    raise trace_error(TypeError, f"{where}: f's y must hold "
                                      f"arrays, got {type(leaf).__name__}")
                y_specs.append((tuple(leaf.shape), np.dtype(leaf.dtype)))
        stacked = []
        for shape, dtype in y_specs:
            store = np.dtype(np.int32) if dtype == np.bool_ else dtype
            zero = np.array(-0.0 if store.kind == "f" else 0, store)
            stacked.append(broadcast_to(graph.constant(zero),
                                        (count,) + shape))

        def body(state):
            t, carry_values, ys = state
            index = (count - 1 - t) if reverse else t
            new_carry, y = step(index, carry_values)
            new_leaves, new_def = _tree.flatten(new_carry)
            if new_def != carry_def:
                raise trace_error(TypeError, f"{where}: f must return a carry "
                                  "of the structure of init")
            new_values = []
            for leaf, old in zip(new_leaves, carry_values):
                leaf = _as_array(leaf)
                if isinstance(leaf, np.ndarray):
                    leaf = Graph.current().constant(leaf)
                new_values.append(leaf)
            if _signature(new_values) != _signature(carry_values):
                raise trace_error(TypeError, f"{where}: f must return a "
                                  "carry with init's shapes and dtypes "
                                  f"{_describe(carry_values)}, got "
                                  f"{_describe(new_values)}")
            written = []
            for leaf, old in zip(_tree.flatten(y)[0], ys):
                leaf = _as_array(leaf)
                if isinstance(leaf, np.ndarray):
                    leaf = Graph.current().constant(leaf)
                if leaf.dtype == np.bool_:
                    leaf = leaf.astype(np.int32)
                leaf = Graph.current().lift(leaf)
                written.append(leaf._new("scatter_add", (old, index, leaf),
                                         {"axis": 0}, old.shape, old.dtype))
            return (t + 1, new_values, written)

        t_init = graph.constant(np.array(0, np.int32))
        _, final_carry, ys = _while(
            graph, lambda s: s[0] < count, body, (t_init, carry, stacked),
            where, count)
        ys = [y.astype(np.bool_) if dtype == np.bool_ else y
              for y, (_, dtype) in zip(ys, y_specs)]
        return (_tree.unflatten(carry_def, final_carry),
                _tree.unflatten(y_def, ys))

    return _Staged(record, "scan")(init, xs)
