"""Tracing numpy-style code into the google dialect.

A traced function receives `Tracer`s in place of its array arguments. Each
operation on them records one google op (with NumPy's broadcasting and dtype
rules, and the user's file:line as its location) in the `Graph`, which
prints itself as an MLIR module. Shape and dtype mistakes are reported when
the op is recorded, naming the user's line.
"""

import contextlib
import itertools
import os
import re
import sys
import threading

import numpy as np

from ._op_table import OPS

# bf16 has no numpy type (Debian has no ml_dtypes): its values are uint16
# bits in this 2-byte dtype (`bits.view(gm.bfloat16)`; gm.to_bfloat16 and
# gm.from_bfloat16 convert).
bfloat16 = np.dtype([("bfloat16", "<u2")])

# Element types the google dialect takes from numpy arrays.
_MLIR_TYPES = {
    bfloat16: "bf16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.float64): "f64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.bool_): "i1",
}
SUPPORTED_DTYPES = tuple(_MLIR_TYPES)
# GOOGLE_RT_MAX_RANK: the most dimensions an argument or result may have.
MAX_RANK = 8


def is_float(dtype):
    return dtype.kind == "f" or dtype == bfloat16


def promote(a, b):
    """numpy's promotion, with bf16 below f32 (bf16 and f16 give f32) and
    integers promoting it to f64 as they do f16."""
    if a == b:
        return a
    if bfloat16 not in (a, b):
        return np.promote_types(a, b)
    other = b if a == bfloat16 else a
    if other.kind == "f":
        return np.promote_types(other, np.float32)
    return np.dtype(np.float64)


def to_bfloat16(values):
    """float arrays -> bf16 (round to nearest even; NaN stays NaN)."""
    floats = np.asarray(values, dtype=np.float32)
    bits = floats.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) &
                                           np.uint32(1))) >> np.uint32(16)
    quiet_nan = (bits >> np.uint32(16)) | np.uint32(0x40)
    rounded = np.where(np.isnan(floats), quiet_nan, rounded)
    return np.asarray(rounded, dtype=np.uint16).view(bfloat16)


def from_bfloat16(values):
    """bf16 arrays -> float32 (exact)."""
    bits = np.asarray(values).view(np.uint16).astype(np.uint32)
    return np.asarray(bits << np.uint32(16), dtype=np.uint32).view(np.float32)


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def dtype_name(dtype):
    return _MLIR_TYPES.get(np.dtype(dtype), str(dtype))


def format_shape(shape):
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + (
        ",)" if len(shape) == 1 else ")")


def tensor_type(shape, dtype):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{_MLIR_TYPES[np.dtype(dtype)]}>"


_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


def _is_internal(filename):
    """Frames of this package and of NumPy (np.sum, np.mean, ... call
    __array_function__ from `<__array_function__ internals>`)."""
    if filename.startswith("<") and filename.endswith("internals>"):
        return True
    path = os.path.abspath(filename)
    return os.path.dirname(path) == _PACKAGE_DIR or path.startswith(_NUMPY_DIR)


