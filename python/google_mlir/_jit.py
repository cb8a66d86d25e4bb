"""@jit: trace once per signature, compile through the disk cache, call the
compiled code zero-copy."""

import concurrent.futures
import contextlib
import functools
import inspect
import os
import re
import sys
import threading
import time
import warnings
import weakref

import numpy as np

from . import _cache, _eager, _native, _tree
from ._trace import (MAX_RANK, SUPPORTED_DTYPES, Graph, Tracer, dtype_name,
                     format_shape, numpy_name)

_SignatureMismatch = _native.SignatureMismatch


class _Flags:
    # gm.disable_jit() blocks open in any thread: while there are some, calls
    # look at their own thread's depth (a thread-local read costs more than
    # the rest of a cached call).
    disabled_anywhere = 0
    debug_nans = os.environ.get("GOOGLE_MLIR_DEBUG_NANS") == "1"


_flags = _Flags()
_thread_state = threading.local()
_flags_lock = threading.Lock()


_STAGES = ("google", "optimized", "linalg", "llvm", "llvm-ir")


def _jit_disabled_here():
    return getattr(_thread_state, "disabled", 0) > 0


def jit_disabled():
    """Whether gm.disable_jit() is in effect in this thread."""
    return _flags.disabled_anywhere > 0 and _jit_disabled_here()


@contextlib.contextmanager
def disable_jit():
    """Runs jitted functions as plain Python on numpy arrays inside the
    block, in this thread (for comparing with the compiled code, or
    debugging)."""
    with _flags_lock:
        _flags.disabled_anywhere += 1
    _thread_state.disabled = getattr(_thread_state, "disabled", 0) + 1
    try:
        yield
    finally:
        _thread_state.disabled -= 1
        with _flags_lock:
            _flags.disabled_anywhere -= 1


# Every jit function, for clear_caches().
_functions = weakref.WeakSet()


def clear_caches():
    """Forgets every jit function's compiled signatures (the disk cache
    stays) and returns the runtime pool's cached free buffers to the system
    (the pool keeps at most GOOGLE_MLIR_POOL_LIMIT bytes, default 256M)."""
    for function in list(_functions):
        function.clear_cache()
    _native.pool_trim()


def set_debug_nans(enabled=True):
    """Like GOOGLE_MLIR_DEBUG_NANS=1: check results for NaN and name the
    first op that produced one (every thread)."""
    _flags.debug_nans = bool(enabled)


# One compile at a time per process (calls still run in parallel): the
# in-process linker is serialized anyway, and compiles are rare.
_compile_lock = threading.Lock()

_executor = None
_executor_lock = threading.Lock()


def _get_executor():
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=max(2, os.cpu_count() or 2),
                thread_name_prefix="google_mlir")
        return _executor


# jit's targets: the pipeline target, and the runtime's device kind.
_PIPELINE_TARGETS = {"cpu": "cpu", "cuda": "nvvm", "rocm": "rocdl"}
_DEVICE_KINDS = {"cuda": "cuda", "rocm": "rocm"}


def jit(fn=None, *, static_argnames=(), static_argnums=(), dynamic_dims=None,
        target="cpu", options="", cache_dir=None, donate_argnums=()):
    """Compiles `fn` once per signature of its array arguments.

    static_argnames / static_argnums: parameters passed as Python values
      (hashable); each value is part of the signature.
    dynamic_dims: {"x": [0]} compiles dimension 0 of `x` as `?`, so one
      compile serves every size.
    target: "cpu", or "cuda" / "rocm" to run on an NVIDIA or AMD GPU (numpy
      arrays are copied to the device and the results back).
    options: --google-extreme-pipeline options, e.g. "opt-level=2", or a
      dict of them.
    cache_dir: the disk cache (default GOOGLE_MLIR_CACHE_DIR or
      ~/.cache/google-mlir).
    donate_argnums: array arguments (or pytrees of them) the caller gives
      up: a result of the same shape and dtype is stored in a donated
      array's memory and returned as that array; a donated array that holds
      no result must not be used again (passing it to a jitted function
      raises ValueError), as in JAX.
    """
    if fn is None:
        return functools.partial(
            jit, static_argnames=static_argnames,
            static_argnums=static_argnums, dynamic_dims=dynamic_dims,
            target=target, options=options, cache_dir=cache_dir,
            donate_argnums=donate_argnums)
    return JitFunction(fn, static_argnames, static_argnums, dynamic_dims,
                       target, options, cache_dir, donate_argnums)


