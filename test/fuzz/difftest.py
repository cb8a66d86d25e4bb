#!/usr/bin/python3
"""Differential tester: random google programs, compiled and interpreted.

Each seed gives a well-typed random program (every op of SPEC section 1,
every element type, NumPy broadcasting with size-1 and rank-0 operands,
dynamic extents, keep_dims reductions over several axes, transposes,
reshapes, casts, softmax, the fused op and the pattern that fuses into it,
constants, private helper functions, several results) and inputs for it.
The program runs

  - in the reference interpreter (google-run --interpret),
  - compiled at opt-level 0, 1, 2 and 3, and with each of fold, cse, dce
    and fuse switched off (google-run --pipeline-options=...),

and every result is compared with NumPy's value of the same program. The
NumPy side computes in float64 and carries a bound on the error that
rounding to the program's element type may cause (per op, from the
operands' errors and magnitudes), so the comparison is as tight as the
numerics allow without false alarms. Integers compare exactly.

Some seeds run with input extents that break a run-time check (two batch
sizes that must agree, a static extent given a different one): then the
interpreter and every compiled variant must fail with an error, without a
crash or a result.

A failing seed is shrunk (ops bypassed, results dropped) and printed with a
one-line command that reproduces it.

  difftest.py [--seeds N] [--first S] [--jobs J] [--google-run PATH]
              [--target cpu|cuda|rocm] [--rotate K]
  difftest.py --seed S [--keep DIR]     one seed, verbose

Compiled variants run with GOOGLE_MLIR_POISON_BUFFERS=1 (unless the
environment sets it): the buffers they allocate start as NaNs (-1s in
integers), so code reading elements nothing wrote fails the comparison.

--target runs the compiled variants on a GPU (the interpreter stays on the
host). --emit-only with --target=cuda or rocm compiles every variant to an
object without running it (no GPU needed): the GPU targets' host code and
kernels must build for every program. test/Codegen/GPU/Inputs/run_gpu_mapping_on_host.py as --google-run checks the
GPU pipeline's kernel mapping on the host. --pipeline-options adds options
to every compiled variant's (e.g. fused-attention=true, with --only
attention for programs of attention blocks).
"""

import argparse
import math
import multiprocessing
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

FLOATS = ("f32", "f16", "bf16", "f64")
INTS = ("i32", "i64")
# Unit roundoff and the smallest subnormal of each float type.
UNIT = {"f32": 2.0 ** -24, "f16": 2.0 ** -11, "bf16": 2.0 ** -8,
        "f64": 2.0 ** -53}
TINY = {"f32": 2.0 ** -149, "f16": 2.0 ** -24, "bf16": 2.0 ** -133,
        "f64": 2.0 ** -1074}
# Largest magnitude a generated value may reach (far from overflow).
LIMIT = {"f32": 1e6, "f16": 2e3, "bf16": 1e6, "f64": 1e6, "i32": 1e6,
         "i64": 1e6, "i1": 1}
PRECISION = {"f32": 24, "f16": 11, "bf16": 8, "f64": 53}
# check-bounds=true: every memory access of the default opt-level's code
# checked at run time (an access out of its buffer aborts).
CONFIGS = ["opt-level=0", "opt-level=1", "opt-level=2", "opt-level=3",
           "fold=false", "cse=false", "dce=false", "fuse=false",
           "check-bounds=true"]


class ShapeMismatch(Exception):
    """The program's run-time checks reject these input extents."""


def round_bf16(values):
    values = np.asarray(values, np.float32)
    bits = np.atleast_1d(values).view(np.uint32).astype(np.uint64)
    one, sixteen = np.uint64(1), np.uint64(16)
    bits = (bits + np.uint64(0x7FFF) + ((bits >> sixteen) & one)) >> \
        sixteen << sixteen
    return bits.astype(np.uint32).view(np.float32).reshape(values.shape)


def to_dtype(values, dtype):
    """Values rounded (floats) or wrapped (ints) to `dtype`, as float64 or
    int64."""
    values = np.asarray(values)
    if dtype == "f32":
        return values.astype(np.float32).astype(np.float64)
    if dtype == "f16":
        return values.astype(np.float16).astype(np.float64)
    if dtype == "bf16":
        return round_bf16(values.astype(np.float32)).astype(np.float64)
    if dtype == "f64":
        return values.astype(np.float64)
    if dtype == "i32":
        return values.astype(np.int64).astype(np.int32).astype(np.int64)
    if dtype == "i1":
        return (values != 0).astype(np.int64)
    return values.astype(np.int64)


def storage(values, dtype):
    """The array google-run reads for an input of `dtype`."""
    return np.asarray(values, {"f32": np.float32, "f16": np.float16,
                               "bf16": np.float32, "f64": np.float64,
                               "i32": np.int32, "i64": np.int64,
                               "i1": np.bool_}[dtype])


def type_text(dims, dtype):
    return "tensor<" + "".join(("?" if d is None else str(d)) + "x"
                               for d in dims) + dtype + ">"


def format_scalar(value, dtype):
    if dtype == "i1":
        return "true" if value else "false"
    if dtype in INTS:
        return str(int(value))
    return repr(float(value))


def format_dense(values, dtype):
    values = np.asarray(values)
    if not values.size:
        return "dense<>"
    if np.all(values == values.flat[0]):
        return "dense<%s>" % format_scalar(values.flat[0], dtype)
    def nested(a):
        if a.ndim == 0:
            return format_scalar(a, dtype)
        return "[" + ", ".join(nested(x) for x in a) + "]"
    return "dense<%s>" % nested(values)


# --------------------------------------------------------------------------
# Values: NumPy's value, its error bound, the declared type
# --------------------------------------------------------------------------

class Val:
    """A value at run time: `ref` is exact-ish (float64, or int64 for
    integers), `err` bounds |computed - ref| elementwise."""

    def __init__(self, ref, err, dtype):
        self.ref = np.asarray(ref)
        self.dtype = dtype
        self.err = np.zeros(self.ref.shape) if err is None else \
            np.broadcast_to(np.asarray(err, np.float64), self.ref.shape)

    @property
    def shape(self):
        return self.ref.shape


def is_float(dtype):
    return dtype in FLOATS


def rounding(dtype, ref):
    """The error of rounding `ref` to `dtype` once."""
    return UNIT[dtype] * np.abs(ref) + TINY[dtype]


def accumulator(dtype):
    """The type sums of `dtype` accumulate in (SPEC section 2): f32 for
    f16 and bf16."""
    return "f32" if dtype in ("f16", "bf16") else dtype


def rounded_once(dtype, ref, err):
    """The bound `err` of an accumulated value, plus the error of rounding
    it to `dtype` once (nothing when it accumulated in `dtype`)."""
    if accumulator(dtype) == dtype:
        return err
    return err + rounding(dtype, np.abs(ref) + err)


def wrap(values, dtype):
    return to_dtype(values, dtype)


# --------------------------------------------------------------------------
# Nodes of a program
# --------------------------------------------------------------------------

class Node:
    """An SSA value of the program: an argument, a constant or an op."""

    def __init__(self, kind, dtype, dims, operands=(), attrs=None):
        self.kind, self.dtype, self.dims = kind, dtype, list(dims)
        self.operands = list(operands)
        self.attrs = attrs or {}
        self.name = None

    def type(self):
        return type_text(self.dims, self.dtype)


ERF = np.vectorize(math.erf, otypes=[np.float64])
# Booleans (i1) come from comparisons of exact values (a rounding error
# could flip one), combine with the logical ops and pick with select.
LOGICAL = ("and", "or", "xor")
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")
BINARY = ("add", "sub", "mul", "div", "max", "min", "pow", "floor_div",
          "rem") + LOGICAL
# Float-only binary ops.
FLOAT_BINARY = ("div", "pow")
# Their result can jump by one where an operand's error crosses a multiple:
# generated on exact operands only.
DISCONTINUOUS = ("floor_div", "rem")
UNARY = ("relu", "neg", "abs", "exp", "log", "tanh", "sigmoid", "sqrt",
         "erf", "sin", "cos", "rsqrt", "not")
# Data movement by index and arg-reductions.
INDEXING = ("concat", "pad", "gather", "scatter_add", "iota", "argmax",
            "argmin")
WINDOWED = ("conv2d", "max_pool2d", "avg_pool2d")
# Every op the generator makes (test_ops.py checks the dialect's table).
COVERED = UNARY + BINARY + COMPARE + INDEXING + WINDOWED + (
    "select", "cast", "matmul", "matmul_bias_relu", "transpose", "reshape",
    "slice", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
    "reduce_mean", "softmax")


def stretches(operand_dims, i, result_dims, d):
    return operand_dims[i] == 1 and result_dims[d] != 1


def check_known(values, known, what):
    for d, k in enumerate(known):
        if k is not None and values[d] != k:
            raise ShapeMismatch(f"{what}: dimension {d} is {values[d]}, "
                                f"expected {k}")


def broadcast_shape(node, operands):
    """The run-time shape of a broadcasting op, with the lowering's rules:
    a static 1 stretches over a result dimension that is not 1, dynamic
    extents never stretch and must agree."""
    rank = len(node.dims)
    known = list(node.dims)
    for op_node in node.operands:
        offset = rank - len(op_node.dims)
        for i, dim in enumerate(op_node.dims):
            d = offset + i
            if known[d] is None and not stretches(op_node.dims, i, node.dims, d):
                known[d] = dim
    shape = list(known)
    for op_node, value in zip(node.operands, operands):
        offset = rank - len(op_node.dims)
        for i, dim in enumerate(op_node.dims):
            d = offset + i
            if stretches(op_node.dims, i, node.dims, d):
                continue
            if shape[d] is None:
                shape[d] = value.shape[i]
            elif value.shape[i] != shape[d]:
                raise ShapeMismatch(f"{node.kind}: dimension {i} is "
                                    f"{value.shape[i]}, expected {shape[d]}")
    return [1 if d is None else d for d in shape]


def broadcast_to(value, node_dims, op_dims, shape):
    """The operand's ref/err broadcast to `shape` (stretching only static
    ones)."""
    offset = len(shape) - len(op_dims)
    ref = value.ref.reshape((1,) * offset + value.shape)
    err = value.err.reshape((1,) * offset + value.shape)
    return np.broadcast_to(ref, shape), np.broadcast_to(err, shape)


def evaluate_binary(node, a, b, shape):
    dtype = node.dtype
    ra, ea = broadcast_to(a, node.dims, node.operands[0].dims, shape)
    rb, eb = broadcast_to(b, node.dims, node.operands[1].dims, shape)
    kind = node.kind
    if kind in DISCONTINUOUS:
        return evaluate_divmod(kind, dtype, ra, ea, rb, eb)
    if kind in LOGICAL:
        fn = {"and": np.logical_and, "or": np.logical_or,
              "xor": np.logical_xor}[kind]
        return Val(fn(ra != 0, rb != 0).astype(np.int64), None, dtype)
    if not is_float(dtype):
        r = {"add": ra + rb, "sub": ra - rb, "mul": ra * rb,
             "max": np.maximum(ra, rb), "min": np.minimum(ra, rb)}[kind]
        return Val(wrap(r, dtype), None, dtype)
    with np.errstate(all="ignore"):
        if kind == "add":
            r = ra + rb
            e = ea + eb
        elif kind == "sub":
            r = ra - rb
            e = ea + eb
        elif kind == "mul":
            r = ra * rb
            e = np.abs(ra) * eb + np.abs(rb) * ea + ea * eb
        elif kind == "div":
            r = ra / rb
            margin = np.abs(rb) - eb
            e = np.where(margin > 0, (ea + np.abs(r) * eb) / margin, np.inf)
        elif kind == "pow":
            # x' ** y' = x ** y * exp(y' ln|x'| - y ln|x|); pow is within
            # 6 ulp.
            r = np.power(ra, rb)
            margin = np.abs(ra) - ea
            relative = np.where(margin > 0, ea / margin, np.inf)
            t = np.abs(rb) * relative + np.where(
                eb > 0, eb * (np.abs(np.log(np.abs(ra))) + relative), 0)
            return Val(r, np.abs(r) * np.expm1(t) +
                       6 * UNIT[dtype] * np.abs(r) + TINY[dtype], dtype)
        elif kind == "max":
            return Val(np.maximum(ra, rb), np.maximum(ea, eb), dtype)
        else:
            return Val(np.minimum(ra, rb), np.maximum(ea, eb), dtype)
    return Val(r, e * (1 + UNIT[dtype]) + rounding(dtype, np.abs(r) + e),
               dtype)


NUMPY_TYPES = {"f32": np.float32, "f16": np.float16, "bf16": np.float32,
               "f64": np.float64, "i32": np.int32, "i64": np.int64}


def evaluate_divmod(kind, dtype, ra, ea, rb, eb):
    """np.floor_divide or np.remainder in the element type, as numpy (and
    the dialect) compute them: exact on exact operands; an inexact operand
    gives an unbounded error (the value is not generated)."""
    fn = np.floor_divide if kind == "floor_div" else np.remainder
    with np.errstate(all="ignore"):
        r = fn(np.asarray(ra).astype(NUMPY_TYPES[dtype]),
               np.asarray(rb).astype(NUMPY_TYPES[dtype]))
    if not is_float(dtype):
        return Val(r.astype(np.int64), None, dtype)
    r = to_dtype(r, dtype)  # bf16: computed in f32, rounded once
    exact = not (np.any(ea) or np.any(eb))
    return Val(r, 0 if exact else np.inf, dtype)


def evaluate_compare(node, a, b, shape):
    """A comparison of exact values (the generator makes no other): in
    float64 as in the element type, NaN unequal."""
    ra, _ = broadcast_to(a, node.dims, node.operands[0].dims, shape)
    rb, _ = broadcast_to(b, node.dims, node.operands[1].dims, shape)
    fn = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
          "le": np.less_equal, "gt": np.greater,
          "ge": np.greater_equal}[node.kind]
    with np.errstate(all="ignore"):
        return Val(fn(ra, rb).astype(np.int64), None, "i1")


def evaluate_select(node, operands, shape):
    c, _ = broadcast_to(operands[0], node.dims, node.operands[0].dims, shape)
    rx, ex = broadcast_to(operands[1], node.dims, node.operands[1].dims,
                          shape)
    ry, ey = broadcast_to(operands[2], node.dims, node.operands[2].dims,
                          shape)
    pick = c != 0
    return Val(np.where(pick, rx, ry),
               np.where(pick, ex, ey) if is_float(node.dtype) else None,
               node.dtype)


def evaluate_unary(node, a):
    dtype, kind, r0, e0 = node.dtype, node.kind, a.ref, a.err
    if kind == "not":
        return Val(1 - a.ref, None, dtype)
    if kind in ("relu", "neg", "abs"):
        fn = {"relu": lambda x: np.maximum(x, 0), "neg": np.negative,
              "abs": np.abs}[kind]
        return Val(wrap(fn(r0), dtype) if not is_float(dtype) else fn(r0),
                   e0, dtype)
    u = UNIT[dtype]
    with np.errstate(all="ignore"):
        if kind == "exp":
            r = np.exp(r0)
            e = r * np.expm1(e0) + 4 * u * r
        elif kind == "log":
            r = np.log(r0)
            e = np.where(r0 - e0 > 0, e0 / (r0 - e0), np.inf) + \
                4 * u * (np.abs(r) + 1)
        elif kind == "tanh":
            r = np.tanh(r0)
            e = e0 + 4 * u * np.abs(r)
        elif kind == "sigmoid":
            r = 1 / (1 + np.exp(-r0))
            e = e0 / 4 + 8 * u
        elif kind in ("sin", "cos"):
            r = np.sin(r0) if kind == "sin" else np.cos(r0)
            e = e0 + 4 * u * np.abs(r)  # |sin'| <= 1; libmvec: 4 ulp
        elif kind == "rsqrt":
            r = 1 / np.sqrt(r0)
            e = np.where(r0 - e0 > 0, e0 * r / (2 * np.maximum(r0 - e0,
                                                               1e-300)),
                         np.inf) + 3 * u * r
        elif kind == "erf":
            r = ERF(r0)
            e = 1.13 * e0 + 6 * u * np.abs(r)  # |erf'| <= 2 / sqrt(pi)
        else:  # sqrt
            r = np.sqrt(r0)
            e = np.where(r0 - e0 > 0, e0 / (2 * np.sqrt(np.maximum(r0 - e0,
                                                                    1e-300))),
                         np.inf) + u * np.abs(r)
    return Val(r, e + TINY[dtype], dtype)


