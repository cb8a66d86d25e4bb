"""gm.grad, gm.value_and_grad and gm.vjp: reverse-mode autodiff by the
compiler.

The function is traced into a private function of the module, and the
caller's trace gets a func.call of its VJP: a declaration with a
`google.vjp` attribute, whose body --google-differentiate builds from the
function's ops (the adjoint rules are C++, next to the dialect). So a
gradient is a google-dialect program like any other, compiled with the rest
of the traced code: gm.jit(gm.grad(f)) compiles once per signature. Called
with arrays outside a trace, a transformed function compiles itself with
gm.jit (arrays are its arguments, other leaves static).
"""

import functools
import inspect

import numpy as np

from . import _tree
from ._jit import staged_jit
from ._trace import SUPPORTED_DTYPES, Graph, Tracer, is_float


def _name_of(fn):
    return getattr(fn, "__name__", "function")


def _normalize_argnums(argnums, count, where):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise ValueError(f"{where}: argnums is empty")
    for n in nums:
        if not isinstance(n, int) or not -count <= n < count:
            raise ValueError(f"{where}: argnums {n} is out of range for "
                             f"{count} positional arguments")
    return single, tuple(n % count for n in nums)


def _bind_positional(fn, args, kwargs, where):
    """`args` and `kwargs` as the positional arguments of `fn`."""
    if not kwargs:
        return list(args)
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{where}: {error}") from None
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError(f"{where}: {_name_of(fn)}() takes keyword-only "
                        "arguments; pass them positionally")
    return list(bound.args)


def _tracing_graph(leaves):
    for leaf in leaves:
        if isinstance(leaf, Tracer):
            return leaf.graph
    return Graph.current()


def _as_array(leaf):
    """Python numbers and lists as numpy arrays (floats as float32, as in
    JAX); other leaves as they are."""
    if isinstance(leaf, (bool, np.generic)):
        return np.asarray(leaf)
    if isinstance(leaf, float):
        return np.asarray(leaf, np.float32)
    if isinstance(leaf, int):
        return np.asarray(leaf, np.int64)
    if isinstance(leaf, list):
        return np.asarray(leaf)
    return leaf


class _Staged:
    """A function traced where it is called inside a trace (`record`), and
    compiled with gm.jit over its array leaves where called with arrays."""

    def __init__(self, record, name):
        self._record = record
        self._name = name
        self._compiled = {}

    def __call__(self, *args):
        leaves, treedef = _tree.flatten(args)
        if _tracing_graph(leaves) is not None:
            return self._record(*args)
        leaves = [_as_array(leaf) for leaf in leaves]
        positions = tuple(i for i, leaf in enumerate(leaves)
                          if isinstance(leaf, np.ndarray))
        statics = tuple((i, type(leaf), leaf) for i, leaf in
                        enumerate(leaves) if i not in positions)
        key = (treedef, positions, statics)
        try:
            hash(key)
        except TypeError:
            raise TypeError(f"{self._name}: arguments must be arrays, Python "
                            "scalars or pytrees of them") from None
        call = self._compiled.get(key)
        if call is None:
            call = self._compiled[key] = self._compile(
                treedef, positions, statics, len(leaves))
        return call(*(leaves[i] for i in positions))

    def _compile(self, treedef, positions, statics, count):
        structure = {}

        def flat(*arrays):
            leaves = [None] * count
            for i, array in zip(positions, arrays):
                leaves[i] = array
            for i, _, value in statics:
                leaves[i] = value
            result = self._record(*_tree.unflatten(treedef, leaves))
            result_leaves, structure["treedef"] = _tree.flatten(result)
            return tuple(result_leaves)

        flat.__signature__ = inspect.Signature([
            inspect.Parameter(f"a{i}", inspect.Parameter.POSITIONAL_ONLY)
            for i in range(len(positions))])
        flat.__name__ = self._name.replace(".", "_")
        compiled = staged_jit(flat)

        def call(*arrays):
            results = compiled(*arrays)  # traces `flat` on a new signature
            return _tree.unflatten(structure["treedef"], results)

        return call


def declare_vjp(graph, name, operand_types, out_types, wrt):
    """Declares in `graph` the VJP of its private function `name` with
    respect to operands `wrt`; returns the declaration's name."""
    vjp_name = graph.unique_function_name(name + "_vjp")
    wrt_list = ", ".join(str(k) for k in wrt)
    graph.functions[vjp_name] = (
        f"func.func private @{vjp_name}("
        + ", ".join(list(operand_types) + list(out_types)) + ") -> ("
        + ", ".join(list(out_types) + [operand_types[k] for k in wrt])
        + ") attributes {google.vjp = {of = @" + name + ", wrt = array<i64"
        + (": " + wrt_list if wrt else "") + ">}}\n")
    graph.vjps[vjp_name] = (name, tuple(wrt))
    return vjp_name