def user_location():
    """(file, line, column) of the innermost frame outside this package and
    NumPy."""
    frame = sys._getframe(1)
    while frame is not None and _is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0, 0)
    line, column = frame.f_lineno, 0
    try:
        positions = list(frame.f_code.co_positions())[frame.f_lasti // 2]
        if positions[0] is not None:
            line = positions[0]
        if positions[2] is not None:
            column = positions[2] + 1
    except (AttributeError, IndexError):
        pass
    return (frame.f_code.co_filename, line, column)


def trace_error(kind, message):
    """An exception of `kind` whose message starts with the user's line."""
    file, line, _ = user_location()
    return kind(f"{file}:{line}: {message}")


class Graph:
    """The ops one trace recorded, in order."""

    _active = threading.local()

    def __init__(self, name, parent=None, names_from=None):
        self.name = name
        # Function names taken in the module this graph's functions end in
        # (shared with the graphs it nests in, or `names_from`'s).
        source = parent or names_from
        self._taken_names = source._taken_names if source else set()
        # The graph whose trace records a call of this one (gm.grad): its
        # values used here become arguments (captures).
        self.parent = parent
        self.captures = []  # (outer Tracer, argument Tracer), in order
        self.arguments = []  # Tracers, in parameter order
        self.nodes = []  # every Tracer, in creation order
        self.outputs = None  # tuple of Tracers
        self.single_output = True
        self._constants = {}
        # Private functions the module needs besides this one (the traced
        # functions of gm.grad and their VJP declarations): name -> text.
        self.functions = {}
        # The traced graphs of those functions (gm.vmap batches them), and
        # the VJP declarations' (function, wrt operand indices).
        self.function_graphs = {}
        self.vjps = {}

    @classmethod
    def current(cls):
        """The graph whose function is being traced on this thread, or
        None."""
        stack = getattr(cls._active, "stack", None)
        return stack[-1] if stack else None

    @contextlib.contextmanager
    def tracing(self):
        """Marks this graph as the one being traced (gm.iota records into
        it)."""
        stack = getattr(Graph._active, "stack", None)
        if stack is None:
            stack = Graph._active.stack = []
        stack.append(self)
        try:
            yield self
        finally:
            stack.pop()

    def iota(self, shape, dimension, dtype):
        """google.iota: the indices along `dimension`, broadcast."""
        dtype = np.dtype(dtype)
        if dtype not in _MLIR_TYPES or dtype == np.bool_:
            raise trace_error(TypeError, f"iota: unsupported dtype {dtype}")
        shape = tuple(int(d) for d in shape)
        (dimension,) = _normalize_axes(dimension, len(shape), "iota")
        return Tracer(self, "iota", (), {"dimension": dimension}, shape,
                      dtype)

    def argument(self, name, shape, dtype):
        tracer = Tracer(self, "arg", (), {"name": name}, shape, dtype)
        self.arguments.append(tracer)
        return tracer

    def constant(self, value):
        """A google.constant holding the numpy array `value`."""
        value = np.array(value, order="C")  # (keeps rank 0)
        if value.dtype not in _MLIR_TYPES:
            raise trace_error(TypeError,
                              f"constants of dtype {value.dtype} are not "
                              f"supported ({_supported_names()})")
        key = (value.dtype.str, value.shape, value.tobytes())
        if key not in self._constants:
            self._constants[key] = Tracer(self, "constant", (),
                                          {"value": value}, value.shape,
                                          value.dtype)
        return self._constants[key]

    def set_outputs(self, result):
        if isinstance(result, (tuple, list)):
            self.single_output = False
            items = list(result)
        else:
            items = [result]
        outputs = []
        for index, item in enumerate(items):
            if isinstance(item, np.ndarray):
                item = self.constant(item)
            if not isinstance(item, Tracer):
                raise TypeError(
                    f"{self.name}() must return arrays computed from its "
                    f"arguments (or a tuple of them); result {index} is "
                    f"{type(item).__name__}")
            item = self.lift(item)
            if item.ndim > MAX_RANK:
                raise TypeError(
                    f"{self.name}() result {index} has rank {item.ndim}; "
                    f"compiled functions take and return at most {MAX_RANK} "
                    "dimensions")
            outputs.append(item)
        self.outputs = tuple(outputs)

    def _check_owner(self, tracer):
        if tracer.graph is not self and not self._is_ancestor(tracer.graph):
            raise trace_error(
                ValueError, "a traced value from another trace is used here "
                "(did a traced array escape a jitted function?)")

    def _is_ancestor(self, graph):
        parent = self.parent
        while parent is not None:
            if parent is graph:
                return True
            parent = parent.parent
        return False

    def lift(self, tracer):
        """`tracer` as a value of this graph: a value of an enclosing trace
        (a closure's) becomes an argument, once."""
        self._check_owner(tracer)
        if tracer.graph is self:
            return tracer
        for outer, inner in self.captures:
            if outer is tracer:
                return inner
        inner = self.argument(f"captured{len(self.captures)}", tracer.shape,
                              tracer.dtype)
        self.captures.append((tracer, inner))
        return inner

    def call(self, callee, operands, result_types):
        """A func.call of `callee` (a function in self.functions) with
        `operands` (Tracers of this graph); one Tracer per result, given as
        (shape, dtype) pairs."""
        for operand in operands:
            self._check_owner(operand)
        node = Tracer(self, "call", tuple(operands),
                      {"callee": callee, "results": tuple(result_types)},
                      (), np.float32)
        return [Tracer(self, "result", (node,), {"index": index}, shape,
                       dtype)
                for index, (shape, dtype) in enumerate(result_types)]

    def adopt(self, sub):
        """Takes over the private functions a sub-trace recorded."""
        self.functions.update(sub.functions)
        self.function_graphs.update(sub.function_graphs)
        self.vjps.update(sub.vjps)
        sub.functions, sub.function_graphs, sub.vjps = {}, {}, {}

    def unique_function_name(self, base):
        """A name for a new private function, unused in this module (the
        prefix keeps it apart from the traced function's own name); the
        graphs nested in this one draw from the same names."""
        base = "__gm_" + "".join(c if c.isascii() and (c.isalnum() or c == "_")
                                 else "_" for c in base)
        name, index = base, 0
        while name in self._taken_names or name in self.functions:
            index += 1
            name = f"{base}_{index}"
        self._taken_names.add(name)
        return name

    def live_nodes(self):
        """The nodes the outputs depend on, in creation order."""
        live = set()
        stack = list(self.outputs)
        while stack:
            node = stack.pop()
            if id(node) in live:
                continue
            live.add(id(node))
            stack.extend(node.operands)
        return [n for n in self.nodes if id(n) in live and n.op != "arg"]

    def _body_lines(self, names, counter, indent, locations):
        """The ops of this graph's live nodes, named from `counter` on (a
        function's names are unique across its regions)."""
        lines = []
        for node in self.live_nodes():
            if node.op == "result":
                (call,) = node.operands
                names[id(node)] = f"{names[id(call)]}#{node.attrs['index']}"
                continue
            names[id(node)] = f"%{counter[0]}"
            counter[0] += 1
            target = names[id(node)]
            if node.op == "call":
                result_types = node.attrs["results"]
                operands = ", ".join(names[id(o)] for o in node.operands)
                text = (f"func.call @{node.attrs['callee']}({operands}) : ("
                        + ", ".join(o.mlir_type for o in node.operands)
                        + ") -> (" + ", ".join(tensor_type(shape, dtype)
                                               for shape, dtype in
                                               result_types) + ")")
                target = f"{names[id(node)]}:{len(result_types)}"
            elif node.op in ("if", "while"):
                text = self._region_op_text(node, names, counter, indent,
                                            locations)
                count = len(node.attrs["then"].outputs) if node.op == "if" \
                    else node.attrs["state"]
                target = f"{names[id(node)]}:{count}" if count else None
            else:
                text = _format_op(node, names)
            if locations:
                file, line, column = node.location
                text += f' loc("{_escape(file)}":{line}:{column})'
            lines.append(f"{indent}{target} = {text}" if target
                         else f"{indent}{text}")
        return lines

    def _region_op_text(self, node, names, counter, indent, locations):
        """google.if / google.while with its regions (several lines)."""
        inner = indent + "  "

        def region(graph, terminator, block_args):
            for outer, arg in graph.captures:
                names[id(arg)] = names[id(self.lift(outer))]
            body = []
            if block_args:
                params = []
                for arg in graph.arguments:
                    if any(arg is a for _, a in graph.captures):
                        continue
                    names[id(arg)] = f"%{counter[0]}"
                    counter[0] += 1
                    params.append(f"{names[id(arg)]}: {arg.mlir_type}")
                body.append(f"{indent}^bb0({', '.join(params)}):")
            body += graph._body_lines(names, counter, inner, locations)
            values = ", ".join(names[id(o)] for o in graph.outputs)
            types = ", ".join(o.mlir_type for o in graph.outputs)
            if terminator == "google.condition":
                body.append(f"{inner}google.condition {values} : {types}")
            elif graph.outputs:
                body.append(f"{inner}google.yield {values} : {types}")
            else:
                body.append(f"{inner}google.yield")
            return "{\n" + "\n".join(body) + f"\n{indent}}}"

        if node.op == "if":
            pred = node.operands[0]
            outputs = node.attrs["then"].outputs
            results = ", ".join(o.mlir_type for o in outputs)
            head = (f"google.if {names[id(pred)]} : {pred.mlir_type}"
                    + (f" -> ({results})" if outputs else ""))
            return (f"{head} {region(node.attrs['then'], 'google.yield', False)}"
                    f" else {region(node.attrs['else'], 'google.yield', False)}")
        state = node.operands[:node.attrs["state"]]
        types = ", ".join(s.mlir_type for s in state)
        trips = node.attrs.get("trip_count")
        attrs = "" if trips is None else f" {{trip_count = {trips} : i64}}"
        head = (f"google.while {', '.join(names[id(s)] for s in state)}"
                f"{attrs} : ({types}) -> ({types})")
        return (f"{head} cond "
                f"{region(node.attrs['cond'], 'google.condition', True)} do "
                f"{region(node.attrs['body'], 'google.yield', True)}")

    def to_mlir(self, function_name, locations=False, private=False):
        """The module: one public function `function_name` (private with
        `private`), then the functions it calls."""
        names = {}
        for index, arg in enumerate(self.arguments):
            names[id(arg)] = "%" + _ssa_name(arg.attrs["name"], index)
        params = ", ".join(f"{names[id(a)]}: {a.mlir_type}"
                           for a in self.arguments)
        results = ", ".join(o.mlir_type for o in self.outputs)
        visibility = "private " if private else ""
        lines = [f"func.func {visibility}@{function_name}({params}) -> "
                 f"({results}) {{"]
        lines += self._body_lines(names, [0], "  ", locations)
        returned = ", ".join(names[id(o)] for o in self.outputs)
        lines.append(f"  func.return {returned} : {results}")
        lines.append("}")
        for text in self.functions.values():
            lines.append(text.rstrip("\n"))
        return "\n".join(lines) + "\n"


def _ssa_name(name, index):
    """`name` as an MLIR SSA name: ASCII letters, digits and _ are kept;
    a name with other characters (`α`) is mangled and gets `.index`, which
    no Python identifier has, so that names stay apart."""
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_"
                      for c in name)
    if not cleaned or cleaned[0].isdigit():
        return f"arg{index}"
    return cleaned if cleaned == name else f"{cleaned}.{index}"