def input_rounding(dtype):
    """The relative error of a product of two inputs of a contraction that
    rounds them first: with tf32=true, f32 inputs to 11 significant bits
    (to nearest: 2^-11 each), as the GPU's TF32 tensor cores read them."""
    return 2 * 2.0 ** -11 if TF32_MODE and dtype == "f32" else 0.0


def evaluate_matmul(node, a, b, bias=None):
    rank = len(node.dims)
    l, r_ = node.operands[0].dims, node.operands[1].dims
    out = node.dims
    bias_dim = node.operands[2].dims[0] if bias is not None else None
    def first(*dims):
        return next((d for d in dims if d is not None), None)
    m = first(out[rank - 2], l[rank - 2])
    n = first(out[rank - 1], bias_dim, r_[rank - 1])
    k = first(l[rank - 1], r_[rank - 2])
    batch = [first(out[0], l[0], r_[0])] if rank == 3 else []
    check_known(a.shape, batch + [m, k], "matmul lhs")
    check_known(b.shape, batch + [k, n], "matmul rhs")
    if a.shape[-1] != b.shape[-2]:
        raise ShapeMismatch("matmul: contracting dimensions differ")
    if rank == 3 and a.shape[0] != b.shape[0]:
        raise ShapeMismatch("matmul: batch dimensions differ")
    if bias is not None and bias.shape[0] != b.shape[-1]:
        raise ShapeMismatch("matmul_bias_relu: bias length differs from N")
    dtype = node.dtype
    if not is_float(dtype):
        r = wrap(np.matmul(a.ref, b.ref), dtype)
        if bias is not None:
            r = np.maximum(wrap(r + bias.ref, dtype), 0)
        return Val(r, None, dtype)
    kdim = a.shape[-1]
    acc = accumulator(dtype)
    ra, rb = a.ref, b.ref
    r = np.matmul(ra, rb)
    bound = np.matmul(np.abs(ra), np.abs(rb))
    e = (np.matmul(np.abs(ra), b.err) + np.matmul(a.err, np.abs(rb)) +
         np.matmul(a.err, b.err) +
         ((kdim + 1) * UNIT[acc] + input_rounding(dtype)) * bound +
         (kdim + 1) * TINY[acc])
    e = rounded_once(dtype, r, e)
    if bias is not None:
        r = r + bias.ref
        e = e + bias.err + rounding(dtype, np.abs(r) + e)
        r = np.maximum(r, 0)
    return Val(r, e, dtype)


def evaluate_reduce(node, a):
    axes = tuple(sorted(ax % len(a.shape) for ax in node.attrs["axes"]))
    keep = node.attrs["keep_dims"]
    kept = [d for d in range(len(a.shape)) if d not in axes or keep]
    known = [None] * len(a.shape)
    r_index = 0
    for d in range(len(a.shape)):
        if d not in axes or keep:
            if d not in axes:
                known[d] = node.dims[r_index]
            r_index += 1
    check_known(a.shape, known, node.kind)
    dtype, kind = node.dtype, node.kind
    count = int(np.prod([a.shape[ax] for ax in axes]))
    if not is_float(dtype):
        fn = {"reduce_sum": np.sum, "reduce_max": np.max,
              "reduce_min": np.min, "reduce_prod": np.prod}[kind]
        info = np.iinfo(np.int32 if dtype == "i32" else np.int64)
        if kind in ("reduce_max", "reduce_min") and count == 0:
            r = np.full(np.sum(a.ref, axis=axes, keepdims=keep).shape,
                        info.min if kind == "reduce_max" else info.max)
        else:
            # (int64 products wrap, and so do their low 32 bits.)
            with np.errstate(all="ignore"):
                r = fn(a.ref, axis=axes, keepdims=keep)
        return Val(wrap(r, dtype), None, dtype)
    with np.errstate(all="ignore"):
        if kind in ("reduce_max", "reduce_min"):
            fn = np.max if kind == "reduce_max" else np.min
            if count == 0:
                shape = np.sum(a.ref, axis=axes, keepdims=keep).shape
                return Val(np.full(shape, -np.inf if fn is np.max else np.inf),
                           np.zeros(shape), dtype)
            return Val(fn(a.ref, axis=axes, keepdims=keep),
                       np.max(a.err, axis=axes, keepdims=keep), dtype)
        if kind == "reduce_prod":
            # Each factor inflated by its error and one rounding of the
            # accumulator (any order), less the product; underflow steps.
            acc = accumulator(dtype)
            r = np.prod(a.ref, axis=axes, keepdims=keep)
            inflated = np.prod((np.abs(a.ref) + a.err) * (1 + UNIT[acc]),
                               axis=axes, keepdims=keep)
            e = np.maximum(inflated - np.abs(r), 0) + count * TINY[acc]
            return Val(r, rounded_once(dtype, r, e), dtype)
        # f16 and bf16 accumulate in f32 and round once (SPEC section 2).
        acc = accumulator(dtype)
        s = np.sum(a.ref, axis=axes, keepdims=keep)
        magnitude = np.sum(np.abs(a.ref), axis=axes, keepdims=keep)
        e = (np.sum(a.err, axis=axes, keepdims=keep) +
             (count + 1) * UNIT[acc] * magnitude + count * TINY[acc])
        if kind == "reduce_sum":
            return Val(s, rounded_once(dtype, s, e), dtype)
        if count == 0:
            return Val(np.full(s.shape, np.nan), np.zeros(s.shape), dtype)
        r = s / count
        # The accumulated sum divided by the count (both in the
        # accumulator's type), rounded once.
        bound = e / count + 3 * UNIT[acc] * np.abs(r) + TINY[acc]
        return Val(r, rounded_once(dtype, r, bound), dtype)