def _record_vjp(fn, args, argnums, where, split_output, cotangents_for):
    """Records, in the current trace, a call of the VJP of `fn` at `args`
    (positional): `split_output(sub_graph, out)` gives the traced function's
    output leaves and a rebuild function, `cotangents_for(graph, outputs)`
    their cotangents (Tracers of the caller's graph). Returns (rebuilt
    outputs, gradients of args[argnums] in their structures)."""
    leaves, treedef = _tree.flatten(args)
    graph = _tracing_graph(leaves)
    name = graph.unique_function_name(_name_of(fn))
    sub = Graph(name, parent=graph)
    owner = []  # the argument position of each leaf
    for position, arg in enumerate(args):
        owner.extend([position] * len(_tree.flatten(arg)[0]))
    sub_leaves, operands, wrt = [], [], []
    for index, leaf in enumerate(leaves):
        if owner[index] in argnums:
            leaf = _as_array(leaf)
        if not isinstance(leaf, (Tracer, np.ndarray)):
            sub_leaves.append(leaf)  # static: the traced function sees it
            continue
        if isinstance(leaf, np.ndarray):
            if leaf.dtype not in SUPPORTED_DTYPES:
                raise TypeError(f"{where}: argument {owner[index]} has dtype "
                                f"{leaf.dtype}")
            outer = graph.constant(leaf)
        else:
            outer = graph.lift(leaf)
        if owner[index] in argnums:
            if not is_float(leaf.dtype):
                raise TypeError(
                    f"{where}: argument {owner[index]} has dtype "
                    f"{leaf.dtype}; gradients are taken with respect to "
                    "float arrays")
            wrt.append((len(operands), index))
        operands.append(outer)
        sub_leaves.append(sub.argument(f"a{len(operands) - 1}", leaf.shape,
                                       leaf.dtype))
    with sub.tracing():
        out = fn(*_tree.unflatten(treedef, sub_leaves))
        outputs, rebuild = split_output(sub, out)
    sub.set_outputs(tuple(outputs))
    # Values of the caller's trace (or of traces around it) the function
    # closed over: extra arguments, constants to the gradient.
    for outer, _ in sub.captures:
        operands.append(graph.lift(outer))
    # The traced function, private, and its VJP's declaration.
    graph.adopt(sub)
    graph.functions[name] = sub.to_mlir(name, locations=True, private=True)
    graph.function_graphs[name] = sub
    vjp_name = declare_vjp(graph, name, [o.mlir_type for o in operands],
                           [o.mlir_type for o in sub.outputs],
                           [k for k, _ in wrt])
    cotangents = cotangents_for(graph, sub.outputs)
    result_types = [(o.shape, o.dtype) for o in sub.outputs]
    result_types += [(operands[k].shape, operands[k].dtype) for k, _ in wrt]
    results = graph.call(vjp_name, operands + cotangents, result_types)
    count = len(sub.outputs)
    grad_of_leaf = {i: r for (_, i), r in zip(wrt, results[count:])}
    grads = []
    for position in argnums:
        arg_leaves, arg_def = _tree.flatten(args[position])
        first = owner.index(position) if position in owner else 0
        grads.append(_tree.unflatten(
            arg_def, [grad_of_leaf.get(first + j)
                      for j in range(len(arg_leaves))]))
    return rebuild(results[:count]), grads


def _output_leaves(sub, tree, what):
    leaves, treedef = _tree.flatten(tree)
    traced = []
    for leaf in leaves:
        leaf = _as_array(leaf)
        if isinstance(leaf, np.ndarray):
            leaf = sub.constant(leaf)
        if not isinstance(leaf, Tracer):
            raise TypeError(f"{what} must hold arrays, got "
                            f"{type(leaf).__name__}")
        traced.append(leaf)
    return traced, treedef