def staged_jit(fn):
    """gm.jit for the transformations' own compiles (grad, vmap): they
    compile under gm.disable_jit() too (numpy cannot differentiate)."""
    function = jit(fn)
    function._always_compiled = True
    return function


# Donated arrays that hold no result, by id (they must not be used again).
_consumed = weakref.WeakValueDictionary()


def _check_not_consumed(name, specs, arrays):
    for (argument, _, _), array in zip(specs, arrays):
        if _consumed.get(id(array)) is array:
            raise ValueError(f"{name}() argument '{argument}' was donated to "
                             "an earlier call (donate_argnums) and must not "
                             "be used again")


def _locate(entry, error):
    """`error` from a call, with the user's lines of the op it names."""
    message = str(error)
    match = re.search(r"google\.(\w+)", message)
    if not match:
        return error
    places = sorted({f"{n.location[0]}:{n.location[1]}"
                     for n in entry.graph.live_nodes()
                     if n.op == match.group(1)})
    if not places:
        return error
    where = places[0] if len(places) == 1 else "one of " + ", ".join(places)
    return type(error)(f"{message} (google.{match.group(1)} at {where})")


class _Entry:
    """One compiled signature (the function keeps its module loaded)."""

    __slots__ = ("function", "graph", "key", "output_tree")

    def __init__(self, function, graph, key, output_tree):
        self.function = function
        self.graph = graph
        self.key = key
        # The results' pytree when not an array or a flat tuple of them.
        self.output_tree = output_tree

    def unflatten(self, results):
        if self.output_tree is None:
            return results
        if not isinstance(results, tuple):
            results = (results,)
        return _tree.unflatten(self.output_tree, results)


def _as_tuple(names):
    return (names,) if isinstance(names, (str, int)) else tuple(names)