def _escape(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _i64_array(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def _dense(value):
    """The dense attribute of a numpy array, exact (hex bytes)."""
    if value.dtype == np.bool_:
        def nested(a):
            if a.ndim == 0:
                return "true" if a else "false"
            return "[" + ", ".join(nested(x) for x in a) + "]"
        if value.size and np.all(value == value.reshape(-1)[0]):
            return f"dense<{nested(value.reshape(-1)[0])}>"
        return f"dense<{nested(value)}>"
    if value.size == 1 and is_float(value.dtype):
        bits = value.view(f"u{value.dtype.itemsize}").reshape(-1)[0]
        return f"dense<0x{int(bits):0{2 * value.dtype.itemsize}X}>"
    if value.size == 1:
        return f"dense<{int(value.reshape(-1)[0])}>"
    data = value.astype(value.dtype.newbyteorder("<"), copy=False).tobytes()
    return f'dense<"0x{data.hex().upper()}">'


_FORMAT_TOKEN = re.compile(r"`[^`]*`|type\(\$\w+\)|\$\w+|attr-dict")
# An optional group, `(...)?`, printed when its anchor operand `$name^` is
# there (google.iota's `like`).
_OPTIONAL_GROUP = re.compile(
    r"\(((?:`[^`]*`|type\(\$\w+\)|[^()`])*)\)\?")
_ANCHOR = re.compile(r"\$(\w+)\^")


def _format_attribute(kind, value, node):
    if kind == "DenseI64ArrayAttr":
        return "array<i64" + "".join(
            (": " if i == 0 else ", ") + str(int(v))
            for i, v in enumerate(value)) + ">"
    if kind == "BoolAttr":
        return "true" if value else "false"
    if kind == "I64Attr":
        return f"{int(value)} : i64"
    if kind == "ElementsAttr":
        return f"{_dense(value)} : {node.mlir_type}"
    raise NotImplementedError(f"attributes of kind {kind}")


def _format_op(node, names):
    """The op in its custom syntax, from its assembly format in the op
    table."""
    spec = OPS[node.op]
    if spec["variadic"]:
        # One variadic operand group: every operand of the node.
        (group,) = spec["variadic"]
        operands = {group: node.operands}
    else:
        operands = dict(zip(spec["operands"], node.operands))
    attribute_kinds = dict(spec["attributes"])
    tokens = _FORMAT_TOKEN.findall(_OPTIONAL_GROUP.sub(
        lambda group: group.group(1).replace("^", "")
        if operands.get(_ANCHOR.search(group.group(1)).group(1)) is not None
        else "",
        spec["format"]))
    inline = {t[1:] for t in tokens if t[1:] in attribute_kinds}
    text = ["google." + node.op]
    for token in tokens:
        if token == "attr-dict":
            entries = [f"{name} = "
                       f"{_format_attribute(kind, node.attrs[name], node)}"
                       for name, kind in spec["attributes"]
                       if name not in inline]
            if entries:
                text.append("{" + ", ".join(entries) + "}")
        elif token.startswith("`"):
            literal = token[1:-1]
            if literal == ",":
                text[-1] += ","
            else:
                text.append(literal)
        elif token.startswith("type("):
            name = token[6:-1]
            value = operands.get(name, node)
            text.append(", ".join(o.mlir_type for o in value)
                        if isinstance(value, tuple) else value.mlir_type)
        elif token[1:] in operands:
            value = operands[token[1:]]
            text.append(", ".join(names[id(o)] for o in value)
                        if isinstance(value, tuple) else names[id(value)])
        else:
            text.append(_format_attribute(attribute_kinds[token[1:]],
                                          node.attrs[token[1:]], node))
    return " ".join(text)


# Ops the dialect computes element by element with one operand (not cast),
# and ops that take floats only (integers are converted to float64 first).
_UNARY_OPS = tuple(name for name, op in OPS.items()
                   if op["elementwise"] and name != "cast" and
                   len(op["operands"]) == 1)
_FLOAT_ONLY = tuple(name for name, op in OPS.items() if op["float_only"])
# The ops on booleans.
_LOGICAL = ("and", "or", "xor")
_COMPARISONS = {"equal": "eq", "not_equal": "ne", "less": "lt",
                "less_equal": "le", "greater": "gt", "greater_equal": "ge"}


def _supported_names():
    return ", ".join(numpy_name(d) for d in SUPPORTED_DTYPES)


def numpy_name(dtype):
    return "bfloat16" if dtype == bfloat16 else str(dtype)


def _is_scalar(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and \
        not isinstance(value, (bool, np.bool_))


def _scalar_dtype(value, other):
    """The dtype a Python scalar takes next to an array of dtype `other`."""
    if isinstance(value, (float, np.floating)):
        return other if is_float(other) else np.dtype(np.float64)
    info = np.iinfo(other) if other.kind == "i" else None
    if info is not None and not info.min <= int(value) <= info.max:
        return np.dtype(np.int64)
    return other


def broadcast_shapes(a, b, what):
    result = []
    for da, db in itertools.zip_longest(reversed(a), reversed(b),
                                        fillvalue=1):
        if da == db or db == 1:
            result.append(da)
        elif da == 1:
            result.append(db)
        elif da is None or db is None:
            # A dynamic extent must equal the other at run time.
            result.append(db if da is None else da)
        else:
            raise trace_error(
                ValueError, f"{what}: shapes {format_shape(a)} and "
                f"{format_shape(b)} do not broadcast ({da} vs {db})")
    return tuple(reversed(result))


def _normalize_axes(axis, rank, what):
    if axis is None:
        return tuple(range(rank))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    normalized = []
    for a in axes:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise trace_error(TypeError, f"{what}: axis must be an int or a "
                              f"tuple of ints, got {axis!r}")
        if not -rank <= a < rank:
            raise trace_error(ValueError, f"{what}: axis {a} is out of range "
                              f"for an array of rank {rank}")
        normalized.append(int(a) % rank)
    if len(set(normalized)) != len(normalized):
        raise trace_error(ValueError, f"{what}: repeated axis in {axis!r}")
    return tuple(sorted(normalized))


class Tracer:
    """An array inside a traced function: records google ops."""

    # numpy defers to these methods for mixed expressions (ndarray + Tracer).
    __array_priority__ = 1000

    def __init__(self, graph, op, operands, attrs, shape, dtype):
        self.graph = graph
        self.op = op
        self.operands = operands
        self.attrs = attrs
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.location = user_location()
        graph.nodes.append(self)

    # Properties numpy users reach for.
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        if None in self.shape:
            return None
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def mlir_type(self):
        return tensor_type(self.shape, self.dtype)

    @property
    def T(self):
        return self.transpose()

    def __repr__(self):
        return (f"Tracer(shape={format_shape(self.shape)}, "
                f"dtype={self.dtype})")

    # Values the trace cannot know.
    def __bool__(self):
        raise trace_error(
            TypeError, "the truth value of a traced array is not known while "
            "tracing: Python control flow on array values cannot be "
            "compiled (use gm.maximum/gm.minimum, or a static argument)")

    def __array__(self, dtype=None):
        raise trace_error(
            TypeError, "a traced array cannot become a numpy array while "
            "tracing (use google_mlir functions, or gm.disable_jit() to run "
            "eagerly)")

    def _compare(self, op, other, reverse=False):
        """google.<op> (eq, ne, lt, ...): booleans, comparing in the
        promoted dtype as numpy does."""
        what, lhs, rhs, dtype = self._operands(op, other, reverse)
        if dtype == np.bool_:
            # numpy orders False < True: compare as integers.
            dtype = np.dtype(np.int32)
        return self._broadcasting(op, what, lhs, rhs, dtype,
                                  np.dtype(np.bool_))

    def _operands(self, op, other, reverse):
        """google.<op>'s name, operands (as tracers) and promoted dtype."""
        what = "google." + op
        other = self._as_tracer(other, self, what)
        lhs, rhs = (other, self) if reverse else (self, other)
        return what, lhs, rhs, promote(lhs.dtype, rhs.dtype)

    def _broadcasting(self, op, what, lhs, rhs, dtype, result_dtype):
        """google.<op> on lhs and rhs cast to `dtype`, broadcast."""
        if dtype not in _MLIR_TYPES:
            raise trace_error(TypeError, f"{what}: unsupported dtype {dtype}")
        shape = broadcast_shapes(lhs.shape, rhs.shape, what)
        return self._new(op, (lhs.astype(dtype), rhs.astype(dtype)), {},
                         shape, result_dtype)

    def __eq__(self, other):
        return self._compare("eq", other)

    def __ne__(self, other):
        return self._compare("ne", other)

    def __lt__(self, other):
        return self._compare("lt", other)

    def __le__(self, other):
        return self._compare("le", other)

    def __gt__(self, other):
        return self._compare("gt", other)

    def __ge__(self, other):
        return self._compare("ge", other)

    # == builds a comparison: tracers hash (and are found) by identity.
    __hash__ = object.__hash__

    def __and__(self, other):
        return self._binary("and", other)

    __rand__ = __and__

    def __or__(self, other):
        return self._binary("or", other)

    __ror__ = __or__

    def __xor__(self, other):
        return self._binary("xor", other)

    __rxor__ = __xor__

    def __invert__(self):
        return self._unary("not")

    def __getitem__(self, index):
        """numpy's basic indexing: ints (dropping their dimension), slices
        (negative steps too), `...` and None: a google.slice, then a
        reshape for the dimensions dropped or added."""
        items = index if isinstance(index, tuple) else (index,)
        arrays = [i for i, item in enumerate(items)
                  if isinstance(item, (Tracer, np.ndarray, list))]
        if arrays:
            return self._gather_index(items, arrays)
        for item in items:
            if isinstance(item, (bool, np.bool_)):
                raise trace_error(TypeError, "indexing a traced array with "
                                  "a bool is not supported (its result "
                                  "shape depends on the values)")
            if not (item is None or item is Ellipsis or
                    isinstance(item, (int, np.integer, slice))):
                raise trace_error(TypeError, "traced arrays are indexed by "
                                  "ints, slices, ... and None, not "
                                  f"{type(item).__name__}")
        if sum(item is Ellipsis for item in items) > 1:
            raise trace_error(IndexError, "an index can only have a single "
                              "ellipsis ('...')")
        used = sum(1 for item in items if item is not None and
                   item is not Ellipsis)
        if used > self.ndim:
            raise trace_error(IndexError, f"too many indices: the array has "
                              f"{self.ndim} dimensions, {used} were indexed")
        full = []
        for item in items:
            if item is Ellipsis:
                full.extend([slice(None)] * (self.ndim - used))
            else:
                full.append(item)
        if Ellipsis not in items:
            full.extend([slice(None)] * (self.ndim - used))
        starts, limits, strides, window, shape = [], [], [], [], []
        dim = 0
        for item in full:
            if item is None:
                shape.append(1)
                continue
            size = self.shape[dim]
            if size is None:
                raise trace_error(TypeError, "indexing needs static "
                                  "dimensions")
            if isinstance(item, slice):
                start, limit, stride = item.indices(size)
                extent = len(range(start, limit, stride))
                shape.append(extent)
            else:
                start = int(item) + (size if int(item) < 0 else 0)
                if not 0 <= start < size:
                    raise trace_error(IndexError, f"index {int(item)} is out "
                                      f"of bounds for axis {dim} with size "
                                      f"{size}")
                limit, stride, extent = start + 1, 1, 1
            starts.append(start)
            limits.append(limit)
            strides.append(stride)
            window.append(extent)
            dim += 1
        result = self
        if window != list(self.shape) or any(s != 1 for s in strides):
            result = self._new("slice", (self,), {
                "starts": tuple(starts), "limits": tuple(limits),
                "strides": tuple(strides)}, tuple(window), self.dtype)
        return result.reshape(tuple(shape)) if tuple(shape) != \
            tuple(window) else result

    def _gather_index(self, items, arrays):
        """x[..., idx, ...] with one integer array: the basic indexing of
        the other items, then a gather (numpy.take) on the array's axis."""
        if len(arrays) > 1:
            raise trace_error(TypeError, "indexing a traced array with "
                              "more than one array is not supported (one "
                              "integer array, on one axis, is)")
        (at,) = arrays
        ints = [i for i, item in enumerate(items)
                if isinstance(item, (int, np.integer)) and
                not isinstance(item, (bool, np.bool_))]
        block = sorted(ints + [at])
        if block and block[-1] - block[0] + 1 != len(block):
            raise trace_error(TypeError, "an integer array index and "
                              "integer indices separated by slices (numpy "
                              "then moves the indexed dimensions first) "
                              "are not supported")
        # The array's axis in the result of the basic indexing: the
        # dimensions the items before it leave.
        before = items[:at]
        if Ellipsis in before:
            used = sum(1 for item in items if item is not None and
                       item is not Ellipsis)
            axis = sum(1 for item in before if item is not Ellipsis and
                       not isinstance(item, (int, np.integer))) + \
                (self.ndim - used)
        else:
            axis = sum(1 for item in before
                       if not isinstance(item, (int, np.integer)))
        rest = items[:at] + (slice(None),) + items[at + 1:]
        basic = self[rest]
        return take(basic, items[at], axis=axis)

    def argmax(self, axis=None, keepdims=False):
        return _arg_reduce(self, "argmax", axis, keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _arg_reduce(self, "argmin", axis, keepdims)

    def __len__(self):
        if not self.shape or self.shape[0] is None:
            raise trace_error(TypeError, "len() of a traced array needs a "
                              "static leading dimension")
        return self.shape[0]

    def __iter__(self):
        raise trace_error(TypeError, "iterating over a traced array is not "
                          "supported by google_mlir.jit")

    # Recording.
    def _new(self, op, operands, attrs, shape, dtype):
        # Recorded in the innermost trace, which captures values of the
        # traces around it.
        graph = self.graph
        current = Graph.current()
        if current is not None and current is not graph and \
                current._is_ancestor(graph):
            graph = current
        operands = tuple(graph.lift(operand) for operand in operands)
        return Tracer(graph, op, operands, attrs, shape, dtype)

    def _as_tracer(self, value, like, what):
        if isinstance(value, Tracer):
            return value
        if _is_scalar(value):
            dtype = _scalar_dtype(value, like.dtype)
            return self.graph.constant(
                to_bfloat16(value) if dtype == bfloat16 else
                np.array(value, dtype=dtype))
        if isinstance(value, np.ndarray):
            if value.dtype not in _MLIR_TYPES:
                raise trace_error(TypeError, f"{what}: arrays of dtype "
                                  f"{value.dtype} are not supported "
                                  f"({_supported_names()})")
            return self.graph.constant(value)
        raise trace_error(TypeError, f"{what}: unsupported operand of type "
                          f"{type(value).__name__}")

    def astype(self, dtype):
        requested = dtype
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            dtype = None
        if dtype not in _MLIR_TYPES:
            raise trace_error(TypeError, "cast: unsupported dtype "
                              f"{requested if dtype is None else dtype!s} "
                              f"({_supported_names()})")
        if dtype == self.dtype:
            return self
        return self._new("cast", (self,), {}, self.shape, dtype)

    def _float(self):
        """This array as floats, as numpy computes float ops on integers."""
        return self if is_float(self.dtype) else self.astype(np.float64)

    def _binary(self, op, other, reverse=False):
        what, lhs, rhs, dtype = self._operands(op, other, reverse)
        if (dtype == np.bool_) != (op in _LOGICAL):
            raise trace_error(TypeError, f"{what} on "
                              f"{'booleans' if dtype == np.bool_ else dtype} "
                              "is not supported" + (
                                  " (cast them with astype)"
                                  if dtype == np.bool_ else
                                  ": & | ^ and ~ take booleans"))
        if op in _FLOAT_ONLY and not is_float(dtype):
            if op == "pow":
                # numpy raises integers to integer powers exactly (a
                # negative power is an error): not a float op.
                raise trace_error(TypeError, "x ** y on integer arrays is "
                                  "not supported (cast one to a float "
                                  "type); integer scalar powers are")
            dtype = np.dtype(np.float64)
        return self._broadcasting(op, what, lhs, rhs, dtype, dtype)

    def _unary(self, op):
        if (self.dtype == np.bool_) != (op == "not"):
            raise trace_error(TypeError, f"google.{op} on "
                              f"{'booleans' if op != 'not' else self.dtype} "
                              "is not supported" + (
                                  " (cast them with astype)"
                                  if op != "not" else
                                  ": ~ takes booleans"))
        operand = self._float() if op in _FLOAT_ONLY else self
        return self._new(op, (operand,), {}, operand.shape, operand.dtype)

    def __add__(self, other):
        return self._binary("add", other)

    def __radd__(self, other):
        return self._binary("add", other, reverse=True)

    def __sub__(self, other):
        return self._binary("sub", other)

    def __rsub__(self, other):
        return self._binary("sub", other, reverse=True)

    def __mul__(self, other):
        return self._binary("mul", other)

    def __rmul__(self, other):
        return self._binary("mul", other, reverse=True)

    def __truediv__(self, other):
        return self._binary("div", other)

    def __rtruediv__(self, other):
        return self._binary("div", other, reverse=True)

    def __matmul__(self, other):
        return matmul(self, self._as_tracer(other, self, "matmul"))

    def __rmatmul__(self, other):
        return matmul(self._as_tracer(other, self, "matmul"), self)

    def __neg__(self):
        # google.neg on every float type (bf16 included: 0 - x would turn
        # -(+0) into +0); integers negate as 0 - x.
        if not is_float(self.dtype):
            return self._binary("sub", 0, reverse=True)
        return self._unary("neg")

    def __pos__(self):
        return self

    def __abs__(self):
        return self._unary("abs")

    def __pow__(self, exponent):
        if isinstance(exponent, (float, np.floating)) and \
                not is_float(self.dtype):
            # NumPy: an integer base to a float power is float64.
            return self.astype(np.float64) ** exponent
        if isinstance(exponent, (int, np.integer)) and \
                not isinstance(exponent, bool) and not is_float(self.dtype):
            # Integer powers of integers multiply (wrapping, as numpy).
            if exponent < 0:
                raise trace_error(ValueError, "integers to negative integer "
                                  "powers are not allowed")
            result, base, n = None, self, int(exponent)
            while n:
                if n & 1:
                    result = base if result is None else result * base
                n >>= 1
                if n:
                    base = base * base
            return result if result is not None else \
                self._binary("mul", 0)._binary("add", 1)
        # numpy's fast paths for float arrays and these scalar powers.
        if isinstance(exponent, (int, float, np.integer, np.floating)) and \
                not isinstance(exponent, bool):
            if exponent == 2:
                return self * self
            if exponent == 1:
                return self
            if exponent == 0.5:
                return self._unary("sqrt")
            if exponent == -1:
                return self._binary("div", 1, reverse=True)
        return self._binary("pow", exponent)

    def __rpow__(self, base):
        return self._binary("pow", base, reverse=True)

    def __floordiv__(self, other):
        return self._binary("floor_div", other)

    def __rfloordiv__(self, other):
        return self._binary("floor_div", other, reverse=True)

    def __mod__(self, other):
        return self._binary("rem", other)

    def __rmod__(self, other):
        return self._binary("rem", other, reverse=True)

    def __divmod__(self, other):
        return self // other, self % other

    def __rdivmod__(self, other):
        return other // self, other % self

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(reversed(range(self.ndim)))
        if sorted(int(a) % max(self.ndim, 1) for a in axes) != list(
                range(self.ndim)) or len(axes) != self.ndim:
            raise trace_error(ValueError, f"transpose: axes {axes!r} are not "
                              f"a permutation of {self.ndim} dimensions")
        perm = tuple(int(a) % self.ndim for a in axes)
        if perm == tuple(range(self.ndim)):
            return self
        shape = tuple(self.shape[p] for p in perm)
        return self._new("transpose", (self,), {"perm": perm}, shape,
                         self.dtype)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        try:
            shape = tuple(int(d) for d in shape)
        except (TypeError, ValueError):
            raise trace_error(TypeError, f"reshape: the new shape must be "
                              f"ints, got {shape!r}") from None
        if shape.count(-1) > 1 or any(d < -1 for d in shape):
            raise trace_error(ValueError, f"reshape: invalid shape {shape!r}")
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        size = self.size
        if -1 in shape:
            if size is None or known == 0:
                inferred = None
            elif size % known:
                raise trace_error(
                    ValueError, f"reshape: cannot reshape "
                    f"{format_shape(self.shape)} into {shape!r}")
            else:
                inferred = size // known
            shape = tuple(inferred if d == -1 else d for d in shape)
        elif size is not None and size != known:
            raise trace_error(
                ValueError, f"reshape: cannot reshape {size} elements "
                f"{format_shape(self.shape)} into {format_shape(shape)}")
        if shape == self.shape:
            return self
        return self._new("reshape", (self,), {}, shape, self.dtype)

    def _reduce(self, op, axis, keepdims):
        what = "google." + op
        axes = _normalize_axes(axis, self.ndim, what)
        operand = self._float() if op in _FLOAT_ONLY else self
        if operand.dtype == np.bool_:
            if op in ("reduce_max", "reduce_min"):
                raise trace_error(TypeError, f"{op[7:]} of booleans is not "
                                  "supported (cast them with astype)")
            operand = operand.astype(np.int64)  # as numpy counts them
        if op in ("reduce_sum", "reduce_prod") and operand.dtype == np.int32:
            operand = operand.astype(np.int64)  # as numpy sums integers
        if not axes:
            return operand
        if keepdims:
            shape = tuple(1 if i in axes else d
                          for i, d in enumerate(self.shape))
        else:
            shape = tuple(d for i, d in enumerate(self.shape)
                          if i not in axes)
        return self._new(op, (operand,), {"axes": axes,
                                          "keep_dims": bool(keepdims)},
                         shape, operand.dtype)

    def clip(self, min=None, max=None):
        return clip(self, min, max)

    def sum(self, axis=None, keepdims=False):
        return self._reduce("reduce_sum", axis, keepdims)

    def max(self, axis=None, keepdims=False):
        axes = _normalize_axes(axis, self.ndim, "google.reduce_max")
        if any(self.shape[a] == 0 for a in axes):
            raise trace_error(ValueError, "max of an empty axis: a maximum "
                              "of no elements has no value (as in numpy)")
        return self._reduce("reduce_max", axis, keepdims)

    def min(self, axis=None, keepdims=False):
        axes = _normalize_axes(axis, self.ndim, "google.reduce_min")
        if any(self.shape[a] == 0 for a in axes):
            raise trace_error(ValueError, "min of an empty axis: a minimum "
                              "of no elements has no value (as in numpy)")
        return self._reduce("reduce_min", axis, keepdims)

    def prod(self, axis=None, keepdims=False):
        return self._reduce("reduce_prod", axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return self._reduce("reduce_mean", axis, keepdims)

    # numpy functions and ufuncs applied to tracers.
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        handler = _UFUNCS.get(ufunc)
        if method != "__call__" or kwargs or handler is None:
            raise trace_error(
                TypeError, f"numpy.{ufunc.__name__}"
                f"{'' if method == '__call__' else '.' + method}"
                f"{' with ' + ', '.join(kwargs) if kwargs else ''} is not "
                "supported on traced arrays (supported ufuncs: "
                f"{', '.join(sorted(u.__name__ for u in _UFUNCS))})")
        return handler(*inputs)

    def __array_function__(self, func, types, args, kwargs):
        handler = _FUNCTIONS.get(func)
        if handler is None:
            raise trace_error(
                TypeError, f"numpy.{func.__name__} is not supported on traced "
                "arrays (supported: "
                f"{', '.join(sorted({f.__name__ for f in _FUNCTIONS}))})")
        return handler(*args, **kwargs)


def _first_tracer(*values):
    for value in values:
        if isinstance(value, Tracer):
            return value
    return None


def binary(op, a, b):
    """google.<op>(a, b) with broadcasting; one of them is a Tracer."""
    tracer = _first_tracer(a, b)
    if tracer is a:
        return a._binary(op, b)
    return b._binary(op, a, reverse=True)


def matmul(a, b):
    tracer = _first_tracer(a, b)
    a = tracer._as_tracer(a, tracer, "matmul")
    b = tracer._as_tracer(b, tracer, "matmul")
    dtype = promote(a.dtype, b.dtype)
    a, b = a.astype(dtype), b.astype(dtype)

    def mismatch(detail):
        return trace_error(
            ValueError, f"matmul: shapes {format_shape(a.shape)} and "
            f"{format_shape(b.shape)} are not aligned{detail}")

    # Vectors, as numpy treats them: a row or a column, dropped again.
    if a.ndim == 1 or b.ndim == 1:
        if a.ndim == 0 or b.ndim == 0 or max(a.ndim, b.ndim) > 2:
            raise mismatch(" (google_mlir supports vectors with matrices)")
        lhs = a.reshape(1, -1) if a.ndim == 1 else a
        rhs = b.reshape(-1, 1) if b.ndim == 1 else b
        product = matmul(lhs, rhs)
        if a.ndim == 1 and b.ndim == 1:
            return product.reshape(())
        return product.reshape(-1)
    if (a.ndim, b.ndim) == (3, 2):
        # Every batch's rows times one matrix, as one matmul.
        batch, rows, depth = a.shape
        if None in (rows, depth, b.shape[1]):
            raise mismatch(" ((B,M,K)@(K,N) needs static M, K and N)")
        product = matmul(a.reshape(-1, depth), b)
        return product.reshape(-1 if batch is None else batch, rows,
                               b.shape[1])
    if (a.ndim, b.ndim) not in ((2, 2), (3, 3)):
        raise mismatch(" (google_mlir supports (M,K)@(K,N), (B,M,K)@(B,K,N) "
                       "and (B,M,K)@(K,N))")
    k_a, k_b = a.shape[-1], b.shape[-2]
    if k_a is not None and k_b is not None and k_a != k_b:
        raise mismatch(f": {k_a} (dim {a.ndim - 1}) != {k_b} "
                       f"(dim {b.ndim - 2})")
    shape = (a.shape[-2], b.shape[-1])
    if a.ndim == 3:
        batch_a, batch_b = a.shape[0], b.shape[0]
        if batch_a is not None and batch_b is not None and \
                batch_a != batch_b:
            raise mismatch(f": batch {batch_a} != {batch_b}")
        shape = (batch_a if batch_a is not None else batch_b,) + shape
    return tracer._new("matmul", (a, b), {}, shape, dtype)


def softmax(x, axis=-1):
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise trace_error(TypeError, "google.softmax: axis must be an int, "
                          f"got {axis!r}")
    (axis,) = _normalize_axes(axis, x.ndim, "google.softmax")
    operand = x._float()
    return x._new("softmax", (operand,), {"axis": axis}, operand.shape,
                  operand.dtype)


def _reduce_function(method):
    def reduce(a, axis=None, keepdims=False, **kwargs):
        if kwargs:
            raise trace_error(TypeError, f"numpy.{method}: {', '.join(kwargs)}"
                              " not supported on traced arrays")
        return getattr(a, method)(axis=axis, keepdims=keepdims)
    return reduce


def _elementwise_ufunc(name):
    if name in _COMPARISONS.values():
        def compare(a, b):
            tracer = _first_tracer(a, b)
            return tracer._compare(name, b if tracer is a else a,
                                   reverse=tracer is not a)
        return compare
    if len(OPS[name]["operands"]) == 2:
        return lambda a, b: binary(name, a, b)
    return lambda a: a._unary(name)


# The numpy ufuncs of the op table, and a few spelled differently.
_UFUNCS = {getattr(np, op["ufunc"]): _elementwise_ufunc(name)
           for name, op in OPS.items() if op["ufunc"]}
_UFUNCS.update({
    np.matmul: matmul,
    np.negative: lambda a: -a,
    np.positive: lambda a: a,
    np.divmod: divmod,
})


def where(condition, x, y):
    """numpy.where(condition, x, y): google.select, with numpy's
    broadcasting and dtype promotion (condition as booleans)."""
    tracer = _first_tracer(condition, x, y)
    if tracer is None:
        return np.where(condition, x, y)
    what = "google.select"
    c = tracer._as_tracer(condition, tracer, what)
    if c.dtype != np.bool_:
        c = c.astype(np.bool_)
    values = [x, y]
    like = next((v for v in values if isinstance(v, Tracer)), None)
    if like is None:
        # Two constants: numpy's own promotion of them.
        dtype = np.result_type(x, y)
        if dtype not in _MLIR_TYPES:
            raise trace_error(TypeError, f"{what}: unsupported dtype "
                              f"{dtype}")
        values = [tracer.graph.constant(np.asarray(v, dtype))
                  for v in values]
    else:
        values = [like._as_tracer(v, like, what) for v in values]
    dtype = promote(values[0].dtype, values[1].dtype)
    if dtype not in _MLIR_TYPES:
        raise trace_error(TypeError, f"{what}: unsupported dtype {dtype}")
    shape = broadcast_shapes(broadcast_shapes(c.shape, values[0].shape, what),
                             values[1].shape, what)
    return tracer._new("select", (c,) + tuple(v.astype(dtype) for v in values),
                       {}, shape, dtype)

def clip(a, a_min, a_max):
    """numpy.clip: minimum(maximum(a, a_min), a_max), NaN propagating as
    numpy's does; either bound may be None."""
    if a_min is None and a_max is None:
        raise trace_error(ValueError, "clip: one of a_min and a_max must be "
                          "given")
    if a_min is not None:
        a = binary("max", a, a_min)
    if a_max is not None:
        a = binary("min", a, a_max)
    return a


def broadcast_to(array, shape):
    """numpy.broadcast_to: the same values at a broadcast shape (a select
    on an all-true mask of that shape, exact for every dtype)."""
    what = "broadcast_to"
    shape = tuple(int(d) for d in (shape if isinstance(shape, (tuple, list))
                                   else (shape,)))
    tracer = array
    if tuple(broadcast_shapes(tracer.shape, shape, what)) != shape:
        raise trace_error(ValueError, f"{what}: shape "
                          f"{format_shape(tracer.shape)} cannot broadcast "
                          f"to {format_shape(shape)}")
    if tracer.shape == shape:
        return tracer
    mask = tracer.graph.constant(np.ones(shape, np.bool_))
    return tracer._new("select", (mask, tracer, tracer), {}, shape,
                       tracer.dtype)


def _index_dtype_array(indices, what):
    """Integer indices as an int32/int64 array or tracer."""
    if isinstance(indices, Tracer):
        if indices.dtype not in (np.int32, np.int64):
            raise trace_error(TypeError, f"{what}: indices must be integers "
                              f"(int32 or int64), got {indices.dtype}")
        return indices
    array = np.asarray(indices)
    if array.dtype.kind not in "iu" and not (array.size == 0 and
                                             array.dtype.kind == "f"):
        raise trace_error(TypeError, f"{what}: indices must be integers, "
                          f"got {array.dtype}")
    return array.astype(np.int64)


def take(a, indices, axis=None):
    """numpy.take (and x[idx]): google.gather. An index outside
    [-n, n) is an error: at trace time for constant indices, of the call
    for traced ones."""
    what = "take"
    tracer = _first_tracer(a, indices)
    a = tracer._as_tracer(a, tracer, what) if not isinstance(a, Tracer) \
        else a
    if isinstance(axis, bool) or not (axis is None or
                                      isinstance(axis, (int, np.integer))):
        raise trace_error(TypeError, f"{what}: axis must be an int or None, "
                          f"got {axis!r}")
    if axis is None:
        a, axis = a.reshape(-1), 0
    (axis,) = _normalize_axes(axis, a.ndim, what)
    indices = _index_dtype_array(indices, what)
    extent = a.shape[axis]
    if isinstance(indices, np.ndarray):
        if extent is not None and indices.size and (
                indices.min() < -extent or indices.max() >= extent):
            bad = indices[(indices < -extent) | (indices >= extent)][0]
            raise trace_error(IndexError, f"index {int(bad)} is out of "
                              f"bounds for axis {axis} with size {extent}")
        indices = tracer.graph.constant(indices)
    elif extent == 0 and indices.size != 0:
        raise trace_error(IndexError, f"{what}: cannot take from axis "
                          f"{axis} of size 0")
    shape = a.shape[:axis] + indices.shape + a.shape[axis + 1:]
    return tracer._new("gather", (a, indices), {"axis": axis}, shape,
                       a.dtype)


def _arg_reduce(x, op, axis, keepdims):
    what = "google." + op
    if axis is None:
        flat = x.reshape(-1)
        result = _arg_reduce(flat, op, 0, False)
        return result.reshape((1,) * x.ndim) if keepdims else result
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise trace_error(TypeError, f"{op}: axis must be an int or None, "
                          f"got {axis!r}")
    (axis,) = _normalize_axes(axis, x.ndim, what)
    if x.shape[axis] == 0:
        raise trace_error(ValueError, f"attempt to get {op} of an empty "
                          "sequence")
    shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape)
                  if keepdims or i != axis)
    return x._new(op, (x,), {"axis": axis, "keep_dims": bool(keepdims)},
                  shape, np.int64)


def _sequence_of_arrays(arrays, what):
    if isinstance(arrays, Tracer) or not isinstance(arrays, (list, tuple)):
        raise trace_error(TypeError, f"{what}: expected a sequence of "
                          "arrays")
    arrays = list(arrays)
    if not arrays:
        raise trace_error(ValueError, "need at least one array to "
                          "concatenate")
    tracer = _first_tracer(*arrays)
    arrays = [tracer._as_tracer(a, tracer, what) if not isinstance(a, Tracer)
              else a for a in arrays]
    for a in arrays:
        tracer.graph._check_owner(a)
    dtype = arrays[0].dtype
    for a in arrays[1:]:
        dtype = promote(dtype, a.dtype)
    return tracer, [a.astype(dtype) for a in arrays], dtype


def concatenate(arrays, axis=0):
    """numpy.concatenate: google.concat (axis=None flattens first)."""
    what = "concatenate"
    tracer, arrays, dtype = _sequence_of_arrays(arrays, what)
    if axis is None:
        arrays, axis = [a.reshape(-1) for a in arrays], 0
    rank = arrays[0].ndim
    if rank == 0:
        raise trace_error(ValueError, "zero-dimensional arrays cannot be "
                          "concatenated")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise trace_error(TypeError, f"{what}: axis must be an int or None, "
                          f"got {axis!r}")
    (axis,) = _normalize_axes(axis, rank, what)
    shape = list(arrays[0].shape)
    shape[axis] = 0
    for i, a in enumerate(arrays):
        if a.ndim != rank:
            raise trace_error(ValueError, f"{what}: all the input arrays "
                              "must have the same number of dimensions; "
                              f"array 0 has {rank}, array {i} has {a.ndim}")
        for d, extent in enumerate(a.shape):
            if d == axis:
                shape[d] = None if None in (shape[d], extent) else \
                    shape[d] + extent
            elif extent is not None and shape[d] is not None and \
                    extent != shape[d]:
                raise trace_error(
                    ValueError, f"{what}: all the input array dimensions "
                    f"except for the concatenation axis must match; "
                    f"dimension {d} of array {i} is {extent}, expected "
                    f"{shape[d]}")
            elif shape[d] is None:
                shape[d] = extent
    if len(arrays) == 1:
        return arrays[0]
    return tracer._new("concat", tuple(arrays), {"axis": axis},
                       tuple(shape), dtype)


def stack(arrays, axis=0):
    """numpy.stack: each array gains a dimension at `axis`, then concat."""
    what = "stack"
    tracer, arrays, _ = _sequence_of_arrays(arrays, what)
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise trace_error(ValueError, "all input arrays must have the "
                              f"same shape; array 0 is {format_shape(shape)},"
                              f" array {i} is {format_shape(a.shape)}")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise trace_error(TypeError, f"{what}: axis must be an int, got "
                          f"{axis!r}")
    (axis,) = _normalize_axes(axis, len(shape) + 1, what)
    expanded = [a.reshape(a.shape[:axis] + (1,) + a.shape[axis:])
                if None not in a.shape else
                a.reshape(tuple(-1 if d is None else d
                                for d in a.shape[:axis] + (1,) +
                                a.shape[axis:]))
                for a in arrays]
    return concatenate(expanded, axis=axis)


def split(x, indices_or_sections, axis=0):
    """numpy.split: slices of x along `axis` (a list of arrays)."""
    what = "split"
    (axis,) = _normalize_axes(axis, x.ndim, what)
    extent = x.shape[axis]
    if extent is None:
        raise trace_error(TypeError, f"{what}: the split axis must be "
                          "static")
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise trace_error(ValueError, "number sections must be larger "
                              "than 0.")
        if extent % sections:
            raise trace_error(ValueError, "array split does not result in "
                              "an equal division")
        bounds = [extent // sections * i for i in range(sections + 1)]
    else:
        bounds = [0] + [int(i) for i in indices_or_sections] + [extent]
    pieces = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        index = (slice(None),) * axis + (slice(start, stop),)
        pieces.append(x[index])
    return pieces


def pad(array, pad_width, mode="constant", constant_values=0):
    """numpy.pad with mode='constant': google.pad with a scalar value."""
    what = "pad"
    if mode != "constant":
        raise trace_error(NotImplementedError, f"{what}: mode {mode!r} is "
                          "not supported on traced arrays (only "
                          "'constant')")
    try:
        widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64),
                                 (array.ndim, 2))
    except (ValueError, TypeError):
        raise trace_error(ValueError, f"{what}: pad_width {pad_width!r} "
                          f"does not fit an array of rank {array.ndim}: "
                          "expected an int, (before, after) or one such "
                          "pair per axis") from None
    if (widths < 0).any():
        raise trace_error(ValueError, "index can't contain negative values")
    dtype = array.dtype
    if isinstance(constant_values, Tracer):
        if constant_values.ndim != 0:
            raise trace_error(ValueError, f"{what}: a traced constant_values "
                              "must be a scalar (rank 0)")
        value = constant_values.astype(dtype)
    elif _is_scalar(constant_values) or isinstance(constant_values,
                                                   (bool, np.bool_)):
        value = np.asarray(constant_values)
        if dtype == bfloat16:
            value = to_bfloat16(np.asarray(constant_values, np.float32))
        else:
            value = value.astype(dtype)
        value = array.graph.constant(value)
    else:
        raise trace_error(NotImplementedError, f"{what}: constant_values "
                          "must be a scalar on traced arrays")
    low = tuple(int(w) for w in widths[:, 0])
    high = tuple(int(w) for w in widths[:, 1])
    if not any(low) and not any(high):
        return array
    shape = tuple(None if d is None else d + lo + hi
                  for d, lo, hi in zip(array.shape, low, high))
    return array._new("pad", (array, value), {"low": low, "high": high},
                      shape, dtype)


def _pair(value, what, name):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (int(value), int(value))
    if not (isinstance(value, (tuple, list)) and len(value) == 2 and
            all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                and v >= 1 for v in value)):
        raise trace_error(ValueError, f"{what}: {name} must be a positive int "
                          f"or a pair of them, got {value!r}")
    return tuple(int(v) for v in value)


def window_padding(padding, extents, sizes, strides, what):
    """(top, bottom, left, right) for "VALID", "SAME" (TensorFlow's rule:
    ceil(extent / stride) outputs, the odd pad at the end) or
    ((top, bottom), (left, right))."""
    if isinstance(padding, str):
        if padding.upper() == "VALID":
            return (0, 0, 0, 0)
        if padding.upper() == "SAME":
            pads = []
            for extent, size, stride in zip(extents, sizes, strides):
                outputs = -(-extent // stride)
                total = max((outputs - 1) * stride + size - extent, 0)
                pads += [total // 2, total - total // 2]
            return tuple(pads)
    else:
        try:
            (top, bottom), (left, right) = padding
            pads = tuple(int(p) for p in (top, bottom, left, right))
            if all(p >= 0 for p in pads):
                return pads
        except (TypeError, ValueError):
            pass
    raise trace_error(ValueError, f"{what}: padding must be \"VALID\", "
                      "\"SAME\" or ((top, bottom), (left, right)) of "
                      f"non-negative ints, got {padding!r}")


def _check_nhwc(x, what, channels=True):
    if x.ndim != 4:
        raise trace_error(ValueError, f"{what}: expected an NHWC input of "
                          f"rank 4, got shape {format_shape(x.shape)}")
    if None in x.shape[1:3] or (channels and x.shape[3] is None):
        raise trace_error(TypeError, f"{what}: the input's H, W"
                          f"{' and C' if channels else ''} must be static")


def _window_counts(x, sizes, strides, pads, window):
    """The output H and W of windows of `sizes` sliding over x's padded H
    and W; a ValueError naming `window` when one does not fit."""
    out = []
    for extent, size, stride, low, high in zip(
            x.shape[1:3], sizes, strides, pads[0::2], pads[1::2]):
        if extent + low + high < size:
            raise trace_error(ValueError, f"{window} is larger than the "
                              f"padded input {format_shape(x.shape)}")
        out.append((extent + low + high - size) // stride + 1)
    return out


def conv2d(x, w, stride=1, padding="VALID", dilation=1, groups=1):
    """NHWC x HWIO convolution (google.conv2d)."""
    what = "conv2d"
    tracer = _first_tracer(x, w)
    x, w = (tracer._as_tracer(v, tracer, what) for v in (x, w))
    dtype = promote(x.dtype, w.dtype)
    if dtype == np.bool_ or dtype not in _MLIR_TYPES:
        raise trace_error(TypeError, f"{what}: unsupported dtype {dtype}")
    x, w = x.astype(dtype), w.astype(dtype)
    _check_nhwc(x, what)
    if w.ndim != 4 or None in w.shape:
        raise trace_error(ValueError, f"{what}: expected a static HWIO "
                          f"filter of rank 4, got {format_shape(w.shape)}")
    strides = _pair(stride, what, "stride")
    dilations = _pair(dilation, what, "dilation")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) \
            or groups < 1:
        raise trace_error(ValueError, f"{what}: groups must be a positive "
                          f"int, got {groups!r}")
    kh, kw, cg, cout = w.shape
    channels = x.shape[3]
    if channels % groups or cout % groups or cg * groups != channels:
        raise trace_error(ValueError, f"{what}: the filter "
                          f"{format_shape(w.shape)} does not fit {channels} "
                          f"input channels in {groups} groups (expected "
                          f"kh x kw x {channels // groups if channels % groups == 0 else '?'}"
                          f" x Cout, Cout a multiple of {groups})")
    sizes = (dilations[0] * (kh - 1) + 1, dilations[1] * (kw - 1) + 1)
    pads = window_padding(padding, x.shape[1:3], sizes, strides, what)
    out = _window_counts(x, sizes, strides, pads, f"{what}: the filter "
                         "(with dilation)")
    shape = (x.shape[0], out[0], out[1], cout)
    return tracer._new("conv2d", (x, w), {
        "strides": strides, "dilations": dilations, "padding": pads,
        "groups": int(groups)}, shape, dtype)


def pool2d(op, x, window, stride=None, padding="VALID"):
    """google.max_pool2d / avg_pool2d over NHWC."""
    what = op
    _check_nhwc(x, what, channels=False)
    window = _pair(window, what, "window")
    strides = window if stride is None else _pair(stride, what, "stride")
    pads = window_padding(padding, x.shape[1:3], window, strides, what)
    if any(p >= window[i // 2] for i, p in enumerate(pads)):
        raise trace_error(ValueError, f"{what}: each padding must be smaller "
                          f"than the window {window}, got {pads}")
    out = _window_counts(x, window, strides, pads,
                         f"{what}: the window {window}")
    if x.dtype == np.bool_:
        raise trace_error(TypeError, f"{what} of booleans is not supported")
    operand = x._float() if op == "avg_pool2d" else x
    return x._new(op, (operand,), {"window": window, "strides": strides,
                                   "padding": pads},
                  (x.shape[0], out[0], out[1], x.shape[3]), operand.dtype)


_FUNCTIONS = {
    np.concatenate: lambda arrays, axis=0: concatenate(arrays, axis),
    np.stack: lambda arrays, axis=0: stack(arrays, axis),
    np.split: lambda ary, indices_or_sections, axis=0: split(
        ary, indices_or_sections, axis),
    np.pad: lambda array, pad_width, mode="constant", **kwargs: pad(
        array, pad_width, mode, **kwargs),
    np.take: lambda a, indices, axis=None: take(a, indices, axis),
    np.argmax: lambda a, axis=None, keepdims=False: _arg_reduce(
        a, "argmax", axis, keepdims),
    np.argmin: lambda a, axis=None, keepdims=False: _arg_reduce(
        a, "argmin", axis, keepdims),
    np.where: lambda condition, x, y: where(condition, x, y),
    np.clip: lambda a, a_min, a_max: clip(a, a_min, a_max),
    np.broadcast_to: lambda array, shape: broadcast_to(array, shape),
    np.transpose: lambda a, axes=None: a.transpose(*(axes or ())),
    np.reshape: lambda a, newshape: a.reshape(newshape),
    np.sum: _reduce_function("sum"),
    np.max: _reduce_function("max"),
    np.amax: _reduce_function("max"),
    np.min: _reduce_function("min"),
    np.amin: _reduce_function("min"),
    np.prod: _reduce_function("prod"),
    np.mean: _reduce_function("mean"),
    np.matmul: matmul,
}