def _value_and_grad_record(fn, argnums, has_aux, where, kind):
    def record(*args):
        single, nums = _normalize_argnums(argnums, len(args), where)

        def split_output(sub, out):
            if has_aux:
                if not (isinstance(out, (tuple, list)) and len(out) == 2):
                    raise TypeError(
                        f"{where}: has_aux=True needs {_name_of(fn)}() to "
                        f"return (value, aux), got {type(out).__name__}")
                value, aux = out
            else:
                value, aux = out, None
            value = _as_array(value)
            if isinstance(value, np.ndarray):
                value = sub.constant(value)
            if not isinstance(value, Tracer) or value.ndim != 0 or \
                    not is_float(value.dtype):
                what = (f"an array of shape {value.shape} and dtype "
                        f"{value.dtype}" if isinstance(value, Tracer)
                        else type(value).__name__)
                raise TypeError(f"{where}: {_name_of(fn)}() must return a "
                                f"rank-0 float array (a scalar), got {what}")
            aux_leaves, aux_def = _output_leaves(
                sub, aux, f"{where}: the aux output of {_name_of(fn)}()")

            def rebuild(results):
                return results[0], _tree.unflatten(aux_def, results[1:])
            return [value, *aux_leaves], rebuild

        def cotangents_for(graph, outputs):
            return ([graph.constant(np.ones((), outputs[0].dtype))] +
                    [graph.constant(np.zeros(o.shape, o.dtype))
                     for o in outputs[1:]])

        (value, aux), grads = _record_vjp(fn, list(args), nums, where,
                                          split_output, cotangents_for)
        grads = grads[0] if single else tuple(grads)
        if kind == "grad":
            return (grads, aux) if has_aux else grads
        return ((value, aux) if has_aux else value), grads
    return record


def _transform(fn, argnums, has_aux, kind):
    where = f"gm.{kind}({_name_of(fn)})"
    staged = _Staged(_value_and_grad_record(fn, argnums, has_aux, where,
                                            kind),
                     f"{_name_of(fn)}_{kind}")

    @functools.wraps(fn)
    def transformed(*args, **kwargs):
        return staged(*_bind_positional(fn, args, kwargs, where))
    return transformed


def grad(fn, argnums=0, has_aux=False):
    """The gradient of `fn` (which returns a rank-0 float array) with
    respect to its positional arguments `argnums` (an int or a tuple; the
    result follows), each a float array or a pytree of them. With
    `has_aux`, `fn` returns (value, aux) and the result is (grads, aux)."""
    if not callable(fn):
        raise TypeError(f"gm.grad: expected a function, got "
                        f"{type(fn).__name__}")
    return _transform(fn, argnums, has_aux, "grad")


def value_and_grad(fn, argnums=0, has_aux=False):
    """Like grad, returning (value, grads) (or ((value, aux), grads))."""
    if not callable(fn):
        raise TypeError(f"gm.value_and_grad: expected a function, got "
                        f"{type(fn).__name__}")
    return _transform(fn, argnums, has_aux, "value_and_grad")


def vjp(fn, *primals):
    """(fn(*primals), vjp_fn): vjp_fn(cotangent) gives the cotangents of
    every primal (a tuple), for a cotangent shaped like fn's output."""
    if not callable(fn):
        raise TypeError(f"gm.vjp: expected a function, got "
                        f"{type(fn).__name__}")
    where = f"gm.vjp({_name_of(fn)})"

    def forward_record(*args):
        return fn(*args)

    out = _Staged(forward_record, f"{_name_of(fn)}_forward")(*primals)

    def apply_record(primal_args, cotangent):
        def split_output(sub, result):
            return _output_leaves(sub, result, f"{where}: the output of "
                                  f"{_name_of(fn)}()")[0], lambda r: r

        def cotangents_for(graph, outputs):
            leaves, _ = _tree.flatten(cotangent)
            if len(leaves) != len(outputs):
                raise TypeError(f"{where}: the cotangent has {len(leaves)} "
                                f"arrays, the output {len(outputs)}")
            given = []
            for leaf, output in zip(leaves, outputs):
                leaf = _as_array(leaf)
                if tuple(leaf.shape) != output.shape:
                    raise TypeError(
                        f"{where}: a cotangent has shape {tuple(leaf.shape)}"
                        f", the output {output.shape}")
                if isinstance(leaf, np.ndarray):
                    leaf = graph.constant(leaf.astype(output.dtype))
                given.append(leaf)
            return given

        nums = tuple(range(len(primal_args)))
        _, grads = _record_vjp(fn, list(primal_args), nums, where,
                               split_output, cotangents_for)
        return tuple(grads)

    staged_apply = _Staged(apply_record, f"{_name_of(fn)}_vjp")

    def vjp_fn(cotangent):
        return staged_apply(tuple(primals), cotangent)
    return out, vjp_fn