class _Identity:
    """A static argument compared by identity (a method's `self`)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __hash__(self):
        return id(self.value)

    def __eq__(self, other):
        return isinstance(other, _Identity) and other.value is self.value

    def __repr__(self):
        return f"<{type(self.value).__name__} at {id(self.value):#x}>"


class _BoundJit:
    """A jitted method bound to its instance."""

    __slots__ = ("function", "instance")

    def __init__(self, function, instance):
        self.function = function
        self.instance = instance

    def __call__(self, *args, **kwargs):
        return self.function(self.instance, *args, **kwargs)

    def lower(self, *args, **kwargs):
        return self.function.lower(self.instance, *args, **kwargs)

    def submit(self, *args, **kwargs):
        return self.function.submit(self.instance, *args, **kwargs)

    def __repr__(self):
        return f"<bound {self.function!r} of {self.instance!r}>"


class JitFunction:
    """A function compiled per signature; call it like the original."""

    def __init__(self, fn, static_argnames, static_argnums, dynamic_dims,
                 target, options, cache_dir, donate_argnums=()):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._name = getattr(fn, "__name__", "function")
        self._signature = inspect.signature(fn)
        params = list(self._signature.parameters.values())
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"gm.jit: {self._name}() takes "
                                f"{'*' if p.kind == p.VAR_POSITIONAL else '**'}"
                                f"{p.name}; name each array parameter")
        self._names = [p.name for p in params]
        static = set()
        for name in _as_tuple(static_argnames):
            if name not in self._names:
                raise ValueError(f"gm.jit: static_argnames names '{name}', "
                                 f"which is not a parameter of "
                                 f"{self._name}{self._signature}")
            static.add(name)
        for index in _as_tuple(static_argnums):
            if not -len(params) <= index < len(params):
                raise ValueError(f"gm.jit: static_argnums {index} is out of "
                                 f"range for {self._name}{self._signature}")
            static.add(self._names[index])
        self._static = frozenset(static)
        # Positions of the static and the array parameters (the fast path
        # checks the static values and passes the arrays).
        self._static_positions = tuple(
            i for i, name in enumerate(self._names) if name in static)
        self._array_positions = tuple(
            i for i, name in enumerate(self._names) if name not in static)
        self._dynamic = {}
        for name, dims in (dynamic_dims or {}).items():
            if name not in self._names or name in static:
                raise ValueError(f"gm.jit: dynamic_dims names '{name}', which "
                                 f"is not an array parameter of "
                                 f"{self._name}{self._signature}")
            self._dynamic[name] = tuple(sorted(set(_as_tuple(dims))))
        if target not in _PIPELINE_TARGETS:
            raise ValueError(f"gm.jit: unknown target '{target}'; expected "
                             "'cpu', 'cuda' or 'rocm'")
        self._device = _DEVICE_KINDS.get(target)
        if isinstance(options, dict):
            options = " ".join(f"{k}={v}" for k, v in options.items())
        if re.search(r"(^|\s)target=", options or ""):
            raise ValueError(f"gm.jit: options '{options}' name a target; "
                             "use target='cpu', 'cuda' or 'rocm'")
        self._pipeline = f"target={_PIPELINE_TARGETS[target]} {options}".strip()
        self._cache_dir = cache_dir
        # An ASCII symbol (the object's C symbols are made from it).
        self._mlir_name = "".join(
            c if c.isascii() and (c.isalnum() or c == "_") else "_"
            for c in self._name) or "function"
        if self._mlir_name[0].isdigit():
            self._mlir_name = "_" + self._mlir_name
        self._donate = []
        for index in _as_tuple(donate_argnums):
            if not -len(params) <= index < len(params) or \
                    self._names[index] in static:
                raise ValueError(f"gm.jit: donate_argnums {index} is not an "
                                 f"array parameter of "
                                 f"{self._name}{self._signature}")
            self._donate.append(self._names[index])
        self._method = False  # set when first looked up on an instance
        self._always_compiled = False
        self._entries = {}
        self._history = []  # keys in compile order
        # The last (entry, static values) called: a call with the same
        # static values tries it first, in C.
        self._fast = None
        self._lock = threading.RLock()
        _functions.add(self)

    def __repr__(self):
        return f"<google_mlir.jit {self._name}{self._signature}>"

    def __get__(self, instance, owner=None):
        """On a method: `self` becomes a static argument compared by
        identity (each instance compiles its own code, with the arrays it
        holds as constants; the cache keeps the instance alive)."""
        if instance is None:
            return self
        if not self._method:
            with self._lock:
                if not self._names:
                    raise TypeError(f"gm.jit: method {self._name}() takes "
                                    "no `self` parameter")
                self._method = True
                self._static = self._static | {self._names[0]}
                self._static_positions = tuple(sorted(
                    {0, *self._static_positions}))
                self._array_positions = tuple(
                    i for i in self._array_positions if i != 0)
        return _BoundJit(self, instance)

    # Calls.
    def __call__(self, *args, **kwargs):
        fast = self._fast
        if fast is not None and not _flags.disabled_anywhere:
            arrays = self._fast_arrays(fast[1], args, kwargs)
            if arrays is not None:
                entry = fast[0]
                try:
                    results = entry.function(*arrays)
                except _SignatureMismatch:
                    pass
                except _native.Error as error:
                    raise _locate(entry, error) from None
                else:
                    if _flags.debug_nans:
                        self._check_nans(entry, arrays, results)
                    return results
        return self._call(args, kwargs)

    def _fast_arrays(self, statics, args, kwargs):
        """The array arguments of a call whose static arguments are
        `statics` (same types and values), else None."""
        if kwargs:
            n = len(args)
            if n + len(kwargs) != len(self._names):
                return None
            try:
                args = args + tuple(kwargs[name] for name in self._names[n:])
            except KeyError:
                return None
        if not self._static_positions:
            return args
        if len(args) != len(self._names):
            return None
        for position, (kind, value) in zip(self._static_positions, statics):
            given = args[position]
            if isinstance(value, _Identity):
                if given is not value.value:
                    return None
            elif type(given) is not kind or given != value:
                return None
        return tuple(args[i] for i in self._array_positions)

    def _call(self, args, kwargs):
        if (_flags.disabled_anywhere and _jit_disabled_here() and
                not self._always_compiled) or any(
                isinstance(a, Tracer)
                for a in _tree.flatten((args, kwargs))[0]):
            # Eager, or inside another trace (inlined there).
            return self._fn(*args, **kwargs)
        bound, arrays, key = self._bind(args, kwargs)
        if _consumed:
            _check_not_consumed(self._name, key[0], arrays)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._compile(bound, key)
        # The fast path passes arrays as they come: plain signatures only.
        plain = entry.output_tree is None and not self._donate and \
            all(t is None for t in key[2])
        statics = []
        for i in self._static_positions:
            value = bound.arguments[self._names[i]]
            if i == 0 and self._method:
                value = _Identity(value)
            statics.append((type(value), value))
        self._fast = (entry, tuple(statics)) if plain else None
        try:
            try:
                results = entry.function(*arrays)
            except _SignatureMismatch:
                # Strides that are not whole elements, or data not aligned
                # to its elements: one aligned contiguous copy.
                arrays = [np.require(a, requirements=["C", "A"])
                          for a in arrays]
                results = entry.function(*arrays)
        except _native.Error as error:
            raise _locate(entry, error) from None
        if _flags.debug_nans:
            self._check_nans(entry, arrays, results)
        if self._donate:
            results = self._store_in_donated(bound, results)
        return entry.unflatten(results)

    def _store_in_donated(self, bound, results):
        """Each result stored in a donated array of its shape and dtype
        (which is returned instead); the donated arrays left are
        consumed."""
        donated = []
        for name in self._donate:
            donated += [a for a in _tree.flatten(bound.arguments[name])[0]
                        if isinstance(a, np.ndarray) and
                        a.flags.c_contiguous and a.flags.writeable and
                        not isinstance(a, np.ma.MaskedArray)]
        single = not isinstance(results, tuple)
        outputs = [results] if single else list(results)
        for i, result in enumerate(outputs):
            for j, array in enumerate(donated):
                if array is not None and array.shape == result.shape and \
                        array.dtype == result.dtype:
                    np.copyto(array, result)
                    outputs[i] = array
                    donated[j] = None
                    break
        for array in donated:
            if array is not None:
                _consumed[id(array)] = array
        return outputs[0] if single else tuple(outputs)

    def submit(self, *args, **kwargs):
        """Runs the call on a worker thread: a concurrent.futures.Future.
        The GIL is released while compiled code runs."""
        return _get_executor().submit(self, *args, **kwargs)

    def lower(self, *args, stage="google", **kwargs):
        """The module the call with these arguments compiles, as MLIR text
        at `stage`: "google" (the trace), "optimized", "linalg", "llvm"
        (the LLVM dialect) or "llvm-ir"."""
        if stage not in _STAGES:
            raise ValueError(f"{self._name}.lower: unknown stage {stage!r}; "
                             f"expected one of {', '.join(_STAGES)}")
        bound, _, key = self._bind(args, kwargs)
        graph, _ = self._trace(bound, key)
        text = graph.to_mlir(self._mlir_name)
        return _native.print_stage(text, self._name, self._pipeline, stage)

    def clear_cache(self):
        """Forgets the compiled signatures (the disk cache stays)."""
        with self._lock:
            self._entries.clear()
            self._fast = None

    @property
    def num_compiled(self):
        """How many signatures this function has compiled or loaded."""
        return len(self._entries)

    # Signatures.
    def _bind(self, args, kwargs):
        # An unknown keyword first (inspect would report a missing one).
        for keyword in kwargs:
            if keyword not in self._signature.parameters:
                raise TypeError(f"{self._name}() got an unexpected keyword "
                                f"argument '{keyword}'")
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{self._name}(): {error}") from None
        bound.apply_defaults()
        arrays, specs, statics, trees = [], [], [], []
        for position, name in enumerate(self._names):
            value = bound.arguments[name]
            if name in self._static:
                if position == 0 and self._method:
                    # `self` of a method: by identity.
                    value = _Identity(value)
                try:
                    hash(value)
                except TypeError:
                    raise TypeError(
                        f"{self._name}() static argument '{name}' must be "
                        f"hashable, got {type(value).__name__}") from None
                statics.append((name, type(value).__name__, value))
                continue
            if isinstance(value, (np.ndarray, np.generic)):
                leaves, treedef = [(name, value)], None
            elif _tree.is_container(value):
                values, treedef = _tree.flatten(value)
                leaves = list(zip((name + path for path in
                                   _tree.leaf_paths(treedef)), values))
            else:
                leaves, treedef = [(name, value)], None
            trees.append(treedef)
            if treedef is not None:
                stray = next(((n, v) for n, v in leaves
                              if not isinstance(v, (np.ndarray, np.generic))),
                             None)
                if stray is not None:
                    raise TypeError(
                        f"{self._name}() argument '{name}' must be a numpy "
                        f"array, got {type(value).__name__} (a pytree whose "
                        f"leaf '{stray[0]}' is {type(stray[1]).__name__}; "
                        "pytree leaves must be numpy arrays: wrap numbers "
                        "with np.asarray, or pass Python values through "
                        "static_argnames)")
            for leaf_name, leaf in leaves:
                leaf = self._check_array(leaf_name, leaf)
                shape = leaf.shape
                dynamic = self._dynamic.get(name) if treedef is None else None
                if dynamic:
                    if any(not -len(shape) <= d < len(shape)
                           for d in dynamic):
                        raise ValueError(
                            f"{self._name}() argument '{name}' has shape "
                            f"{shape}, but dynamic_dims names dimensions "
                            f"{list(dynamic)}")
                    dims = {d % len(shape) for d in dynamic}
                    shape = tuple(None if i in dims else d
                                  for i, d in enumerate(shape))
                specs.append((leaf_name, shape, leaf.dtype))
                arrays.append(leaf)
        return bound, arrays, (tuple(specs), tuple(statics), tuple(trees))

    def _check_array(self, name, value):
        """`value` as an array argument (native byte order; a numpy scalar
        as a rank-0 array), or a TypeError naming the argument (or pytree
        leaf) `name`."""
        if isinstance(value, np.generic):
            value = np.asarray(value)
        if not isinstance(value, np.ndarray):
            if isinstance(value, (int, float, str, bool)):
                hint = " (or mark it static with static_argnames)"
            else:
                hint = " (or a tuple, list, dict or namedtuple of them)"
            raise TypeError(f"{self._name}() argument '{name}' must be a "
                            f"numpy array, got {type(value).__name__}{hint}")
        if isinstance(value, np.ma.MaskedArray):
            raise TypeError(f"{self._name}() argument '{name}' is a "
                            "masked array; its mask would be ignored: "
                            "pass .filled(value) or .data")
        if not value.dtype.isnative:
            # The other byte order: a native copy (the fast path rejects
            # such arrays and comes here).
            value = value.astype(value.dtype.newbyteorder("="))
        if value.dtype not in SUPPORTED_DTYPES:
            raise TypeError(
                f"{self._name}() argument '{name}' has dtype "
                f"{value.dtype}; supported: "
                f"{', '.join(numpy_name(d) for d in SUPPORTED_DTYPES)}")
        if value.ndim > MAX_RANK:
            raise TypeError(
                f"{self._name}() argument '{name}' has rank "
                f"{value.ndim}; compiled functions take at most "
                f"{MAX_RANK} dimensions")
        return value

    def _describe(self, key):
        specs, statics = key[:2]
        parts = [f"{name}: {dtype_name(dtype)}"
                 f"[{','.join('?' if d is None else str(d) for d in shape)}]"
                 for name, shape, dtype in specs]
        parts += [f"{name}={value!r}" for name, _, value in statics]
        return f"{self._name}({', '.join(parts)})"

    def _explain(self, key):
        """Why `key` missed the in-memory cache."""
        if not self._history:
            return "first call"
        previous = self._history[-1]
        reasons = []
        for (name, shape, dtype), (_, old_shape, old_dtype) in zip(
                key[0], previous[0]):
            if dtype != old_dtype:
                reasons.append(f"{name}: dtype {dtype_name(old_dtype)} -> "
                               f"{dtype_name(dtype)}")
            if shape != old_shape:
                reasons.append(f"{name}: shape {format_shape(old_shape)} -> "
                               f"{format_shape(shape)}")
        for (name, _, value), (_, _, old_value) in zip(key[1], previous[1]):
            if value != old_value or type(value) is not type(old_value):
                reasons.append(f"static {name}: {old_value!r} -> {value!r}")
        count = len(self._history)
        return "; ".join(reasons) + (f" (other than the last of {count} "
                                     "compiled signatures)" if count > 1
                                     else "")

    # Tracing and compiling.
    def _trace(self, bound, key):
        """The traced graph and the results' pytree (None for an array or
        a flat tuple of arrays)."""
        graph = Graph(self._name)
        specs = iter(key[0])
        trees = iter(key[2])
        traced = bound.arguments.copy()
        for name in self._names:
            if name in self._static:
                continue
            treedef = next(trees)
            count = 1 if treedef is None else treedef.num_leaves
            leaves = []
            for _ in range(count):
                leaf_name, shape, dtype = next(specs)
                leaves.append(graph.argument(leaf_name, shape, dtype))
            traced[name] = leaves[0] if treedef is None else \
                _tree.unflatten(treedef, leaves)
        call = inspect.BoundArguments(self._signature, traced)
        with graph.tracing():
            result = self._fn(*call.args, **call.kwargs)
            leaves, treedef = _tree.flatten(result)
            output_tree = None
            flat = treedef.kind == "tuple" and all(
                child.kind == "leaf" for child in treedef.children)
            if treedef.kind not in ("leaf", "none") and not flat:
                output_tree = treedef
                result = tuple(leaves)
            graph.set_outputs(result)
        return graph, output_tree

    def _compile(self, bound, key):
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                return entry
            start = time.perf_counter()
            # A GPU target needs its driver and a device before compiling.
            if self._device and not _native.devices(self._device):
                raise _native.Error(f"gm.jit: no {self._device} device found "
                                    "(the driver reports none)")
            graph, output_tree = self._trace(bound, key)
            text = graph.to_mlir(self._mlir_name, locations=True)
            trace_ms = (time.perf_counter() - start) * 1e3
            # CPU modules: the cache's index first, without the compiler.
            directory = self._cache_dir or _cache.default_directory()
            index_key = None if self._device else _cache.index_key(
                text, self._pipeline, directory)
            info = index_key and self._load_indexed(directory, index_key)
            if not info:
                with _compile_lock:
                    info = _native.compile(text, self._name, self._pipeline,
                                           self._cache_dir, 0)
                if index_key and not info["temporary"]:
                    _cache.record(directory, index_key, info["path"])
            try:
                module = info.get("module") or _native.Module(info["path"])
            except _native.Error as error:
                # The cache entry goes by the function's name (e.g. code
                # compiled for a chip=... this CPU cannot run).
                message = str(error).replace(
                    os.path.basename(info["path"]),
                    f"{self._name}() compiled with options "
                    f"'{self._pipeline}'")
                raise _native.Error(message) from None
            finally:
                if info["temporary"]:
                    os.unlink(info["path"])
            function = module.function(self._mlir_name,
                                       unpack_single=graph.single_output)
            entry = _Entry(function, graph, key, output_tree)
            if os.environ.get("GOOGLE_MLIR_LOG_COMPILES") == "1":
                self._log(key, info, trace_ms, start)
            self._entries[key] = entry
            self._history.append(key)
            return entry

    @staticmethod
    def _load_indexed(directory, index_key):
        """The module the disk cache's index has under `index_key`, loaded
        without the compiler; None when there is no usable entry."""
        path = _cache.lookup(directory, index_key)
        if not path:
            return None
        try:
            module = _native.Module(path)
        except _native.Error:
            return None  # the compiler explains (a foreign CPU, ...)
        return {"path": path, "module": module, "hit": True,
                "temporary": False}

    def _log(self, key, info, trace_ms, start):
        total = (time.perf_counter() - start) * 1e3
        why = self._explain(key)
        if info["hit"]:
            line = (f"google-mlir: cache hit for {self._describe(key)} on "
                    f"disk in {total:.1f} ms [trace {trace_ms:.1f} ms] "
                    f"(in-memory miss: {why})")
        else:
            line = (f"google-mlir: compiled {self._describe(key)} in "
                    f"{total:.1f} ms [trace {trace_ms:.1f}, parse "
                    f"{info['parse_ms']:.1f}, pipeline "
                    f"{info['pipeline_ms']:.1f}, codegen "
                    f"{info['codegen_ms']:.1f}, link {info['link_ms']:.1f} "
                    f"ms] (cache miss: {why}; on disk: "
                    f"{info['miss_reason']})")
        print(line, file=sys.stderr, flush=True)

    # GOOGLE_MLIR_DEBUG_NANS.
    def _check_nans(self, entry, arrays, results):
        outputs = results if isinstance(results, tuple) else (results,)
        bad = [i for i, r in enumerate(outputs) if _eager.has_nan(r)]
        if not bad:
            return
        graph = entry.graph
        names = {id(a): a.attrs["name"] for a in graph.arguments}
        # The replay computes what produced NaN: its warnings ("Mean of
        # empty slice", "invalid value") are not the user's.
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            steps = list(_eager.replay(graph, arrays))
        for node, value in steps:
            if not _eager.has_nan(value):
                continue
            file, line, _ = node.location
            for operand in node.operands:
                if id(operand) in names and _eager.has_nan(
                        arrays[next(i for i, a in enumerate(graph.arguments)
                                    if a is operand)]):
                    raise FloatingPointError(
                        f"{self._name}(): argument '{names[id(operand)]}' "
                        f"contains NaN; first used by google.{node.op} at "
                        f"{file}:{line}")
            raise FloatingPointError(
                f"{self._name}(): google.{node.op} at {file}:{line} produced "
                f"NaN (the first op to do so; GOOGLE_MLIR_DEBUG_NANS)")
        calls = [n for n in graph.live_nodes() if n.op == "call"]
        if calls:
            file, line, _ = calls[0].location
            raise FloatingPointError(
                f"{self._name}(): result {bad[0]} contains NaN; the ops "
                f"before the gradient taken at {file}:{line} produced none "
                "(numpy's replay does not follow gradients; google-run "
                "with GOOGLE_MLIR_DEBUG_NANS=1 on the module of "
                f"{self._name}.lower(...) does, naming the forward op "
                "whose backward pass produced it)")
        raise FloatingPointError(
            f"{self._name}(): result {bad[0]} contains NaN, but replaying "
            "the trace op by op with numpy produced none")