def window_patches(x, sizes, strides, dilations, pads, fill):
    """(N, OH, OW, kh, kw, C): each output position's window of the NHWC
    `x` padded with `fill`."""
    top, bottom, left, right = pads
    x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)),
               constant_values=fill)
    kh, kw = sizes
    oh = (x.shape[1] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (x.shape[2] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    patches = np.empty((x.shape[0], oh, ow, kh, kw, x.shape[3]), x.dtype)
    for i in range(kh):
        for j in range(kw):
            y0, x0 = i * dilations[0], j * dilations[1]
            patches[:, :, :, i, j, :] = x[
                :, y0:y0 + (oh - 1) * strides[0] + 1:strides[0],
                x0:x0 + (ow - 1) * strides[1] + 1:strides[1], :]
    return patches


def evaluate_conv(node, x, w):
    a = node.attrs
    check_known(x.shape, node.operands[0].dims, "conv2d input")
    kh, kw, cg, cout = w.shape
    groups, per = a["groups"], cout // a["groups"]

    def conv(values, filters, fill=0):
        p = window_patches(values, (kh, kw), a["strides"], a["dilations"],
                           a["padding"], fill)
        return np.concatenate([np.einsum(
            "nyxijc,ijco->nyxo", p[..., g * cg:(g + 1) * cg],
            filters[..., g * per:(g + 1) * per]) for g in range(groups)],
            axis=-1)
    dtype = node.dtype
    if not is_float(dtype):
        r = wrap(conv(x.ref, w.ref), dtype)
        check_known(r.shape, node.dims, "conv2d")
        return Val(r, None, dtype)
    acc = accumulator(dtype)
    count = kh * kw * cg
    r = conv(x.ref, w.ref)
    check_known(r.shape, node.dims, "conv2d")
    e = (conv(np.abs(x.ref), w.err) + conv(x.err, np.abs(w.ref)) +
         conv(x.err, w.err) +
         ((count + 1) * UNIT[acc] + input_rounding(dtype)) *
         conv(np.abs(x.ref), np.abs(w.ref)) +
         (count + 1) * TINY[acc])
    return Val(r, rounded_once(dtype, r, e), dtype)


def evaluate_pool(node, x):
    a = node.attrs
    check_known(x.shape, node.operands[0].dims, node.kind + " input")
    dtype = node.dtype
    window = a["window"]

    def patches(values, fill):
        return window_patches(values, window, a["strides"], (1, 1),
                              a["padding"], fill)
    if node.kind == "max_pool2d":
        lowest = -np.inf if is_float(dtype) else np.iinfo(np.int64).min
        r = patches(x.ref, lowest).max(axis=(3, 4))
        check_known(r.shape, node.dims, "max_pool2d")
        return Val(r, patches(x.err, 0).max(axis=(3, 4)) if r.size else
                   None, dtype)
    acc = accumulator(dtype)
    n = window[0] * window[1]
    count = patches(np.ones(x.shape), 0).sum(axis=(3, 4))
    s = patches(x.ref, 0).sum(axis=(3, 4))
    check_known(s.shape, node.dims, "avg_pool2d")
    magnitude = patches(np.abs(x.ref), 0).sum(axis=(3, 4))
    e = patches(x.err, 0).sum(axis=(3, 4)) + (n + 1) * UNIT[acc] * \
        magnitude + n * TINY[acc]
    r = s / count
    bound = e / count + 3 * UNIT[acc] * np.abs(r) + TINY[acc]
    return Val(r, rounded_once(dtype, r, bound), dtype)


def evaluate_scatter_add(node, base, indices, updates):
    """base.at[..., indices, ...].add(updates): f16 and bf16 accumulate in
    f32 (starting from the base) and round once."""
    axis = node.attrs["axis"]
    extent = base.shape[axis]
    if indices.ref.size and (indices.ref.min() < -extent or
                             indices.ref.max() >= extent):
        raise ShapeMismatch("scatter_add: index out of range")
    expected = base.shape[:axis] + indices.shape + base.shape[axis + 1:]
    if updates.shape != expected:
        raise ShapeMismatch(f"scatter_add: updates of shape {updates.shape},"
                            f" expected {expected}")
    check_known(base.shape, node.dims, "scatter_add")
    dtype = node.dtype
    at = (slice(None),) * axis + (indices.ref,)
    if not is_float(dtype):
        r = base.ref.astype(np.int64)
        with np.errstate(all="ignore"):
            np.add.at(r, at, updates.ref.astype(np.int64))
        return Val(wrap(r, dtype), None, dtype)
    acc = accumulator(dtype)
    r = base.ref.astype(np.float64)
    np.add.at(r, at, updates.ref)
    count = np.ones(base.shape)
    np.add.at(count, at, 1)
    magnitude = np.abs(base.ref).astype(np.float64)
    np.add.at(magnitude, at, np.abs(updates.ref))
    e = np.zeros(base.shape) if base.err is None else base.err.copy()
    if updates.err is not None:
        np.add.at(e, at, updates.err)
    e = e + count * UNIT[acc] * magnitude + count * TINY[acc]
    return Val(r, rounded_once(dtype, r, e), dtype)


def evaluate_softmax(node, a):
    axis = node.attrs["axis"] % len(a.shape)
    dtype = node.dtype
    u = UNIT[dtype]
    if a.shape[axis] == 0:
        return Val(a.ref, a.err, dtype)
    with np.errstate(all="ignore"):
        m = np.max(a.ref, axis=axis, keepdims=True)
        em = np.max(a.err, axis=axis, keepdims=True)
        z = a.ref - m
        ez = a.err + em + u * np.abs(z)
        num = np.exp(z)
        # Numerators where z < -87 (-708 for f64) are flushed to 0
        # (ScalarSemantics.h: softmaxNumerator): at most exp(-87).
        flush = 3.4e-308 if dtype == "f64" else 1.7e-38
        enum = num * np.expm1(ez) + 4 * u * num + TINY[dtype] + flush
        # The sum accumulates in f32 for f16 and bf16; each quotient
        # rounds once.
        s = np.sum(num, axis=axis, keepdims=True)
        n = a.shape[axis]
        es = np.sum(enum, axis=axis, keepdims=True) + \
            (n + 1) * UNIT[accumulator(dtype)] * s
        r = num / s
        e = (enum + r * es) / np.maximum(s - es, 1e-300) + u * r + TINY[dtype]
    return Val(r, e, dtype)


def evaluate_cast(node, a):
    src, dst = node.operands[0].dtype, node.dtype
    check_known(a.shape, node.dims, "cast")
    if src == "i1" or dst == "i1":
        # Exact both ways (casts to i1 are made from exact values only).
        r = (a.ref != 0).astype(np.int64) if dst == "i1" else a.ref
        return Val(r.astype(np.float64) if is_float(dst) else r, None, dst)
    if is_float(src) and is_float(dst):
        return Val(a.ref, a.err + rounding(dst, np.abs(a.ref) + a.err), dst)
    if is_float(src):
        # Exact inputs only (the generator makes sure): trunc, saturate.
        bits = 32 if dst == "i32" else 64
        def saturate(x):
            if np.isnan(x):
                return 0
            t = np.trunc(x)
            if t >= 2.0 ** (bits - 1):
                return 2 ** (bits - 1) - 1
            if t < -2.0 ** (bits - 1):
                return -2 ** (bits - 1)
            return int(t)
        r = np.array([saturate(x) for x in a.ref.ravel()],
                     dtype=np.int64).reshape(a.shape)
        return Val(r, None, dst)
    if is_float(dst):
        r = a.ref.astype(np.float64)
        exact = np.abs(a.ref) <= 2 ** PRECISION[dst]
        # i64 values beyond 2^53 are not exact in float64 either.
        return Val(r, np.where(exact, 0, 2 * rounding(dst, r)), dst)
    return Val(wrap(a.ref, dst), None, dst)


def evaluate_region(nodes, env):
    """Runs a region's nodes with `env` holding the values from above."""
    for node in nodes:
        if node.kind == "constant":
            env[node] = Val(node.attrs["value"], None, node.dtype)
        else:
            env[node] = evaluate(node, [env[o] for o in node.operands])


def evaluate_if(node, operands):
    env = dict(zip(node.operands, operands))
    taken = "then" if operands[0].ref[()] else "else"
    evaluate_region(node.attrs[taken], env)
    value = env[node.attrs[taken + "_result"]]
    check_known(value.shape, node.dims, "if")
    return value


def evaluate_while(node, operands):
    """The loop state after `trips` runs of the body."""
    env = dict(zip(node.operands, operands))
    state = operands[0]
    for _ in range(node.attrs["trips"]):
        env[node.attrs["state"]] = state
        evaluate_region(node.attrs["body"], env)
        state = env[node.attrs["result"]]
    check_known(state.shape, node.dims, "while")
    return state


def evaluate(node, operands):
    """The value of `node` given its operands' values; raises ShapeMismatch
    where compiled code must fail."""
    kind = node.kind
    if kind == "if":
        return evaluate_if(node, operands)
    if kind == "while":
        return evaluate_while(node, operands)
    if kind in BINARY:
        shape = broadcast_shape(node, operands)
        check_known(shape, node.dims, kind)
        return evaluate_binary(node, operands[0], operands[1], shape)
    if kind in COMPARE:
        shape = broadcast_shape(node, operands)
        check_known(shape, node.dims, kind)
        return evaluate_compare(node, operands[0], operands[1], shape)
    if kind == "select":
        shape = broadcast_shape(node, operands)
        check_known(shape, node.dims, kind)
        return evaluate_select(node, operands, shape)
    if kind in UNARY:
        return evaluate_unary(node, operands[0])
    if kind == "matmul":
        return evaluate_matmul(node, operands[0], operands[1])
    if kind == "matmul_bias_relu":
        return evaluate_matmul(node, operands[0], operands[1], operands[2])
    if kind == "transpose":
        perm = node.attrs["perm"]
        known = [None] * len(perm)
        for i, p in enumerate(perm):
            known[p] = node.dims[i]
        a = operands[0]
        check_known(a.shape, known, "transpose")
        return Val(np.transpose(a.ref, perm), np.transpose(a.err, perm),
                   node.dtype)
    if kind == "slice":
        a = operands[0]
        check_known(a.shape, node.operands[0].dims, "slice")
        index = np.ix_(*[np.arange(s, l, st) for s, l, st in zip(
            node.attrs["starts"], node.attrs["limits"],
            node.attrs["strides"])])
        return Val(a.ref[index], a.err[index], node.dtype)
    if kind == "conv2d":
        return evaluate_conv(node, operands[0], operands[1])
    if kind in ("max_pool2d", "avg_pool2d"):
        return evaluate_pool(node, operands[0])
    if kind == "concat":
        axis = node.attrs["axis"] % len(node.dims)
        first = operands[0].shape
        for value in operands[1:]:
            for d, extent in enumerate(value.shape):
                if d != axis and extent != first[d]:
                    raise ShapeMismatch("concat: extents differ")
        ref = np.concatenate([v.ref for v in operands], axis=axis)
        check_known(ref.shape, node.dims, "concat")
        return Val(ref, np.concatenate([v.err for v in operands], axis=axis),
                   node.dtype)
    if kind == "pad":
        a, value = operands
        widths = tuple(zip(node.attrs["low"], node.attrs["high"]))
        ref = np.pad(a.ref, widths, constant_values=value.ref[()])
        check_known(ref.shape, node.dims, "pad")
        return Val(ref, np.pad(a.err, widths, constant_values=value.err[()]),
                   node.dtype)
    if kind == "gather":
        a, indices = operands
        axis = node.attrs["axis"]
        extent = a.shape[axis]
        if indices.ref.size and (indices.ref.min() < -extent or
                                 indices.ref.max() >= extent):
            raise ShapeMismatch("gather: index out of range")
        ref = np.take(a.ref, indices.ref, axis=axis)
        check_known(ref.shape, node.dims, "gather")
        return Val(ref, np.take(a.err, indices.ref, axis=axis), node.dtype)
    if kind == "scatter_add":
        return evaluate_scatter_add(node, *operands)
    if kind == "iota":
        shape, dimension = node.dims, node.attrs["dimension"]
        counts = np.arange(shape[dimension]).reshape(
            [-1 if d == dimension else 1 for d in range(len(shape))])
        # Converted to the element type once, as the op defines it.
        return Val(to_dtype(np.broadcast_to(counts, shape), node.dtype), None,
                   node.dtype)
    if kind in ("argmax", "argmin"):
        a = operands[0]
        axis = node.attrs["axis"] % a.ref.ndim
        if a.shape[axis] == 0:
            raise ShapeMismatch(f"{kind}: empty axis")
        ref = getattr(np, kind)(a.ref, axis=axis,
                                keepdims=node.attrs["keep_dims"])
        check_known(ref.shape, node.dims, kind)
        return Val(ref.astype(np.int64), None, "i64")
    if kind == "reshape":
        a = operands[0]
        count = a.ref.size
        static = [d for d in node.dims if d is not None]
        known = int(np.prod(static)) if static else 1
        if None in node.dims:
            if known == 0 or count % known:
                raise ShapeMismatch("reshape: count not divisible")
            shape = [count // known if d is None else d for d in node.dims]
        else:
            if count != known:
                raise ShapeMismatch("reshape: count differs")
            shape = node.dims
        return Val(a.ref.reshape(shape), a.err.reshape(shape), node.dtype)
    if kind in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
                "reduce_mean"):
        return evaluate_reduce(node, operands[0])
    if kind == "softmax":
        return evaluate_softmax(node, operands[0])
    if kind == "cast":
        return evaluate_cast(node, operands[0])
    if kind == "call":
        return node.attrs["function"].evaluate(operands)[0]
    raise AssertionError(kind)


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------

class Function:
    def __init__(self, name, public=True):
        self.name, self.public = name, public
        self.args, self.nodes, self.results = [], [], []
        self.constants = {}

    def evaluate(self, inputs):
        env = {}
        for arg, value in zip(self.args, inputs):
            for d, dim in enumerate(arg.dims):
                if dim is not None and value.shape[d] != dim:
                    raise ShapeMismatch("argument extent")
            env[arg] = value
        # Dead ops are not part of the program (the text leaves them out).
        for node in self.live_nodes():
            if node.kind == "constant":
                env[node] = Val(node.attrs["value"], None, node.dtype)
            else:
                env[node] = evaluate(node, [env[o] for o in node.operands])
        return [env[r] for r in self.results]

    def live_nodes(self):
        live = set(self.results)
        for node in reversed(self.nodes):
            if node in live:
                live.update(node.operands)
        return [n for n in self.nodes if n in live]

    def text(self):
        lines = []
        names = {}
        for i, arg in enumerate(self.args):
            names[arg] = f"%a{i}"
        params = ", ".join(f"{names[a]}: {a.type()}" for a in self.args)
        result_types = ", ".join(r.type() for r in self.results)
        visibility = "" if self.public else "private "
        lines.append(f"func.func {visibility}@{self.name}({params}) -> "
                     f"({result_types}) {{")
        for i, node in enumerate(self.live_nodes()):
            names[node] = f"%v{i}"
            lines.append("  " + node_text(node, names))
        results = ", ".join(names[r] for r in self.results)
        lines.append(f"  return {results} : {result_types}")
        lines.append("}")
        return "\n".join(lines)


def region_text(nodes, result, names, prefix):
    lines = []
    for j, node in enumerate(nodes):
        names[node] = f"{prefix}_{j}"
        lines.append("    " + node_text(node, names))
    lines.append(f"    google.yield {names[result]} : {result.type()}")
    return "\n".join(lines)


def control_text(node, names):
    out = names[node]
    if node.kind == "if":
        pred = names[node.operands[0]]
        then = region_text(node.attrs["then"], node.attrs["then_result"],
                           names, out + "_t")
        other = region_text(node.attrs["else"], node.attrs["else_result"],
                            names, out + "_e")
        return (f"{out} = google.if {pred} : tensor<i1> -> ({node.type()}) "
                f"{{\n{then}\n  }} else {{\n{other}\n  }}")
    state = node.attrs["state"]
    names[state] = f"{out}_x"
    body = region_text(node.attrs["body"], node.attrs["result"], names,
                       out + "_b")
    # The yield of the state gains the counter.
    body = body.rsplit("\n", 1)[0]
    result = names[node.attrs["result"]]
    t = node.type()
    trips = node.attrs["trips"]
    # The counter's form, from the name (no random draw: seeds keep their
    # programs): up by 1 to `trips`, down by 1 to 0, up by 2 to a bound it
    # reaches (<=), or up by 1 while != trips (not a counted loop: an
    # scf.while).
    start, compare, bound, step = [
        (0, "lt", trips, ("add", 1)),
        (trips, "gt", 0, ("sub", 1)),
        (0, "le", 2 * trips - 2, ("add", 2)),
        (0, "ne", trips, ("add", 1)),
    ][int(re.sub(r"\D", "", out) or 0) % 4]
    text = (f"{out}_zero = google.constant dense<{start}> : tensor<i64>\n"
            f"  {out}:2 = google.while {out}_zero, {names[node.operands[0]]}"
            f" {{trip_count = {trips} : i64}} : (tensor<i64>, {t}) -> "
            f"(tensor<i64>, {t}) cond {{\n"
            f"  ^bb0({out}_i: tensor<i64>, {out}_x: {t}):\n"
            f"    {out}_n = google.constant dense<{bound}> : tensor<i64>\n"
            f"    {out}_c = google.{compare} {out}_i, {out}_n : tensor<i64>, "
            f"tensor<i64> -> tensor<i1>\n"
            f"    google.condition {out}_c : tensor<i1>\n"
            f"  }} do {{\n"
            f"  ^bb0({out}_i: tensor<i64>, {out}_x: {t}):\n"
            f"{body}\n"
            f"    {out}_one = google.constant dense<{step[1]}> : tensor<i64>\n"
            f"    {out}_next = google.{step[0]} {out}_i, {out}_one : "
            f"tensor<i64>, tensor<i64> -> tensor<i64>\n"
            f"    google.yield {out}_next, {result} : tensor<i64>, {t}\n"
            f"  }}")
    names[node] = f"{out}#1"
    return text


def node_text(node, names):
    out = names[node]
    ops = [names[o] for o in node.operands]
    kind = node.kind
    if kind in ("if", "while"):
        return control_text(node, names)
    if kind == "constant":
        return (f"{out} = google.constant "
                f"{format_dense(node.attrs['value'], node.dtype)} : {node.type()}")
    if kind in BINARY or kind in COMPARE:
        return (f"{out} = google.{kind} {ops[0]}, {ops[1]} : "
                f"{node.operands[0].type()}, {node.operands[1].type()} -> "
                f"{node.type()}")
    if kind == "select":
        types = ", ".join(o.type() for o in node.operands)
        return (f"{out} = google.select {', '.join(ops)} : {types} -> "
                f"{node.type()}")
    if kind in UNARY:
        return f"{out} = google.{kind} {ops[0]} : {node.type()}"
    if kind in ("matmul", "matmul_bias_relu"):
        types = ", ".join(o.type() for o in node.operands)
        return (f"{out} = google.{kind} {', '.join(ops)} : {types} -> "
                f"{node.type()}")
    if kind == "transpose":
        perm = ", ".join(map(str, node.attrs["perm"]))
        return (f"{out} = google.transpose {ops[0]} {{perm = array<i64: "
                f"{perm}>}} : {node.operands[0].type()} -> {node.type()}")
    if kind in ("reshape", "cast"):
        return (f"{out} = google.{kind} {ops[0]} : "
                f"{node.operands[0].type()} -> {node.type()}")
    if kind == "slice":
        attrs = ", ".join(
            f"{name} = array<i64: {', '.join(map(str, node.attrs[name]))}>"
            for name in ("starts", "limits", "strides"))
        return (f"{out} = google.slice {ops[0]} {{{attrs}}} : "
                f"{node.operands[0].type()} -> {node.type()}")
    if kind in WINDOWED:
        names = (("strides", "dilations", "padding") if kind == "conv2d"
                 else ("window", "strides", "padding"))
        attrs = ", ".join(
            f"{name} = array<i64: {', '.join(map(str, node.attrs[name]))}>"
            for name in names)
        if kind == "conv2d":
            attrs += f", groups = {node.attrs['groups']} : i64"
        types = ", ".join(o.type() for o in node.operands)
        return (f"{out} = google.{kind} {', '.join(ops)} {{{attrs}}} : "
                f"{types} -> {node.type()}")
    if kind == "concat":
        types = ", ".join(o.type() for o in node.operands)
        return (f"{out} = google.concat {', '.join(ops)} {{axis = "
                f"{node.attrs['axis']} : i64}} : {types} -> {node.type()}")
    if kind == "pad":
        low = ", ".join(map(str, node.attrs["low"]))
        high = ", ".join(map(str, node.attrs["high"]))
        return (f"{out} = google.pad {ops[0]}, {ops[1]} {{low = array<i64: "
                f"{low}>, high = array<i64: {high}>}} : "
                f"{node.operands[0].type()}, {node.operands[1].type()} -> "
                f"{node.type()}")
    if kind == "gather":
        return (f"{out} = google.gather {ops[0]}, {ops[1]} {{axis = "
                f"{node.attrs['axis']} : i64}} : {node.operands[0].type()}, "
                f"{node.operands[1].type()} -> {node.type()}")
    if kind == "scatter_add":
        return (f"{out} = google.scatter_add {ops[0]}, {ops[1]}, {ops[2]} "
                f"{{axis = {node.attrs['axis']} : i64}} : "
                f"{node.operands[0].type()}, {node.operands[1].type()}, "
                f"{node.operands[2].type()} -> {node.type()}")
    if kind == "iota":
        return (f"{out} = google.iota {{dimension = "
                f"{node.attrs['dimension']} : i64}} : {node.type()}")
    if kind in ("argmax", "argmin"):
        keep = "true" if node.attrs["keep_dims"] else "false"
        return (f"{out} = google.{kind} {ops[0]} {{axis = "
                f"{node.attrs['axis']} : i64, keep_dims = {keep}}} : "
                f"{node.operands[0].type()} -> {node.type()}")
    if kind.startswith("reduce_"):
        axes = ", ".join(map(str, node.attrs["axes"]))
        keep = "true" if node.attrs["keep_dims"] else "false"
        return (f"{out} = google.{kind} {ops[0]} {{axes = array<i64: {axes}>, "
                f"keep_dims = {keep}}} : {node.operands[0].type()} -> "
                f"{node.type()}")
    if kind == "softmax":
        return (f"{out} = google.softmax {ops[0]} {{axis = "
                f"{node.attrs['axis']} : i64}} : {node.type()}")
    if kind == "call":
        callee = node.attrs["function"]
        types = ", ".join(o.type() for o in node.operands)
        return (f"{out} = func.call @{callee.name}({', '.join(ops)}) : "
                f"({types}) -> {node.type()}")
    raise AssertionError(kind)


class Program:
    def __init__(self):
        self.functions = []   # helpers first, @main last
        self.inputs = []      # Val per argument of @main

    @property
    def main(self):
        return self.functions[-1]

    def text(self):
        return "\n".join(f.text() for f in self.functions) + "\n"

    def expected(self, inputs=None):
        return self.main.evaluate(self.inputs if inputs is None else inputs)


# --------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------

class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.nprng = np.random.default_rng(seed)

    def choice(self, items, weights=None):
        return self.rng.choices(items, weights=weights)[0]

    def extent(self):
        # Extents of 0 are valid everywhere (empty tensors).
        return self.choice([0, 1, 2, 3, 4, 5, 7, 8],
                           [0.25, 1, 4, 4, 4, 2, 1, 2])

    def values(self, shape, dtype, low=-2.0, high=2.0, exact=False):
        if dtype == "i1":
            return self.nprng.integers(0, 2, shape).astype(np.int64)
        if dtype in INTS:
            return self.nprng.integers(-10, 11, shape).astype(np.int64)
        if exact or (self.rng.random() < 0.3 and not GRAD_MODE):
            # Multiples of 1/4: exact in every type, ties for rounding.
            v = self.nprng.integers(int(low * 4), int(high * 4) + 1, shape) / 4
        else:
            v = self.nprng.uniform(low, high, shape)
        return to_dtype(v, dtype)

    def program(self):
        program = Program()
        dtype = self.choice(["f32", "f16", "bf16", "f64", "i32", "i64"],
                            [10, 2, 2, 2, 1.5, 1.5])
        if GRAD_MODE:
            dtype = "f64"
        helper = None
        if self.rng.random() < 0.2 and not GRAD_MODE:
            helper = self.function("helper", dtype, public=False, budget=4)
            program.functions.append(helper)
        main = self.function("main", dtype, public=True,
                             budget=self.rng.randint(4, 16), helper=helper)
        program.functions.append(main)
        program.inputs = [self.arg_values[a] for a in main.args]
        return program

    # ---- one function ----

    def function(self, name, dtype, public, budget, helper=None):
        f = Function(name, public)
        self.f = f
        self.env = {}
        self.arg_values = getattr(self, "arg_values", {})
        for _ in range(self.rng.randint(1, 3)):
            self.new_arg(dtype)
        if helper is not None:
            self.gen_call(dtype, helper)
        attempts = 0
        while len(f.nodes) < budget and attempts < budget * 20:
            attempts += 1
            self.step(dtype, helper)
        # Results: the values nothing uses (newest first), so that most
        # generated ops stay live; a helper returns one.
        used = {o for n in f.nodes for o in n.operands}
        sinks = [n for n in reversed(f.nodes)
                 if n.kind != "constant" and n not in used]
        candidates = sinks or [n for n in f.nodes if n.kind != "constant"] \
            or f.args
        f.results = candidates[:self.rng.randint(1, 3) if public else 1]
        return f

    def new_arg(self, dtype, dims=None, shape=None):
        if shape is None:
            rank = self.choice([0, 1, 2, 3], [0.5, 2, 5, 3])
            shape = [self.extent() for _ in range(rank)]
            # Long rows: softmax and normalizations over them run row by
            # row on the CPU (fused chains of row ops).
            if rank >= 2 and self.rng.random() < 0.1:
                # 512 and 1000: GPU row chains in registers (256 threads,
                # 2 and 4 elements each, the last slot partly out).
                shape[-1] = self.choice([128, 150, 300, 300, 512, 1000])
                if shape[-1] > 300 and dims is None:
                    dims = list(shape)  # static: GPU chains need it
                    # As many rows as elements: a vector along the rows
                    # then has the rows' shape.
                    if rank == 2 and shape[-1] == 512 and \
                            self.rng.random() < 0.3:
                        shape[0] = dims[0] = 512
                # Sometimes many of them: elementwise ops of 2^16
                # elements or more run in chunks on threads.
                if shape[-1] <= 300 and self.rng.random() < 0.5:
                    shape[-2] = 512
                    if dims is None:
                        dims = list(shape)
            # Sums of thousands of f16/bf16 elements: they accumulate in
            # f32 (SPEC section 2), which the bounds tell apart.
            elif rank in (1, 2) and dtype in ("f16", "bf16") and \
                    self.rng.random() < 0.25:
                shape[-1] = self.choice([2048, 5000])
        if dims is None:
            dims = [None if self.rng.random() < (0.4 if d == 0 else 0.15)
                    else s for d, s in enumerate(shape)]
        node = Node("arg", dtype, dims)
        self.f.args.append(node)
        value = Val(self.values(tuple(shape), dtype), None, dtype)
        self.arg_values[node] = value
        self.env[node] = value
        return node

    def constant(self, dtype, shape):
        value = self.values(tuple(shape), dtype, exact=True)
        if self.rng.random() < 0.4 and value.size:
            value = np.full(shape, value.flat[0])
        node = Node("constant", dtype, list(shape), attrs={"value": value})
        return self.add(node)

    def add(self, node):
        """Appends `node` if it evaluates, within limits; returns it or
        None."""
        try:
            value = evaluate(node, [self.env[o] for o in node.operands]) \
                if node.kind != "constant" else \
                Val(node.attrs["value"], None, node.dtype)
        except ShapeMismatch:
            return None
        with np.errstate(all="ignore"):
            bad = not np.all(np.isfinite(value.ref)) if is_float(value.dtype) \
                else False
            if not bad and value.ref.size:
                bad = np.max(np.abs(value.ref)) > LIMIT[value.dtype] or \
                    (is_float(value.dtype) and
                     not np.all(np.isfinite(value.err)))
        if bad:
            return None
        self.f.nodes.append(node)
        self.env[node] = value
        return node

    def pick(self, dtype=None, pred=None):
        """A value, recent ones more likely (so that ops form chains)."""
        pool = [n for n in self.f.args + self.f.nodes
                if (dtype is None or n.dtype == dtype) and
                (pred is None or pred(n, self.env[n]))]
        if not pool:
            return None
        return self.choice(pool, [1 + i * i for i in range(len(pool))])

    def result_dims(self, dims, shape):
        """Declared result dims: mostly as inferred, sometimes relaxed to ?
        or refined to the run-time extent (a checked assumption)."""
        out = []
        for d, s in zip(dims, shape):
            r = self.rng.random()
            if d is not None and r < 0.1:
                out.append(None)
            elif d is None and r < 0.2:
                out.append(s)
            else:
                out.append(d)
        return out

    def step(self, dtype, helper):
        kinds = ["binary", "unary", "matmul", "fused", "pattern", "transpose",
                 "reshape", "reduce", "cast", "normalize", "slice", "concat",
                 "pad", "gather", "scatter_add", "iota", "argreduce", "conv",
                 "pool", "branch", "loop", "attention"]
        weights = [8, 5, 2, 1, 1.5, 1.5, 1.5, 3, 1.5, 3, 1.5, 1.2, 1, 1.2,
                   0.8, 0.5, 1, 1, 1, 1, 1, 0.3]
        if is_float(dtype):
            kinds += ["softmax", "loss"]
            weights += [1.5, 0.5]
        kinds.append("rows")
        weights.append(0.5)
        kinds.append("heads")
        weights.append(0.4)
        kinds.append("mask")
        weights.append(2)
        if helper is not None:
            kinds.append("call")
            weights.append(1.5)
        if GRAD_MODE:
            # Ops with adjoint rules, without integer round trips.
            weights = [0 if k in GRAD_EXCLUDED else w
                       for k, w in zip(kinds, weights)]
        if ONLY_KINDS:
            # --only: those kinds, and elementwise ops for values to feed them.
            allowed = ONLY_KINDS | {"binary", "unary"}
            weights = [w if k in ONLY_KINDS else (0.2 * w if k in allowed
                                                  else 0)
                       for k, w in zip(kinds, weights)]
        getattr(self, "gen_" + self.choice(kinds, weights))(dtype, helper)

    # ---- op generators ----

    def new_partner(self, a, dtype):
        """A new argument or constant that broadcasts with `a`: leading
        dimensions dropped (or one added), some extents a stretching 1."""
        value = self.env[a]
        rank = len(a.dims)
        keep = self.rng.randint(0, rank) if self.rng.random() < 0.3 else rank
        shape, dims = [], []
        if self.rng.random() < 0.1:
            extra = self.extent()
            shape.append(extra)
            dims.append(None if self.rng.random() < 0.3 else extra)
        for d in range(rank - keep, rank):
            if self.rng.random() < 0.3:
                shape.append(1)
                dims.append(1)
            else:
                shape.append(value.shape[d])
                dims.append(None if self.rng.random() < 0.3 else
                            value.shape[d])
        if self.rng.random() < 0.5:
            return self.constant(dtype, shape)
        return self.new_arg(dtype, dims, shape)

    def declared_broadcast(self, x, y):
        rank = max(len(x.dims), len(y.dims))
        out = []
        for i in range(rank):
            l = x.dims[len(x.dims) - rank + i] if i >= rank - len(x.dims) else 1
            r = y.dims[len(y.dims) - rank + i] if i >= rank - len(y.dims) else 1
            if l == 1:
                out.append(r)
            elif r == 1:
                out.append(l)
            elif l is None:
                out.append(r)
            elif r is None or l == r:
                out.append(l)
            else:
                return None
        return out

    def gen_binary(self, dtype, helper):
        kinds = [k for k in BINARY if k not in LOGICAL and
                 (is_float(dtype) or k not in FLOAT_BINARY)]
        kind = self.choice(kinds)
        exact = (lambda n, v: not np.any(v.err)) \
            if kind in DISCONTINUOUS else None
        a = self.pick(dtype, exact)
        if kind == "pow" and a is not None:
            a = self.positive(a, dtype)
        if a is None:
            return
        for attempt in range(2):
            b = None
            if attempt == 0 and self.rng.random() < 0.5:
                b = self.pick(dtype, lambda n, v: len(n.dims) <= len(a.dims)
                              and (exact is None or exact(n, v)))
            if b is None:
                b = self.new_partner(a, dtype)
            if b is None:
                continue
            if kind == "pow" and self.rng.random() < 0.5:
                # Small powers: large ones overflow the limits.
                b = self.add(Node("constant", dtype, [], attrs={
                    "value": to_dtype(np.asarray(self.choice(
                        [-2.5, -1.5, -1.0, 0.0, 0.5, 1.5, 2.0, 3.0])),
                        dtype)}))
                if b is None:
                    continue
            if kind == "div":
                v = self.env[b]
                if v.ref.size and np.min(np.abs(v.ref) - v.err) <= 0.25:
                    b = self.positive(b, dtype)
                    if b is None:
                        continue
            x, y = (a, b) if self.rng.random() < 0.7 else (b, a)
            dims = self.declared_broadcast(x, y)
            if dims is None:
                continue
            node = Node(kind, dtype, dims, [x, y])
            try:
                shape = broadcast_shape(node, [self.env[x], self.env[y]])
            except ShapeMismatch:
                continue
            node.dims = self.result_dims(dims, shape)
            if self.add(node) is not None:
                return

    def broadcasting(self, kind, dtype, operands):
        """A broadcasting op of `kind` on `operands`, or None."""
        dims = operands[0].dims
        for operand in operands[1:]:
            dims = self.declared_broadcast(Node("arg", dtype, dims), operand)
            if dims is None:
                return None
        node = Node(kind, dtype, dims, operands)
        try:
            shape = broadcast_shape(node, [self.env[o] for o in operands])
        except ShapeMismatch:
            return None
        node.dims = self.result_dims(dims, shape)
        return self.add(node)

    def gen_slice(self, dtype, helper):
        """A window of a value of static shape: per dimension a range with
        a step of either sign, as Python's slices make them."""
        a = self.pick(dtype, lambda n, v: n.dims and None not in n.dims)
        if a is None:
            return
        starts, limits, strides, shape = [], [], [], []
        for size in a.dims:
            step = self.choice([1, 1, 2, 3, -1, -2])
            lo, hi = sorted(self.rng.randint(-size - 1, size + 1)
                            for _ in range(2))
            item = slice(lo, hi, step) if step > 0 else slice(hi, lo, step)
            if self.rng.random() < 0.2:
                item = slice(None, None, step)
            start, limit, stride = item.indices(size)
            starts.append(start)
            limits.append(limit)
            strides.append(stride)
            shape.append(len(range(start, limit, stride)))
        self.add(Node("slice", dtype, self.result_dims(shape, shape), [a],
                      {"starts": starts, "limits": limits,
                       "strides": strides}))

    def gen_concat(self, dtype, helper):
        """Values joined along an axis: others of the same extents off the
        axis (existing values, new arguments or constants)."""
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if a is None:
            return
        rank = len(a.dims)
        axis = self.rng.randrange(rank)
        shape = list(self.env[a].shape)
        operands = [a]
        for _ in range(self.rng.randint(1, 2)):
            other = None
            if self.rng.random() < 0.4:
                other = self.pick(dtype, lambda n, v: len(n.dims) == rank and
                                  all(v.shape[d] == shape[d]
                                      for d in range(rank) if d != axis))
            if other is None:
                extent = self.extent()
                partner = [extent if d == axis else shape[d]
                           for d in range(rank)]
                if self.rng.random() < 0.5:
                    other = self.constant(dtype, partner)
                else:
                    dims = [None if self.rng.random() < 0.3 else e
                            for e in partner]
                    other = self.new_arg(dtype, dims, partner)
            if other is None:
                return
            operands.append(other)
        if self.rng.random() < 0.5:
            self.rng.shuffle(operands)
        dims, total = [], [self.env[o].shape for o in operands]
        for d in range(rank):
            declared = [o.dims[d] for o in operands]
            if d == axis:
                dims.append(None if None in declared else sum(declared))
            else:
                dims.append(next((e for e in declared if e is not None),
                                 None))
        shape[axis] = sum(t[axis] for t in total)
        self.add(Node("concat", dtype, self.result_dims(dims, shape),
                      operands, {"axis": axis - rank
                                 if self.rng.random() < 0.3 else axis}))

    def gen_pad(self, dtype, helper):
        """Constant padding of each side by 0 to 2 (the value a constant
        or an argument)."""
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if a is None:
            return
        rank = len(a.dims)
        low = [self.choice([0, 0, 1, 2]) for _ in range(rank)]
        high = [self.choice([0, 0, 1, 2]) for _ in range(rank)]
        if self.rng.random() < 0.6:
            value = self.constant(dtype, [])
        else:
            value = self.new_arg(dtype, [], [])
        shape = [e + lo + hi for e, lo, hi in zip(self.env[a].shape, low,
                                                  high)]
        dims = [None if d is None else d + lo + hi
                for d, lo, hi in zip(a.dims, low, high)]
        self.add(Node("pad", dtype, self.result_dims(dims, shape),
                      [a, value], {"low": low, "high": high}))

    def new_indices(self, extent):
        """Indices into an axis of `extent` (rank 0 to 2, int32 or int64,
        either sign): an argument or a constant; None if there are none."""
        index_rank = self.choice([0, 1, 2], [1, 4, 2])
        index_shape = [self.extent() for _ in range(index_rank)]
        if extent == 0 and index_shape:
            index_shape[0] = 0
        elif extent == 0:
            return None
        index_type = self.choice(["i64", "i32"])
        indices = self.nprng.integers(-extent, max(extent, 1),
                                      tuple(index_shape)).astype(np.int64)
        if self.rng.random() < 0.4:
            return self.add(Node("constant", index_type, index_shape,
                                 attrs={"value": indices}))
        dims = [None if self.rng.random() < 0.3 else e for e in index_shape]
        node = Node("arg", index_type, dims)
        self.f.args.append(node)
        self.arg_values[node] = self.env[node] = Val(indices, None,
                                                     index_type)
        return node

    def gen_gather(self, dtype, helper):
        """numpy.take along an axis with int32 or int64 indices of either
        sign (an argument or a constant), as an embedding lookup does."""
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if a is None:
            return
        value = self.env[a]
        axis = self.rng.randrange(len(a.dims))
        node = self.new_indices(value.shape[axis])
        if node is None:
            return
        index_shape = list(self.env[node].shape)
        shape = list(value.shape[:axis]) + index_shape + \
            list(value.shape[axis + 1:])
        dims = list(a.dims[:axis]) + list(node.dims) + list(a.dims[axis + 1:])
        self.add(Node("gather", dtype, self.result_dims(dims, shape),
                      [a, node], {"axis": axis}))

    def gen_scatter_add(self, dtype, helper):
        """base.at[indices].add(updates) along an axis (repeated indices
        accumulate): the updates a value of their shape or a new argument."""
        if dtype == "i1":
            return
        base = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if base is None:
            return
        value = self.env[base]
        axis = self.rng.randrange(len(base.dims))
        indices = self.new_indices(value.shape[axis])
        if indices is None:
            return
        index_shape = list(self.env[indices].shape)
        shape = list(value.shape[:axis]) + index_shape + \
            list(value.shape[axis + 1:])
        updates = self.pick(dtype, lambda n, v: list(v.shape) == shape)
        if updates is None or self.rng.random() < 0.5:
            dims = list(base.dims[:axis]) + list(indices.dims) + \
                list(base.dims[axis + 1:])
            dims = [None if d is None or self.rng.random() < 0.2 else d
                    for d in dims]
            updates = self.new_arg(dtype, dims, shape)
        # (The result has the base's type.)
        self.add(Node("scatter_add", dtype, list(base.dims),
                      [base, indices, updates], {"axis": axis}))

    def gen_iota(self, dtype, helper):
        rank = self.choice([1, 2, 3], [2, 3, 1])
        shape = [self.extent() for _ in range(rank)]
        if self.rng.random() < 0.1:
            shape[-1] = self.choice([300, 600])
        self.add(Node("iota", dtype, shape, [],
                      {"dimension": self.rng.randrange(rank)}))

    def gen_argreduce(self, dtype, helper):
        """argmax/argmin of exact values (an error could flip which is
        larger, as for comparisons); ties pick the first."""
        kind = self.choice(["argmax", "argmin"])
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1 and
                      not np.any(v.err))
        if a is None:
            return
        value = self.env[a]
        rank = len(a.dims)
        axis = self.rng.randrange(rank)
        if value.shape[axis] == 0:
            return
        keep = self.rng.random() < 0.3
        dims = [1 if d == axis else a.dims[d] for d in range(rank)
                if keep or d != axis]
        shape = [1 if d == axis else value.shape[d] for d in range(rank)
                 if keep or d != axis]
        self.add(Node(kind, "i64", self.result_dims(dims, shape), [a],
                      {"axis": axis - rank if self.rng.random() < 0.3
                       else axis, "keep_dims": keep}))

    def nhwc_input(self, dtype):
        """A small NHWC value with static H, W and C (an existing one or a
        new argument with a dynamic batch sometimes)."""
        x = None
        if self.rng.random() < 0.5:
            x = self.pick(dtype, lambda n, v: len(n.dims) == 4 and
                          None not in n.dims[1:] and v.shape[0] <= 3 and
                          max(v.shape[1:3]) <= 9 and v.shape[3] <= 6)
        if x is None:
            # Wide rows sometimes: the CPU computes f32 convolutions with
            # 16 or more output positions per row without an im2col copy.
            width = (self.rng.randint(16, 30) if self.rng.random() < 0.25
                     else self.rng.randint(1, 7))
            shape = [self.choice([0, 1, 2, 3], [0.2, 2, 2, 1]),
                     self.rng.randint(1, 7), width,
                     self.rng.randint(1, 4)]
            dims = [None if self.rng.random() < 0.4 else shape[0]] + \
                shape[1:]
            x = self.new_arg(dtype, dims, shape)
        return x

    def gen_conv(self, dtype, helper):
        """conv2d with strides, dilations, padding and groups (depthwise
        ones too); the filter an argument or a constant."""
        x = self.nhwc_input(dtype)
        n, h, w, c = self.env[x].shape
        groups = self.choice([g for g in range(1, max(c, 1) + 1)
                              if c % g == 0])
        kh, kw = self.rng.randint(1, 3), self.rng.randint(1, 3)
        strides = [self.choice([1, 1, 2]) for _ in range(2)]
        dilations = [self.choice([1, 1, 2]) for _ in range(2)]
        padding = [self.choice([0, 0, 1, 2]) for _ in range(4)]
        sizes = [dilations[0] * (kh - 1) + 1, dilations[1] * (kw - 1) + 1]
        if h + padding[0] + padding[1] < sizes[0] or \
                w + padding[2] + padding[3] < sizes[1]:
            return
        cout = groups * self.rng.randint(1, 3)
        filter_shape = [kh, kw, c // groups, cout]
        if self.rng.random() < 0.5:
            f = self.constant(dtype, filter_shape)
        else:
            f = self.new_arg(dtype, list(filter_shape), filter_shape)
        if f is None:
            return
        oh = (h + padding[0] + padding[1] - sizes[0]) // strides[0] + 1
        ow = (w + padding[2] + padding[3] - sizes[1]) // strides[1] + 1
        self.add(Node("conv2d", dtype,
                      self.result_dims([x.dims[0], oh, ow, cout],
                                       [n, oh, ow, cout]), [x, f],
                      {"strides": strides, "dilations": dilations,
                       "padding": padding, "groups": groups}))

    def gen_pool(self, dtype, helper):
        kind = self.choice(["max_pool2d", "avg_pool2d"] if is_float(dtype)
                           else ["max_pool2d"])
        x = self.nhwc_input(dtype)
        n, h, w, c = self.env[x].shape
        window = [self.rng.randint(1, 3), self.rng.randint(1, 3)]
        strides = [self.rng.randint(1, 3) for _ in range(2)]
        padding = [self.rng.randint(0, window[i // 2] - 1) for i in range(4)]
        if self.rng.random() < 0.35:
            # Windows that tile the input, as CNNs pool most often (their
            # adjoints take a path of their own).
            strides, padding = list(window), [0, 0, 0, 0]
        if h + padding[0] + padding[1] < window[0] or \
                w + padding[2] + padding[3] < window[1]:
            return
        oh = (h + padding[0] + padding[1] - window[0]) // strides[0] + 1
        ow = (w + padding[2] + padding[3] - window[1]) // strides[1] + 1
        self.add(Node(kind, dtype,
                      self.result_dims([x.dims[0], oh, ow, c],
                                       [n, oh, ow, c]), [x],
                      {"window": window, "strides": strides,
                       "padding": padding}))

    def gen_mask(self, dtype, helper):
        """Booleans as models use them: a comparison of exact values,
        maybe combined with another mask or negated, then a select between
        two values (or the mask as numbers)."""
        exact = lambda n, v: not np.any(v.err)
        a = self.pick(dtype, exact)
        if a is None:
            return
        b = None
        if self.rng.random() < 0.5:
            b = self.pick(dtype, lambda n, v: exact(n, v) and
                          len(n.dims) <= len(a.dims))
        if b is None:
            b = self.new_partner(a, dtype)
        if b is None:
            return
        mask = self.broadcasting(self.choice(COMPARE), "i1",
                                 [a, b] if self.rng.random() < 0.7 else [b, a])
        if mask is None:
            return
        r = self.rng.random()
        if r < 0.3:
            other = self.pick("i1") if self.rng.random() < 0.5 else None
            other = other or self.new_partner(mask, "i1")
            if other is not None:
                mask = self.broadcasting(self.choice(LOGICAL), "i1",
                                         [mask, other]) or mask
        elif r < 0.45:
            mask = self.add(Node("not", "i1", mask.dims, [mask])) or mask
        if self.rng.random() < 0.2:
            self.add(Node("cast", dtype, mask.dims, [mask]))
            return
        x = self.pick(dtype)
        y = self.pick(dtype) if self.rng.random() < 0.5 else None
        y = y or (x and self.new_partner(x, dtype))
        if x is None or y is None:
            return
        self.broadcasting("select", dtype, [mask, x, y])

    def positive(self, node, dtype):
        """abs(node) + 1: bounded away from zero."""
        if node is None:
            return None
        absolute = self.add(Node("abs", dtype, node.dims, [node]))
        if absolute is None:
            return None
        one = self.add(Node("constant", dtype, [],
                            attrs={"value": to_dtype(np.asarray(1.0), dtype)}))
        return self.add(Node("add", dtype, absolute.dims, [absolute, one]))

    def gen_unary(self, dtype, helper):
        kinds = [k for k in UNARY if k != "not"] if is_float(dtype) else \
            ["relu", "neg", "abs"]
        kind = self.choice(kinds)
        if kind in ("log", "sqrt", "rsqrt"):
            a = self.pick(dtype, lambda n, v: v.ref.size == 0 or
                          np.min(v.ref - v.err) > 0.1)
            if a is None:
                a = self.positive(self.pick(dtype), dtype)
        elif kind == "exp":
            a = self.pick(dtype, lambda n, v: v.ref.size == 0 or
                          np.max(v.ref) < (6 if dtype == "f16" else 10))
        else:
            a = self.pick(dtype)
        if a is None:
            return
        self.add(Node(kind, dtype, a.dims, [a]))

    def block_extent(self):
        """Sometimes an extent past the CPU's register blocks (8 x 32 or
        6 x 16 for f32), with or without a remainder."""
        if self.rng.random() < 0.25:
            return self.choice([6, 9, 12, 16, 17, 31, 32, 33, 48, 70])
        return self.extent()

    def transposed_arg(self, dtype, batch, rows, columns):
        """A static batch x rows x columns operand made by transposing an
        argument's last two dimensions (None when that fails)."""
        source = self.new_arg(dtype, batch + [columns, rows],
                              batch + [columns, rows])
        perm = list(range(len(batch))) + [len(batch) + 1, len(batch)]
        return self.add(Node("transpose", dtype, batch + [rows, columns],
                             [source], {"perm": perm}))

    def matmul_operands(self, dtype, rank):
        # f16 and bf16 in whole 128x128 tiles of C, K a multiple of 32,
        # static, batched or not: the GPU's tensor- and matrix-core
        # kernels (K of 64 and 128 with wgmma=true; 384 rows keep K = 128
        # off split-K).
        if dtype in ("f16", "bf16") and rank in (2, 3) and \
                self.rng.random() < (0.5 if WGMMA_MODE else 0.2):
            batch = [self.choice([1, 2])] if rank == 3 else []
            # x @ w.T: B given N x K and transposed by its own op, which
            # the kernels read through (K-major B); x.T @ dy: A given
            # K x M (mma.sync reads it through, wgmma keeps the transpose).
            transposed = self.rng.random() < 0.4
            lhs_transposed = self.rng.random() < 0.25
            m, k, n = (128 * self.choice([1, 2, 3]),
                       32 * self.choice([1, 2, 3, 4]),
                       128 * self.choice([1, 2]))
            # wgmma's partial tiles: M and N past 128, K and N multiples
            # of 8 (K of 64 in a batch, unless B is K-major).
            if WGMMA_MODE and self.rng.random() < 0.5:
                m, n = self.choice([136, 200, 300]), self.choice([136, 264])
                k = self.choice([64, 128] if batch and not transposed
                                else [72, 96, 136])
            a = self.transposed_arg(dtype, batch, m, k) if lhs_transposed \
                else None
            a = a or self.new_arg(dtype, batch + [m, k], batch + [m, k])
            b = self.transposed_arg(dtype, batch, k, n) if transposed \
                else None
            return a, b or self.new_arg(dtype, batch + [k, n], batch + [k, n])
        # f32 for TF32 on wgmma (wgmma=true tf32=true): M and N from 128,
        # partial tiles too, K a multiple of 4 under 128 (no split-K).
        if dtype == "f32" and WGMMA_MODE and TF32_MODE and \
                rank in (2, 3) and self.rng.random() < 0.5:
            batch = [self.choice([1, 2])] if rank == 3 else []
            m, n = self.choice([128, 136, 256, 300]), self.choice([128, 136, 264])
            k = self.choice([32, 36, 64, 100])
            return (self.new_arg(dtype, batch + [m, k], batch + [m, k]),
                    self.new_arg(dtype, batch + [k, n], batch + [k, n]))
        # f32 in whole 64x64 tiles of C, K a multiple of 16 (short: no
        # split-K), static: the GPU's vector-tile kernel, which also reads
        # A^T and B^T given transposed by their own ops (x.T @ dy, x @ w.T).
        if dtype == "f32" and self.rng.random() < 0.1:
            batch = [self.choice([1, 2])] if rank == 3 else []
            m, n = (64 * self.choice([1, 2, 4]) for _ in range(2))
            k = 16 * self.choice([1, 2, 3, 6])
            a = self.transposed_arg(dtype, batch, m, k) \
                if self.rng.random() < 0.3 else None
            b = self.transposed_arg(dtype, batch, k, n) \
                if self.rng.random() < 0.3 else None
            return (a or self.new_arg(dtype, batch + [m, k], batch + [m, k]),
                    b or self.new_arg(dtype, batch + [k, n], batch + [k, n]))
        # A small static output over a long K (an MLP's layer at a small
        # batch): on GPUs split K, or warp dots where B is read as N x K
        # (x @ w.T, B given transposed by its own op) and A as M x K.
        if self.rng.random() < 0.08:
            batch = [self.choice([1, 3])] if rank == 3 else []
            # (N of 2048: warp dots give each warp several rows.)
            m, n = self.choice([1, 5, 32]), self.choice([1, 7, 64, 2048])
            k = 128 if n > 64 else self.choice([128, 301, 784])
            a = self.transposed_arg(dtype, batch, m, k) \
                if self.rng.random() < 0.2 else None
            b = self.transposed_arg(dtype, batch, k, n) \
                if self.rng.random() < 0.6 else None
            return (a or self.new_arg(dtype, batch + [m, k], batch + [m, k]),
                    b or self.new_arg(dtype, batch + [k, n], batch + [k, n]))
        a = self.pick(dtype, lambda n, v: len(n.dims) == rank)
        # Sometimes enough work that the block loops run on threads.
        large = rank == 2 and self.rng.random() < 0.15
        if a is None or large or self.rng.random() < 0.3:
            shape = [self.extent() for _ in range(rank)]
            shape[-2] = self.block_extent()
            if large:
                shape = [self.choice([64, 100, 131]), self.choice([200, 300])]
            # Sometimes x.T @ dy (on GPUs, shared tiles read A^T through).
            a = self.transposed_arg(dtype, shape[:-2], *shape[-2:]) \
                if self.rng.random() < 0.15 else None
            a = a or (self.new_arg(dtype, shape=shape)
                      if large or self.rng.random() < 0.7
                      else self.constant(dtype, shape))
        av = self.env[a]
        k = av.shape[-1]
        n = self.choice([96, 130, 200, 256]) if large else self.block_extent()
        shape = ([av.shape[0]] if rank == 3 else []) + [k, n]
        b = self.pick(dtype, lambda node, v: list(v.shape) == shape and
                      node is not a)
        if b is None and self.rng.random() < 0.15:
            # x @ w.T (on GPUs, shared tiles read B^T through).
            b = self.transposed_arg(dtype, shape[:-2], *shape[-2:])
        if b is None:
            dims = [None if self.rng.random() < 0.25 else s for s in shape]
            b = self.new_arg(dtype, dims, shape) if self.rng.random() < 0.7 \
                else self.constant(dtype, shape)
        return a, b

    def matmul_dims(self, a, b, shape):
        rank = len(a.dims)
        def first(*dims):
            return next((d for d in dims if d is not None), None)
        dims = ([first(a.dims[0], b.dims[0])] if rank == 3 else []) + \
            [a.dims[-2], b.dims[-1]]
        return self.result_dims(dims, shape)

    def gen_matmul(self, dtype, helper):
        rank = self.choice([2, 3], [3, 1])
        a, b = self.matmul_operands(dtype, rank)
        shape = list(np.matmul(self.env[a].ref, self.env[b].ref).shape)
        product = self.add(Node("matmul", dtype, self.matmul_dims(a, b, shape),
                                [a, b]))
        # Transposed back, as autodiff's weight gradients are ((x.T @ dy).T,
        # which --google-swap-matmul-transposes computes as dy.T @ x).
        if product is not None and self.rng.random() < 0.3 and \
                any(o.kind == "transpose" for o in (a, b)):
            rank = len(shape)
            perm = list(range(rank - 2)) + [rank - 1, rank - 2]
            dims = list(product.dims)
            dims[-2:] = dims[:-3:-1]
            self.add(Node("transpose", dtype, dims, [product],
                          {"perm": perm}))

    def bias(self, dtype, n, n_dim):
        dims = [n if n_dim is not None or self.rng.random() < 0.5 else None]
        if self.rng.random() < 0.4:
            return self.constant(dtype, [n])
        return self.new_arg(dtype, dims, [n])

    def gen_fused(self, dtype, helper):
        a, b = self.matmul_operands(dtype, 2)
        n = self.env[b].shape[-1]
        bias = self.bias(dtype, n, b.dims[-1])
        shape = [self.env[a].shape[0], n]
        dims = self.matmul_dims(a, b, shape)
        self.add(Node("matmul_bias_relu", dtype, dims, [a, b, bias]))

    def gen_pattern(self, dtype, helper):
        """relu(add(matmul, bias)), which fusion rewrites (or not: [1, N]
        biases, swapped operands, a [1] bias that stretches)."""
        a, b = self.matmul_operands(dtype, 2)
        shape = [self.env[a].shape[0], self.env[b].shape[-1]]
        product = self.add(Node("matmul", dtype, self.matmul_dims(a, b, shape),
                                [a, b]))
        if product is None:
            return
        if self.rng.random() < 0.4:
            # Seen through a reshape that splits its rows or its columns (a
            # rank-3 activation times a weight, as traced): the ops after
            # it become the matmul's epilogue, collapsed, where they can.
            product = self.split_product(dtype, product)
            if product is None:
                return
        n = self.env[product].shape[-1]
        forms = ["n", "1n", "unit"]
        if len(product.dims) == 3:
            forms.append("inner")
        form = self.choice(forms)
        if form == "unit":
            bias = self.constant(dtype, [1])
        elif form == "1n":
            bias = self.constant(dtype, [1, n]) if self.rng.random() < 0.5 \
                else self.new_arg(dtype, [1, n], [1, n])
        elif form == "inner":
            # The two inner extents, or the middle one stretched along the
            # last: broadcasts along part of a split group.
            k = self.env[product].shape[1]
            inner = [k, n] if self.rng.random() < 0.5 else [k, 1]
            bias = self.constant(dtype, inner)
        else:
            bias = self.bias(dtype, n, product.dims[-1])
        x, y = (product, bias) if self.rng.random() < 0.7 else (bias, product)
        dims = self.declared_broadcast(x, y)
        if dims is None:
            return
        total = self.add(Node("add", dtype, dims, [x, y]))
        if total is not None:
            self.add(Node("relu", dtype, total.dims, [total]))

    def split_product(self, dtype, product):
        """`product` (M x N) reshaped to M1 x M2 x N (M static) or M x N1 x
        N2, its extents split at a divisor; None when neither has one."""
        m, n = self.env[product].shape
        splits = []
        if product.dims[0] is not None:
            splits += [("rows", d) for d in range(2, m) if m % d == 0]
        splits += [("columns", d) for d in range(2, n) if n % d == 0]
        if not splits:
            return None
        axis, d = self.choice(splits)
        if axis == "rows":
            dims = [m // d, d, product.dims[1]]
        else:
            dims = [product.dims[0], n // d, d]
        return self.add(Node("reshape", dtype, dims, [product]))

    def gen_transpose(self, dtype, helper):
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 2)
        if a is None:
            return
        perm = list(range(len(a.dims)))
        self.rng.shuffle(perm)
        value = self.env[a]
        dims = [a.dims[p] for p in perm]
        shape = [value.shape[p] for p in perm]
        self.add(Node("transpose", dtype, self.result_dims(dims, shape), [a],
                      {"perm": perm}))

    def gen_reshape(self, dtype, helper):
        a = self.pick(dtype)
        if a is None:
            return
        count = self.env[a].ref.size
        shape = []
        rest = count
        for _ in range(self.rng.randint(0, 3)):
            divisors = [d for d in range(1, rest + 1) if rest % d == 0] or [1]
            d = self.choice(divisors)
            shape.append(d)
            rest //= d
        if rest != 1 or not shape:
            shape.append(rest)
        self.rng.shuffle(shape)
        dims = list(shape)
        dynamic_input = None in a.dims
        if (dynamic_input or self.rng.random() < 0.2) and \
                self.rng.random() < 0.6 and \
                any(d != 0 for d in shape):
            candidates = [i for i, d in enumerate(shape)
                          if np.prod([s for j, s in enumerate(shape)
                                      if j != i]) != 0]
            if candidates:
                dims[self.choice(candidates)] = None
        self.add(Node("reshape", dtype, dims, [a]))

    def gen_reduce(self, dtype, helper):
        kinds = ["reduce_sum", "reduce_max", "reduce_min", "reduce_prod"] + \
            (["reduce_mean"] if is_float(dtype) else [])
        kind = self.choice(kinds)
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if a is None:
            return
        rank = len(a.dims)
        axes = self.rng.sample(range(rank), self.rng.randint(1, rank))
        axes = [ax - rank if self.rng.random() < 0.3 else ax for ax in axes]
        keep = self.rng.random() < 0.5
        normalized = sorted(ax % rank for ax in axes)
        value = self.env[a]
        if kind in ("reduce_max", "reduce_min") and any(
                value.shape[ax] == 0 for ax in normalized):
            return
        # Long products leave the float range; short ones are what models
        # take (and they keep the underflow bound small).
        if kind == "reduce_prod" and np.prod(
                [value.shape[ax] for ax in normalized]) > 16:
            return
        dims, shape = [], []
        for d in range(rank):
            if d in normalized:
                if keep:
                    dims.append(1)
                    shape.append(1)
            else:
                dims.append(a.dims[d])
                shape.append(value.shape[d])
        self.add(Node(kind, dtype, self.result_dims(dims, shape), [a],
                      {"axes": axes, "keep_dims": keep}))

    def gen_loss(self, dtype, helper):
        """A loss: an elementwise op of thousands of elements (arguments of
        a model's output's shape, or one with a broadcast partner), reduced
        over every axis, or over the rows (a bias's gradient). GPUs split
        it over blocks, computing the elementwise op where the reduction
        reads it."""
        if GRAD_MODE:
            return  # (central differences of thousands of inputs: slow)
        shape = [self.choice([64, 100, 130]),
                 self.choice([64, 70, 128, 300])]
        dims = [None if self.rng.random() < 0.3 else s for s in shape]
        x = self.new_arg(dtype, dims, shape)
        y = self.new_partner(x, dtype) if self.rng.random() < 0.4 else \
            self.new_arg(dtype, list(dims), shape)
        value = self.broadcasting(self.choice(["sub", "mul", "add", "max"]),
                                  dtype, [x, y])
        if value is None:
            return
        if self.rng.random() < 0.5:
            value = self.broadcasting("mul", dtype, [value, value]) or value
        elif self.rng.random() < 0.5:
            value = self.add(Node(self.choice(["abs", "tanh", "exp"]), dtype,
                                  value.dims, [value])) or value
        kind = self.choice(["reduce_sum", "reduce_mean", "reduce_max",
                            "reduce_min"], [3, 2, 1, 1])
        keep = self.rng.random() < 0.5
        rank = len(value.dims)
        if self.rng.random() < 0.35:
            # Over the rows only (a bias's gradient: GPUs' column kernels).
            dims = ([1] if keep else []) + value.dims[1:]
            self.add(Node(kind, dtype, dims, [value],
                          {"axes": [0], "keep_dims": keep}))
            return
        self.add(Node(kind, dtype, [1] * rank if keep else [], [value],
                      {"axes": list(range(rank)), "keep_dims": keep}))

    def gen_rows(self, dtype, helper):
        """A chain of ops over the last axis as models write one: softmax,
        log-softmax, a layer norm with a gain and a bias, rows centered by
        their mean or maximum (integers: minus the maximum plus the sum),
        over rows of 10 to 300 elements (GPUs: a thread, a warp or a block
        per row), mostly static."""
        if GRAD_MODE:
            return  # (central differences of thousands of inputs: slow)
        length = self.choice([10, 16, 32, 33, 40, 64, 100, 128, 200, 255,
                              256, 300],
                             [2, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1])
        shape = [self.choice([1, 7, 12, 37, 64, 128]), length]
        if self.rng.random() < 0.3:
            shape.insert(0, self.choice([2, 3]))
        dims = list(shape)
        if self.rng.random() < 0.2:
            dims[0] = None
        x = self.new_arg(dtype, dims, shape)
        kinds = ["softmax", "log_softmax", "layer_norm", "center"] \
            if is_float(dtype) else ["center"]
        kind = self.choice(kinds)
        if kind == "softmax":
            self.add(Node("softmax", dtype, x.dims, [x], {"axis": -1}))
            return

        def reduce(kind, value):
            value_dims = value.dims[:-1] + [1]
            shape = list(self.env[value].ref.shape[:-1]) + [1]
            return self.add(Node(kind, dtype,
                                 self.result_dims(value_dims, shape), [value],
                                 {"axes": [-1], "keep_dims": True}))

        if kind == "log_softmax":
            top = reduce("reduce_max", x)
            shifted = top and self.broadcasting("sub", dtype, [x, top])
            e = shifted and self.add(Node("exp", dtype, shifted.dims,
                                          [shifted]))
            total = e and reduce("reduce_sum", e)
            log = total and self.add(Node("log", dtype, total.dims, [total]))
            if log:
                self.broadcasting("sub", dtype, [shifted, log])
        elif kind == "layer_norm":
            mean = reduce("reduce_mean", x)
            centered = mean and self.broadcasting("sub", dtype, [x, mean])
            square = centered and self.broadcasting("mul", dtype,
                                                    [centered, centered])
            variance = square and reduce("reduce_mean", square)
            # abs(variance) + 1: bounded away from zero.
            spread = variance and self.add(Node(
                "sqrt", dtype, variance.dims,
                [self.positive(variance, dtype)]))
            normal = spread and self.broadcasting("div", dtype,
                                                  [centered, spread])
            if normal:
                gain = self.new_arg(dtype, [length], [length])
                scaled = self.broadcasting("mul", dtype, [normal, gain])
                bias = self.new_arg(dtype, [length], [length])
                if scaled:
                    self.broadcasting("add", dtype, [scaled, bias])
        elif is_float(dtype):
            by = reduce(self.choice(["reduce_mean", "reduce_max"]), x)
            if by:
                self.broadcasting("sub", dtype, [x, by])
        else:
            top = reduce("reduce_max", x)
            total = reduce("reduce_sum", x)
            shifted = top and self.broadcasting("sub", dtype, [x, top])
            if shifted and total:
                self.broadcasting("add", dtype, [shifted, total])

    def gen_attention(self, dtype, helper):
        """softmax(steps(q k^T)) v as models write it, mostly with depths
        of 16 to 64 (what the GPU's fused-attention kernel takes), query
        rows and keys in whole tiles of 64 or with a partial last tile:
        K transposed by
        its own op or given transposed, the scores scaled, masked (a
        causal or anti-causal iota comparison, a large negative fill) or
        biased, and sometimes a bias on the output."""
        if not is_float(dtype):
            return
        batch = [] if self.rng.random() < 0.3 else [self.choice([1, 2, 3])]
        # (Gradients: small shapes, whose central differences stay cheap.)
        if not GRAD_MODE and self.rng.random() < 0.75:
            m = self.choice([64, 128, 5, 37, 100], [3, 1, 1, 1, 1])
            n = self.choice([64, 128, 192, 3, 72, 130], [2, 2, 1, 1, 1, 1])
            d = self.choice([16, 32, 48, 64])
            dv = self.choice([16, 32, 48, 64], [1, 1, 1, 3])
        else:
            m, n, d, dv = (self.extent() or 1 for _ in range(4))
        q = self.new_arg(dtype, batch + [m, d], batch + [m, d])
        if self.rng.random() < 0.6:
            k = self.new_arg(dtype, batch + [n, d], batch + [n, d])
            perm = list(range(len(batch))) + [len(batch) + 1, len(batch)]
            kt = self.add(Node("transpose", dtype, batch + [d, n], [k],
                               {"perm": perm}))
        else:
            kt = self.new_arg(dtype, batch + [d, n], batch + [d, n])
        scores = kt and self.add(Node("matmul", dtype, batch + [m, n],
                                      [q, kt]))
        if scores is None:
            return
        if self.rng.random() < 0.6:
            scale = self.add(Node("constant", dtype, [], attrs={
                "value": to_dtype(np.asarray(1 / np.sqrt(d)), dtype)}))
            scores = self.add(Node(self.choice(["mul", "div"]), dtype,
                                   scores.dims, [scores, scale])) or scores
        if not GRAD_MODE and self.rng.random() < 0.4:
            rows = self.add(Node("iota", "i64", [m, n], [], {"dimension": 0}))
            columns = self.add(Node("iota", "i64", [m, n], [],
                                    {"dimension": 1}))
            sees = rows and columns and self.add(Node(
                self.choice(["le", "ge"]), "i1", [m, n], [columns, rows]))
            fill = self.add(Node("constant", dtype, [], attrs={
                "value": to_dtype(np.asarray(-1000.0), dtype)}))
            if sees is not None and fill is not None:
                scores = self.add(Node("select", dtype, scores.dims,
                                       [sees, scores, fill])) or scores
        if self.rng.random() < 0.3:
            shape = [m, n] if self.rng.random() < 0.5 else [n]
            bias = self.new_arg(dtype, shape, shape)
            scores = self.add(Node("add", dtype, scores.dims,
                                   [scores, bias])) or scores
        p = self.add(Node("softmax", dtype, scores.dims, [scores],
                          {"axis": -1}))
        v = self.new_arg(dtype, batch + [n, dv], batch + [n, dv])
        out = p and self.add(Node("matmul", dtype, batch + [m, dv], [p, v]))
        if out is not None and self.rng.random() < 0.3:
            bias = self.new_arg(dtype, [dv], [dv])
            self.add(Node("add", dtype, out.dims, [out, bias]))

    def gen_heads(self, dtype, helper):
        """Multi-head attention's layouts: a rows x (heads * depth) value (a
        matmul's, an elementwise op's or a softmax's) reshaped to (batch,
        seq, heads, depth), transposed (0, 2, 1, 3) and reshaped to (batch
        * heads, seq, depth); a batched matmul or an elementwise op on the
        heads; then back the same way to rows x (heads * depth'). GPUs
        store the first values where the transposes put them (no transpose
        kernels)."""
        if dtype == "i1":
            return
        b, s = self.choice([1, 2]), self.choice([1, 4, 8, 37, 64])
        h, d = self.choice([1, 2, 3, 4]), self.choice([4, 8, 16, 32])
        rows, width = b * s, h * d
        kind = self.choice(["matmul", "add", "softmax"], [3, 2, 1])
        if kind == "softmax" and not is_float(dtype):
            kind = "add"
        if kind == "matmul":
            k = self.choice([8, 16, 64])
            x = self.new_arg(dtype, [rows, k], [rows, k])
            w = self.new_arg(dtype, [k, width], [k, width])
            value = self.add(Node("matmul", dtype, [rows, width], [x, w]))
        else:
            x = self.new_arg(dtype, [rows, width], [rows, width])
            y = self.new_arg(dtype, [rows, width], [rows, width])
            value = self.add(Node("add", dtype, [rows, width], [x, y]))
            if value is not None and kind == "softmax":
                value = self.add(Node("softmax", dtype, [rows, width],
                                      [value], {"axis": -1}))
        if value is None:
            return
        split = self.add(Node("reshape", dtype, [b, s, h, d], [value]))
        heads = split and self.add(Node("transpose", dtype, [b, h, s, d],
                                        [split], {"perm": [0, 2, 1, 3]}))
        heads = heads and self.add(Node("reshape", dtype, [b * h, s, d],
                                        [heads]))
        if heads is None:
            return
        if self.rng.random() < 0.6:
            d2 = self.choice([4, 8, 16])
            w = self.new_arg(dtype, [b * h, d, d2], [b * h, d, d2])
            out = self.add(Node("matmul", dtype, [b * h, s, d2], [heads, w]))
        else:
            d2 = d
            out = self.add(Node("mul", dtype, [b * h, s, d],
                                [heads, self.constant(dtype, [])]))
        out = out and self.add(Node("reshape", dtype, [b, h, s, d2], [out]))
        out = out and self.add(Node("transpose", dtype, [b, s, h, d2], [out],
                                    {"perm": [0, 2, 1, 3]}))
        if out is not None:
            self.add(Node("reshape", dtype, [rows, h * d2], [out]))

    def gen_normalize(self, dtype, helper):
        """x op reduce(x, keep_dims=True): centering, scaling by a sum or a
        maximum, broadcast back over the reduced axes."""
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if a is None:
            return
        rank = len(a.dims)
        kinds = ["reduce_sum", "reduce_max"] + \
            (["reduce_mean"] if is_float(dtype) else [])
        kind = self.choice(kinds)
        value = self.env[a]
        wide = [d for d in range(rank) if value.shape[d] > 1] or \
            list(range(rank))
        axes = sorted(self.rng.sample(wide, self.rng.randint(1, len(wide))))
        dims = [1 if d in axes else a.dims[d] for d in range(rank)]
        shape = [1 if d in axes else value.shape[d] for d in range(rank)]
        if self.rng.random() < 0.3:
            axes = [ax - rank for ax in axes]
        reduced = self.add(Node(kind, dtype, self.result_dims(dims, shape),
                                [a], {"axes": axes, "keep_dims": True}))
        if reduced is None:
            return
        ops = ["sub", "add", "mul"] + (["div"] if is_float(dtype) else [])
        op = self.choice(ops)
        if op == "div":
            v = self.env[reduced]
            if v.ref.size and np.min(np.abs(v.ref) - v.err) <= 0.25:
                reduced = self.positive(reduced, dtype)
                if reduced is None:
                    return
        x, y = (a, reduced) if self.rng.random() < 0.8 else (reduced, a)
        dims = self.declared_broadcast(x, y)
        if dims is None:
            return
        node = Node(op, dtype, dims, [x, y])
        try:
            result_shape = broadcast_shape(node, [self.env[x], self.env[y]])
        except ShapeMismatch:
            return
        node.dims = self.result_dims(dims, result_shape)
        self.add(node)

    def gen_softmax(self, dtype, helper):
        """softmax, or the stable log-sum-exp m + log(sum(exp(x - m))) with
        m the maximum over the same axes (whose gradient has none through
        m)."""
        a = self.pick(dtype, lambda n, v: len(n.dims) >= 1)
        if a is None:
            return
        rank = len(a.dims)
        if self.rng.random() < 0.6:
            axis = self.rng.randrange(-rank, rank)
            s = self.add(Node("softmax", dtype, a.dims, [a], {"axis": axis}))
            # Sometimes scaled along the last axis, as a layer norm's gain
            # (one row chain on the GPU).
            value = self.env[a]
            if s is not None and rank >= 2 and self.rng.random() < 0.3:
                n = value.shape[-1]
                gain = self.new_arg(dtype, [a.dims[-1]], [n])
                self.add(Node("mul", dtype, a.dims, [s, gain]))
            return
        value = self.env[a]
        axes = sorted(self.rng.sample(range(rank),
                                      self.rng.randint(1, rank)))
        dims = [1 if d in axes else a.dims[d] for d in range(rank)]
        shape = [1 if d in axes else value.shape[d] for d in range(rank)]
        reduced = self.result_dims(dims, shape)
        keep = {"axes": axes, "keep_dims": True}
        top = self.add(Node("reduce_max", dtype, reduced, [a], keep))
        if top is None:
            return
        wide = self.declared_broadcast(a, top)
        if wide is None:
            return
        shifted = self.add(Node("sub", dtype, wide, [a, top]))
        e = shifted and self.add(Node("exp", dtype, wide, [shifted]))
        total = e and self.add(Node("reduce_sum", dtype, reduced, [e], keep))
        log = total and self.add(Node("log", dtype, reduced, [total]))
        if log is None:
            return
        pair = [top, log] if self.rng.random() < 0.5 else [log, top]
        self.add(Node("add", dtype, reduced, pair))

    def gen_cast(self, dtype, helper):
        """A cast to another element type, and back when that is exact
        enough, so that the function stays in `dtype`."""
        target = self.choice([t for t in FLOATS + INTS if t != dtype])
        if is_float(dtype) and not is_float(target):
            # Float to int only from exact values (truncation would turn a
            # rounding difference into a unit).
            a = self.pick(dtype, lambda n, v: n.kind in ("arg", "constant"))
        else:
            a = self.pick(dtype)
        if a is None:
            return
        there = self.add(Node("cast", target,
                              self.result_dims(a.dims, self.env[a].shape),
                              [a]))
        if there is None:
            return
        if not is_float(dtype) and np.any(self.env[there].err):
            return  # inexact: it may still end up as a result
        self.add(Node("cast", dtype, there.dims, [there]))

    # ---- structured control flow ----

    def region_chain(self, x, dtype, length, invariant=False):
        """A few shape-keeping ops on `x` (a region's body): bounded unary
        ops, and binary ops with a value from above or a new constant
        that broadcasts into x's shape; with `invariant`, the first is a
        binary op with an op on a value from above. Returns (nodes,
        result) or None."""
        env = dict(self.env)
        nodes, value = [], x
        for step in range(length):
            forced = invariant and step == 0
            if not forced and self.rng.random() < 0.5:
                kinds = ["tanh", "sigmoid", "neg", "sin", "abs"] \
                    if is_float(dtype) else ["neg", "abs", "relu"]
                node = Node(self.choice(kinds), dtype, value.dims, [value])
            else:
                shape = env[value].shape
                partner = self.pick(dtype, lambda n, v: len(v.shape) <=
                                    len(shape) and v.shape == shape[
                                        len(shape) - len(v.shape):])
                if partner is None or (not forced and
                                       self.rng.random() < 0.3):
                    keep = self.rng.randint(0, len(shape))
                    partner = Node("constant", dtype,
                                   list(shape[len(shape) - keep:]),
                                   attrs={"value": self.values(
                                       tuple(shape[len(shape) - keep:]),
                                       dtype, -1.0, 1.0, exact=True)})
                    env[partner] = Val(partner.attrs["value"], None, dtype)
                    nodes.append(partner)
                elif forced or self.rng.random() < 0.4:
                    # An op on a value from above, the same in every
                    # iteration (compilers may move it out of a loop): one
                    # fusion would merge into its user, or a sum over the
                    # last axis (kept, so that it broadcasts).
                    if partner.dims and self.rng.random() < 0.5:
                        dims = list(partner.dims[:-1]) + [1]
                        from_above = Node("reduce_sum", dtype, dims,
                                          [partner], {"axes": [-1],
                                                      "keep_dims": True})
                    else:
                        from_above = Node(self.choice(
                            ["tanh", "neg", "abs"] if is_float(dtype)
                            else ["neg", "abs"]), dtype, partner.dims,
                            [partner])
                    env[from_above] = evaluate(from_above, [env[partner]])
                    nodes.append(from_above)
                    partner = from_above
                kinds = ["add", "mul", "sub", "max", "min"]
                node = Node(self.choice(kinds), dtype, value.dims,
                            [value, partner] if self.rng.random() < 0.5
                            else [partner, value])
            try:
                env[node] = evaluate(node, [env[o] for o in node.operands])
            except ShapeMismatch:
                return None
            with np.errstate(all="ignore"):
                if env[node].ref.size and (
                        np.max(np.abs(env[node].ref)) > LIMIT[dtype] or
                        (is_float(dtype) and
                         not np.all(np.isfinite(env[node].err)))):
                    return None
            nodes.append(node)
            value = node
        return nodes, value

    @staticmethod
    def captured(nodes, defined):
        """The values from above the region's nodes use."""
        inside = set(nodes) | set(defined)
        used = []
        for node in nodes:
            for operand in node.operands:
                if operand not in inside and operand not in used:
                    used.append(operand)
        return used

    def gen_branch(self, dtype, helper):
        """google.if on a new boolean argument (exact, so both sides agree
        on the branch): each branch a short chain on the same value."""
        x = self.pick(dtype)
        if x is None:
            return
        then = self.region_chain(x, dtype, self.rng.randint(0, 2))
        other = self.region_chain(x, dtype, self.rng.randint(0, 2))
        if then is None or other is None:
            return
        p = self.new_arg("i1", [], [])
        nodes = then[0] + other[0]
        captured = self.captured(nodes, []) + [x]
        operands = [p] + [c for c in dict.fromkeys(captured)]
        self.add(Node("if", dtype, x.dims, operands,
                      {"then": then[0], "then_result": then[1],
                       "else": other[0], "else_result": other[1]}))

    def gen_loop(self, dtype, helper):
        """A counted google.while (trip_count set) whose body is a short
        chain on the state."""
        x = self.pick(dtype, lambda n, v: not GRAD_MODE or
                      None not in n.dims)
        if x is None:
            return
        state = Node("state", dtype, x.dims)
        self.env[state] = self.env[x]
        chain = self.region_chain(state, dtype, self.rng.randint(1, 3),
                                  invariant=self.rng.random() < 0.5)
        del self.env[state]
        if chain is None:
            return
        nodes, result = chain
        captured = [c for c in self.captured(nodes, [state])]
        self.add(Node("while", dtype, x.dims,
                      [x] + list(dict.fromkeys(captured)),
                      {"trips": self.rng.randint(0, 4), "state": state,
                       "body": nodes, "result": result}))

    def gen_call(self, dtype, helper):
        # The helper truncates some of its arguments to integers, made from
        # exact values only (gen_cast): those take exact operands here too.
        truncated = {n.operands[0] for n in helper.nodes
                     if n.kind == "cast" and is_float(n.operands[0].dtype)
                     and not is_float(n.dtype)}
        operands = []
        for arg in helper.args:
            exact = arg in truncated
            match = self.pick(
                arg.dtype,
                lambda n, v, arg=arg, exact=exact: n.dims == arg.dims and (
                    not exact or v.err is None or not np.any(v.err)))
            if match is None:
                shape = list(self.arg_values[arg].shape)
                match = self.new_arg(arg.dtype, list(arg.dims), shape)
            operands.append(match)
        result = helper.results[0]
        node = Node("call", result.dtype, result.dims, operands,
                    {"function": helper})
        self.add(node)


# --------------------------------------------------------------------------
# Running and comparing
# --------------------------------------------------------------------------

class Mismatch(Exception):
    pass


def compare(name, got, expected):
    """Raises Mismatch when `got` (from google-run) is not within the error
    bound of NumPy's `expected`."""
    dtype = expected.dtype
    if tuple(got.shape) != tuple(expected.shape):
        raise Mismatch(f"{name}: shape {tuple(got.shape)}, expected "
                       f"{tuple(expected.shape)}")
    got = np.asarray(got)
    if not is_float(dtype):
        diff = np.flatnonzero(got.astype(np.int64).ravel() !=
                              expected.ref.ravel())
        if diff.size:
            i = diff[0]
            raise Mismatch(f"{name}: element {np.unravel_index(i, got.shape)} "
                           f"is {got.ravel()[i]}, expected "
                           f"{expected.ref.ravel()[i]}")
        return
    g = got.astype(np.float64).ravel()
    r = expected.ref.ravel()
    e = expected.err.ravel()
    tolerance = 2 * e + 2 * UNIT[dtype] * np.abs(r) + 4 * TINY[dtype]
    with np.errstate(all="ignore"):
        bad = ~((np.abs(g - r) <= tolerance) | (np.isnan(g) & np.isnan(r)) |
                (g == r))
    bad &= np.isfinite(e)
    if np.any(bad):
        i = np.flatnonzero(bad)[0]
        raise Mismatch(f"{name}: element {np.unravel_index(i, got.shape)} is "
                       f"{g[i]!r}, expected {r[i]!r} within {tolerance[i]:.3g}")


class Runner:
    def __init__(self, google_run, directory):
        self.google_run = google_run
        self.directory = directory

    def emit(self, text, options):
        """Compiles the module `text` to an object; returns (the error text
        or None, the command)."""
        path = os.path.join(self.directory, "program.mlir")
        with open(path, "w") as f:
            f.write(text)
        command = [self.google_run, path,
                   "--emit-object=" + os.path.join(self.directory, "x.so")]
        command += options
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return f"hung (no object after {RUN_TIMEOUT} s)", command
        if done.returncode != 0:
            return (f"exit {done.returncode}: " +
                    done.stderr.strip()[-500:]), command
        return None, command

    def emit_variants(self, text, chosen):
        """Compiles `text` for each compiled variant in `chosen` (None: all);
        returns None or (variant, error, command) for the first failure."""
        for tag, options in variants():
            if tag == "interpreter" or (chosen and tag not in chosen):
                continue
            error, command = self.emit(text, options)
            if error is not None:
                return tag, error, command
        return None

    def run(self, program, inputs, options, tag):
        """Runs @main; returns (results or None, error text)."""
        path = os.path.join(self.directory, "program.mlir")
        with open(path, "w") as f:
            f.write(program.text())
        command = [self.google_run, path, "--function=main"]
        for i, value in enumerate(inputs):
            file = os.path.join(self.directory, f"input{i}.npy")
            np.save(file, storage(value.ref, value.dtype))
            command.append(f"--input=@{file}")
        outputs = []
        for i in range(len(program.main.results)):
            file = os.path.join(self.directory, f"{tag}-output{i}.npy")
            outputs.append(file)
            command.append(f"--output=@{file}")
        command += options
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return None, f"hung (no result after {RUN_TIMEOUT} s)", command
        if done.returncode < 0 or done.returncode > 1:
            return None, f"crashed (exit {done.returncode}): " + \
                done.stderr.strip()[-500:], command
        if done.returncode != 0:
            if not done.stderr.startswith("error: ") or "result[" in done.stdout:
                return None, "malformed failure: " + done.stderr.strip(), \
                    command
            return None, done.stderr.strip(), command
        return [np.load(f) for f in outputs], None, command


VARIANTS = ["interpreter"] + CONFIGS
# google-run options of every compiled variant (--target).
COMPILED_ARGS = []
# --pipeline-options: added to every compiled variant's.
EXTRA_OPTIONS = []
# --emit-only: compile each variant, do not run it.
EMIT_ONLY = [False]
# A google-run that gives no result in this time has hung (a crash whose
# signal handler deadlocked on the heap's lock did): a failure.
RUN_TIMEOUT = 600
# --grad: f64 programs of differentiable ops; their VJPs are checked.
GRAD_MODE = False
# --pipeline-options has tf32=true: f32 contractions may read their inputs
# rounded to TF32.
TF32_MODE = False
# --pipeline-options has wgmma=true: more 16-bit matmuls in the wgmma
# kernels' shapes, partial tiles among them (other runs' programs stay).
WGMMA_MODE = False
GRAD_EXCLUDED = {"call", "cast", "argreduce", "iota"}
# --only: the op generators a run is restricted to (empty: all of them).
ONLY_KINDS = set()


# --rotate K: each seed runs the interpreter, the default opt-level and K
# of the other variants, a different K per seed (all of them every few
# seeds): a third of the time of every variant on every seed.
ALWAYS = ("interpreter", "opt-level=3")
ROTATE = [0]


def rotation(seed):
    """The variants seed `seed` runs (None: all)."""
    if not ROTATE[0]:
        return None
    others = [v for v in VARIANTS if v not in ALWAYS]
    chosen = {others[(seed * ROTATE[0] + i) % len(others)]
              for i in range(min(ROTATE[0], len(others)))} if others else set()
    return {v for v in VARIANTS if v in ALWAYS} | chosen


def variants():
    for tag in VARIANTS:
        if tag == "interpreter":
            yield tag, ["--interpret"]
        else:
            options = " ".join([tag] + EXTRA_OPTIONS)
            yield tag, [f"--pipeline-options={options}"] + COMPILED_ARGS


def check_program(program, inputs, runner, configs=None):
    """Returns None, or (variant, message, command) for the first failure."""
    try:
        expected = program.expected(inputs)
        expect_error = False
    except ShapeMismatch as e:
        expected, expect_error = None, True
    for tag, options in variants():
        if configs is not None and tag not in configs:
            continue
        results, error, command = runner.run(program, inputs, options,
                                             tag.replace("=", "-"))
        if error is not None and (error.startswith("crashed") or
                                  error.startswith("malformed")):
            return tag, error, command
        if expect_error:
            if error is None:
                return tag, "expected a run-time check to fail, got results", \
                    command
            if "error: " not in error:
                return tag, error, command
            continue
        if error is not None:
            return tag, error, command
        try:
            for i, (got, want) in enumerate(zip(results, expected)):
                compare(f"result {i}", got, want)
        except Mismatch as e:
            return tag, str(e), command
    return None


def mutate_inputs(program, rng):
    """Input extents that break a run-time check, or None."""
    main = program.main
    dynamic = [(i, d) for i, a in enumerate(main.args)
               for d, dim in enumerate(a.dims) if dim is None]
    rng.shuffle(dynamic)
    for i, d in dynamic[:4]:
        for delta in (1, -1, 2):
            inputs = list(program.inputs)
            shape = list(inputs[i].shape)
            if shape[d] + delta < 1:
                continue
            shape[d] += delta
            dtype = inputs[i].dtype
            values = np.resize(inputs[i].ref, shape) if inputs[i].ref.size \
                else np.zeros(shape)
            inputs[i] = Val(to_dtype(values, dtype), None, dtype)
            try:
                program.expected(inputs)
            except ShapeMismatch:
                return inputs
    return None


def make_case(seed):
    generator = Generator(seed)
    program = generator.program()
    inputs = program.inputs
    if random.Random(seed * 7 + 1).random() < 0.15:
        broken = mutate_inputs(program, random.Random(seed))
        if broken is not None:
            inputs = broken
    return program, inputs


# --------------------------------------------------------------------------
# Gradient mode
# --------------------------------------------------------------------------

# The documented limits of --google-differentiate (clean errors): such
# programs are counted as skipped.
UNSUPPORTED_GRADIENTS = ("is not differentiable yet", "needs static extents",
                         "needs at most one dynamic extent")
SKIPPED = ("skipped", "")


def grad_case(seed):
    """An f64 program of differentiable ops with an f64 argument (else the
    generator tries the next seed), and random cotangents for its
    results."""
    for attempt in range(50):
        program = Generator(seed + 1000003 * attempt).program()
        if not any(a.dtype == "f64" for a in program.main.args):
            continue
        try:
            outputs = program.expected()
        except ShapeMismatch:
            continue
        rng = np.random.default_rng(seed)
        # Integer and boolean results take (ignored) zero cotangents.
        cotangents = [Val(rng.uniform(-1, 1, o.ref.shape) if o.dtype == "f64"
                          else np.zeros(o.ref.shape, np.int64), None,
                          o.dtype) for o in outputs]
        return program, cotangents
    return None, None


def grad_text(program):
    """The program with @main private, its VJP requested, and a public
    @grad(args..., cotangents...) -> (cotangents of the f64 arguments)."""
    main = program.main
    main.public = False
    try:
        text = program.text()
    finally:
        main.public = True
    wrt = [i for i, a in enumerate(main.args) if a.dtype == "f64"]
    arg_types = [a.type() for a in main.args]
    result_types = [r.type() for r in main.results]
    grad_types = [arg_types[i] for i in wrt]
    text += ("func.func private @main_vjp(" + ", ".join(arg_types +
                                                         result_types)
             + ") -> (" + ", ".join(result_types + grad_types)
             + ") attributes {google.vjp = {of = @main, wrt = array<i64: "
             + ", ".join(map(str, wrt)) + ">}}\n")
    params = [f"%a{i}: {t}" for i, t in enumerate(arg_types)]
    params += [f"%c{i}: {t}" for i, t in enumerate(result_types)]
    operands = [f"%a{i}" for i in range(len(arg_types))] + \
        [f"%c{i}" for i in range(len(result_types))]
    count = len(result_types) + len(grad_types)
    text += (f"func.func @grad({', '.join(params)}) -> "
             f"({', '.join(grad_types)}) {{\n"
             f"  %r:{count} = call @main_vjp({', '.join(operands)}) : ("
             + ", ".join(arg_types + result_types) + ") -> ("
             + ", ".join(result_types + grad_types) + ")\n"
             f"  return " + ", ".join(f"%r#{len(result_types) + k}"
                                      for k in range(len(grad_types)))
             + " : " + ", ".join(grad_types) + "\n}\n")
    return text, wrt


def run_grad(google_run, directory, text, values, count, options, tag):
    path = os.path.join(directory, "grad.mlir")
    with open(path, "w") as f:
        f.write(text)
    command = [google_run, path, "--function=grad"]
    for i, value in enumerate(values):
        file = os.path.join(directory, f"grad-input{i}.npy")
        np.save(file, value)
        command.append(f"--input=@{file}")
    outputs = [os.path.join(directory, f"{tag}-grad{i}.npy")
               for i in range(count)]
    command += [f"--output=@{o}" for o in outputs] + options
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"hung (no result after {RUN_TIMEOUT} s)", command
    if done.returncode != 0:
        return None, (f"exit {done.returncode}: " +
                      done.stderr.strip()[-800:]), command
    return [np.load(o) for o in outputs], None, command


def loss(program, inputs, cotangents):
    """sum(out_i * ct_i) by the f64 reference model, or None when the
    inputs break a shape rule."""
    try:
        outputs = program.main.evaluate(inputs)
    except ShapeMismatch:
        return None
    return sum(float(np.sum(o.ref * c.ref)) for o, c in
               zip(outputs, cotangents))


def check_grad(seed, google_run, directory):
    """None, or a failure report: every variant's gradient against the
    interpreter's, and the interpreter's against central differences of
    the reference model along a random direction."""
    program, cotangents = grad_case(seed)
    if program is None:
        return None
    text, wrt = grad_text(program)
    if EMIT_ONLY[0]:
        failure = Runner(google_run, directory).emit_variants(text,
                                                             rotation(seed))
        if failure is None:
            return None
        tag, error, _ = failure
        if any(limit in error for limit in UNSUPPORTED_GRADIENTS):
            return SKIPPED
        return f"{tag}: {error}", text
    inputs = program.inputs
    values = [storage(v.ref, v.dtype) for v in inputs] + \
        [storage(c.ref, c.dtype) for c in cotangents]
    reference = None
    for tag, options in variants():
        chosen = rotation(seed)
        if chosen is not None and tag not in chosen:
            continue
        grads, error, command = run_grad(google_run, directory, text, values,
                                         len(wrt), options,
                                         tag.replace("=", "-"))
        if error is not None:
            if reference is None and any(limit in error for limit in
                                         UNSUPPORTED_GRADIENTS):
                return SKIPPED
            return f"{tag}: {error}", text
        if reference is None:
            reference = grads
            continue
        for k, (got, want) in enumerate(zip(grads, reference)):
            # The largest finite magnitude: a NaN in the reference made
            # the tolerance NaN (every element then differed), an inf
            # would make it infinite (none would).
            scale = np.max(np.abs(want[np.isfinite(want)]), initial=1.0)
            if got.shape != want.shape or not np.allclose(
                    got, want, rtol=1e-9, atol=1e-9 * scale, equal_nan=True):
                return (f"{tag}: the gradient of argument {wrt[k]} differs "
                        f"from the interpreter's: {got} vs {want}"), text
    for g, i in zip(reference, wrt):
        if g.shape != inputs[i].ref.shape:
            return (f"interpreter: the gradient of argument {i} has shape "
                    f"{g.shape}, the argument {inputs[i].ref.shape}"), text
    # Directional derivative: <g, v> against (L(x + hv) - L(x - hv)) / 2h.
    rng = np.random.default_rng(seed + 17)
    directions = {i: rng.uniform(-1, 1, inputs[i].ref.shape) for i in wrt}
    analytic = sum(float(np.sum(g * directions[i]))
                   for g, i in zip(reference, wrt))
    if not np.isfinite(analytic):
        return None  # overflow on the way: nothing to compare
    magnitude = sum(float(np.sum(np.abs(g * directions[i])))
                    for g, i in zip(reference, wrt))
    estimates = []
    for h in (1e-5, 1e-6, 1e-7, 1e-8):
        def moved(sign):
            shifted = list(inputs)
            for i in wrt:
                shifted[i] = Val(inputs[i].ref + sign * h * directions[i],
                                 None, "f64")
            return loss(program, shifted, cotangents)
        plus, minus = moved(1), moved(-1)
        if plus is None or minus is None or not np.isfinite(plus - minus):
            return None
        numeric = (plus - minus) / (2 * h)
        estimates.append(numeric)
        tolerance = 1e-5 * (magnitude + abs(analytic)) + 1e-7 + \
            1e-14 * (abs(plus) + abs(minus)) / h
        if abs(numeric - analytic) <= tolerance:
            return None
    # Estimates that move with the step straddle a jump (floor_div, a
    # comparison) or a kink at the point: no derivative to compare.
    spread = max(estimates) - min(estimates)
    if spread > 1e-3 * (abs(analytic) + magnitude) + 1e-6:
        return SKIPPED
    numeric = estimates[1]
    return (f"interpreter: the directional derivative is {analytic!r}, "
            f"central differences give {numeric!r}"), text


# --------------------------------------------------------------------------
# Shrinking
# --------------------------------------------------------------------------

def shrink(program, inputs, runner, failure):
    """A smaller program, and its inputs, that fail in the same variant:
    results dropped, ops bypassed (their uses take an operand of the same
    type), unused arguments removed."""
    tag = failure[0]
    def fails(candidate_inputs):
        try:
            program.text()
            return check_program(program, candidate_inputs, runner,
                                 {tag}) is not None
        except Exception:
            return False
    main = program.main
    for result in list(main.results):
        if len(main.results) == 1:
            break
        saved = main.results
        main.results = [r for r in main.results if r is not result]
        if not fails(inputs):
            main.results = saved
    for function in program.functions:
        changed = True
        while changed:
            changed = False
            for node in reversed(function.live_nodes()):
                for operand in node.operands:
                    if operand.type() != node.type():
                        continue
                    saved = ([list(n.operands) for n in function.nodes],
                             list(function.results))
                    for n in function.nodes:
                        n.operands = [operand if o is node else o
                                      for o in n.operands]
                    function.results = [operand if r is node else r
                                        for r in function.results]
                    if fails(inputs):
                        changed = True
                        break
                    for n, ops in zip(function.nodes, saved[0]):
                        n.operands = ops
                    function.results = saved[1]
                if changed:
                    break
    used = set(main.results)
    for node in main.live_nodes():
        used.update(node.operands)
    kept = [i for i, arg in enumerate(main.args) if arg in used]
    if len(kept) < len(main.args):
        saved_args = main.args
        main.args = [main.args[i] for i in kept]
        smaller = [inputs[i] for i in kept]
        if fails(smaller):
            return program, smaller
        main.args = saved_args
    return program, inputs


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def run_seed(args):
    try:
        return run_seed_unguarded(args)
    except Exception:
        import traceback
        return args[0], f"seed {args[0]}: the tester failed:\n" + \
            traceback.format_exc()


def run_seed_unguarded(args):
    seed, google_run, keep = args
    directory = tempfile.mkdtemp(prefix=f"difftest-{seed}-")
    if GRAD_MODE:
        try:
            failure = check_grad(seed, google_run, directory)
            if failure is None:
                return seed, None
            if failure is SKIPPED:
                return seed, SKIPPED[0]
            out = keep or tempfile.mkdtemp(prefix=f"difftest-repro-{seed}-")
            os.makedirs(out, exist_ok=True)
            path = os.path.join(out, f"seed-{seed}-grad.mlir")
            with open(path, "w") as f:
                f.write(failure[1])
            return seed, (f"seed {seed} (gradient): {failure[0]}\n"
                          f"{failure[1]}module: {path}\n"
                          f"regenerate: {sys.executable} "
                          f"{os.path.abspath(__file__)} --grad --seed {seed} "
                          f"--google-run {google_run}\n")
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    runner = Runner(google_run, directory)
    try:
        program, inputs = make_case(seed)
        chosen = rotation(seed)
        if EMIT_ONLY[0]:
            failure = runner.emit_variants(program.text(), chosen)
            if failure is None:
                return seed, None
            tag, error, command = failure
            return seed, (
                f"seed {seed} ({tag}): {error}\n{program.text()}"
                f"repro: {poison_prefix()}{' '.join(shlex.quote(c) for c in command)}\n")
        failure = check_program(program, inputs, runner, chosen)
        if failure is None:
            return seed, None
        program, inputs = shrink(program, inputs, runner, failure)
        failure = check_program(program, inputs, runner, chosen) or failure
        out = keep or tempfile.mkdtemp(prefix=f"difftest-repro-{seed}-")
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, f"seed-{seed}.mlir")
        with open(path, "w") as f:
            f.write(program.text())
        command = [google_run, path, "--function=main"]
        for i, value in enumerate(inputs):
            file = os.path.join(out, f"seed-{seed}-input{i}.npy")
            np.save(file, storage(value.ref, value.dtype))
            command.append(f"--input=@{file}")
        command += [c for c in failure[2]
                    if c == "--interpret" or c.startswith("--pipeline") or
                    c.startswith("--target")]
        report = (f"seed {seed} ({failure[0]}): {failure[1]}\n"
                  f"{program.text()}"
                  f"repro: {poison_prefix()}{' '.join(shlex.quote(c) for c in command)}\n"
                  f"regenerate: {sys.executable} {os.path.abspath(__file__)}"
                  f" --seed {seed} --google-run {google_run}"
                  f"{' ' + ' '.join(COMPILED_ARGS) if COMPILED_ARGS else ''}"
                  f"{' --pipeline-options=' + shlex.quote(' '.join(EXTRA_OPTIONS)) if EXTRA_OPTIONS else ''}\n")
        return seed, report
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def poison_prefix():
    """The environment a repro command needs (see main)."""
    value = os.environ.get("GOOGLE_MLIR_POISON_BUFFERS")
    return f"GOOGLE_MLIR_POISON_BUFFERS={value} " if value else ""


def main():
    global GRAD_MODE, TF32_MODE, WGMMA_MODE
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, help="run one seed, verbosely")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--google-run", default="google-run")
    parser.add_argument("--target", default="cpu",
                        choices=("cpu", "cuda", "rocm"),
                        help="where the compiled variants run")
    parser.add_argument("--keep", help="directory for repro files")
    parser.add_argument("--variants",
                        help="comma-separated subset of: " + ",".join(VARIANTS))
    parser.add_argument("--rotate", type=int, default=0, metavar="K",
                        help="per seed, the interpreter, opt-level=3 and K "
                        "of the other variants, rotating over the seeds")
    parser.add_argument("--grad", action="store_true",
                        help="gradient mode: f64 programs of differentiable "
                        "ops; each variant's VJP against the interpreter's, "
                        "and that against central differences")
    parser.add_argument("--only", help="comma-separated op generators to "
                        "focus on (e.g. conv,pool); elementwise ops still "
                        "appear, rarely")
    parser.add_argument("--pipeline-options", metavar="OPTIONS",
                        help="extra pipeline options for every compiled "
                        "variant (e.g. fused-attention=true)")
    parser.add_argument("--emit-only", action="store_true",
                        help="compile the variants to objects, not run them "
                        "(with --target=cuda or rocm: no GPU needed)")
    parser.add_argument("--print", action="store_true",
                        help="print the program of --seed and exit")
    args = parser.parse_args()
    google_run = shutil.which(args.google_run)
    if google_run is None:
        sys.exit(f"error: cannot find google-run '{args.google_run}' (give "
                 "--google-run=PATH)")
    if args.target != "cpu":
        COMPILED_ARGS.append(f"--target={args.target}")
    if args.emit_only:
        EMIT_ONLY[0] = True
    if args.pipeline_options:
        EXTRA_OPTIONS.extend(args.pipeline_options.split())
        TF32_MODE = "tf32=true" in EXTRA_OPTIONS
        WGMMA_MODE = "wgmma=true" in EXTRA_OPTIONS
    if args.grad:
        GRAD_MODE = True
    if args.only:
        ONLY_KINDS.update(args.only.split(","))
        known = {name[len("gen_"):] for name in dir(Generator)
                 if name.startswith("gen_")}
        if not ONLY_KINDS <= known:
            sys.exit(f"error: --only: unknown generators "
                     f"{sorted(ONLY_KINDS - known)}; expected some of "
                     f"{', '.join(sorted(known))}")
    if args.variants:
        chosen = args.variants.split(",")
        unknown = [v for v in chosen if v not in VARIANTS]
        if unknown:
            sys.exit(f"error: unknown variant {unknown[0]}; expected one of "
                     + ", ".join(VARIANTS))
        VARIANTS[:] = chosen
    ROTATE[0] = max(args.rotate, 0)
    cache = tempfile.mkdtemp(prefix="difftest-cache-")
    os.environ["GOOGLE_MLIR_CACHE_DIR"] = cache
    os.environ.pop("GOOGLE_MLIR_LOG_COMPILES", None)
    # Compiled code gets its buffers filled with NaNs (-1s): reading an
    # element nothing wrote shows (=0 in the environment turns it off).
    os.environ.setdefault("GOOGLE_MLIR_POISON_BUFFERS", "1")
    try:
        if args.seed is not None:
            if args.print and GRAD_MODE:
                program, _ = grad_case(args.seed)
                print(grad_text(program)[0] if program else "// no program",
                      end="")
                return 0
            program, inputs = make_case(args.seed)
            if args.print:
                print(program.text(), end="")
                for value in inputs:
                    print("// input", value.dtype, value.shape)
                return 0
            seed, report = run_seed((args.seed, google_run, args.keep))
            print(report or f"seed {seed}: ok")
            return 1 if report else 0
        seeds = range(args.first, args.first + args.seeds)
        start = time.time()
        failures = []
        skipped = 0
        with multiprocessing.Pool(args.jobs) as pool:
            for seed, report in pool.imap_unordered(
                    run_seed, [(s, google_run, args.keep) for s in seeds]):
                if report == SKIPPED[0]:
                    skipped += 1
                elif report:
                    failures.append(seed)
                    print(report, flush=True)
        per_seed = (f"{len(rotation(0))} of {len(VARIANTS)} variants, "
                    f"rotating" if ROTATE[0] else f"{len(VARIANTS)} variants")
        print(f"difftest: {len(seeds)} programs (seeds {seeds.start}.."
              f"{seeds.stop - 1}) x {per_seed} "
              f"({', '.join(VARIANTS)}): {len(failures)} failing"
              + (" to compile" if EMIT_ONLY[0] else "")
              + (f", {skipped} skipped (ops without adjoint rules yet)"
                 if GRAD_MODE else "") +
              f" in {time.time() - start:.0f} s", flush=True)
        return 1 if failures else 0
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
