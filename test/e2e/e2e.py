#!/usr/bin/env python3
"""End-to-end test driver: runs google functions on inputs and checks the
results against NumPy.

A test file holds google-dialect functions and one directive per call:

  // E2E: @name(x: 4x8xf32, y: 8xf32[0.5:3]) -> relu(x + y)

Each argument is a name, its concrete shape and element type, and optionally
a [low:high] range for the random values (default [-2:2]; integers use
[-10:10]). The expression after `->` is evaluated with NumPy (float64 for
floats, the element type for integers) using the argument names; it may be a
tuple for several results. Inputs are seeded from the directive's index, so
`emit` and `check` agree.

  e2e.py emit FILE   prints FILE plus an @main that builds the inputs as
                     constants, calls each function and prints each result
  e2e.py check FILE  reads mlir-runner's output on stdin and compares it
                     with the NumPy values; exits 1 naming the first
                     mismatch
"""

import re
import sys

import numpy as np

DIRECTIVE = re.compile(r"//\s*E2E:\s*@(\w+)\((.*?)\)\s*->\s*(.+)$")
ARG = re.compile(r"(\w+)\s*:\s*([0-9x]*?)x?(f16|bf16|f32|f64|i32|i64)"
                 r"(?:\[([-0-9.e]+):([-0-9.e]+)\])?$")
FUNC = re.compile(r"func\.func\s+@(\w+)\((.*?)\)\s*(?:->\s*(.*?))?\s*"
                  r"(?:attributes.*?)?\{", re.S)

NP_TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
            "i32": np.int32, "i64": np.int64, "bf16": np.float32}
# Absolute and relative tolerance per result element type.
TOLERANCE = {"f16": (1e-2, 1e-2), "bf16": (5e-2, 2e-2), "f32": (1e-4, 1e-4),
             "f64": (1e-5, 1e-5), "i32": (0, 0), "i64": (0, 0)}


def round_bf16(values):
    """Rounds float32 values to the nearest bfloat16, ties to even."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


class Arg:
    def __init__(self, text):
        m = ARG.match(text.strip())
        if not m:
            sys.exit(f"error: bad E2E argument '{text.strip()}', expected "
                     "name: 4x8xf32 or name: 4x8xf32[low:high]")
        self.name, dims, self.dtype = m.group(1), m.group(2), m.group(3)
        self.shape = tuple(int(d) for d in dims.split("x") if d)
        self.is_int = self.dtype.startswith("i")
        default = (-10, 10) if self.is_int else (-2.0, 2.0)
        self.low = float(m.group(4)) if m.group(4) else default[0]
        self.high = float(m.group(5)) if m.group(5) else default[1]

    def tensor_type(self):
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.dtype + ">"

    def generate(self, rng):
        if self.is_int:
            values = rng.integers(int(self.low), int(self.high) + 1, self.shape)
            return values.astype(NP_TYPES[self.dtype])
        values = rng.uniform(self.low, self.high, self.shape)
        if self.dtype == "bf16":
            return round_bf16(values)
        return values.astype(NP_TYPES[self.dtype])


class Case:
    def __init__(self, index, name, args, expr):
        self.index, self.name, self.expr = index, name, expr
        self.args = [Arg(a) for a in split_args(args)]

    def inputs(self):
        rng = np.random.default_rng(1234 + self.index)
        return [a.generate(rng) for a in self.args]


def split_args(text):
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return parts


def parse(path):
    text = open(path).read()
    matches = [DIRECTIVE.match(line.strip()) for line in text.splitlines()]
    cases = [Case(i, *m.groups())
             for i, m in enumerate(m for m in matches if m)]
    signatures = {}
    for m in FUNC.finditer(text):
        params = re.findall(r"tensor<[^>]*>", m.group(2))
        results = re.findall(r"tensor<[^>]*>", m.group(3) or "")
        signatures[m.group(1)] = (params, results)
    for case in cases:
        if case.name not in signatures:
            sys.exit(f"error: E2E names @{case.name}, which the file does not define")
    return text, cases, signatures


def element_type(tensor_type):
    return tensor_type[tensor_type.rfind("x") + 1:-1] if "x" in tensor_type \
        else tensor_type[len("tensor<"):-1]


def format_values(array, dtype):
    flat = array.reshape(-1)
    if dtype.startswith("i"):
        items = [str(int(v)) for v in flat]
    else:
        items = [repr(float(v)) for v in flat]

    def nest(values, shape):
        if not shape:
            return values[0]
        step = len(values) // shape[0] if shape[0] else 0
        return "[" + ", ".join(nest(values[i * step:(i + 1) * step], shape[1:])
                               for i in range(shape[0])) + "]"
    return nest(items, list(array.shape))


def emit(path):
    text, cases, signatures = parse(path)
    lines = ["func.func @main() {"]
    printers = set()
    for case in cases:
        params, results = signatures[case.name]
        operands = []
        for i, (arg, value) in enumerate(zip(case.args, case.inputs())):
            v = f"%c{case.index}_{i}"
            lines.append(f"  {v} = arith.constant dense<{format_values(value, arg.dtype)}>"
                         f" : {arg.tensor_type()}")
            if params[i] != arg.tensor_type():
                lines.append(f"  {v}c = tensor.cast {v} : {arg.tensor_type()} to {params[i]}")
                v += "c"
            operands.append(v)
        r = f"%r{case.index}"
        count = f":{len(results)}" if len(results) > 1 else ""
        lines.append(f"  {r}{count} = call @{case.name}({', '.join(operands)}) : "
                     f"({', '.join(params)}) -> ({', '.join(results)})")
        for j, result in enumerate(results):
            value = f"{r}#{j}" if len(results) > 1 else r
            dtype = element_type(result)
            if dtype in ("f16", "bf16"):
                widened = result[:-len(dtype) - 1] + "f32>"
                lines.append(f"  {r}w{j} = google.cast {value} : {result} -> {widened}")
                value, result, dtype = f"{r}w{j}", widened, "f32"
            printer = "printMemref" + dtype.upper()
            printers.add((printer, dtype))
            elem = f"tensor<*x{dtype}>"
            lines.append(f"  {r}u{j} = tensor.cast {value} : {result} to {elem}")
            lines.append(f"  call @{printer}({r}u{j}) : ({elem}) -> ()")
    lines.append("  return")
    lines.append("}")
    for printer, dtype in sorted(printers):
        lines.append(f"func.func private @{printer}(tensor<*x{dtype}>)")
    sys.stdout.write(text + "\n" + "\n".join(lines) + "\n")


NUMBER = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def parse_runner_output(output):
    printed = []
    for chunk in output.split("Unranked Memref")[1:]:
        sizes = re.search(r"sizes = \[([^\]]*)\]", chunk)
        data = chunk.split("data =", 1)
        if not sizes or len(data) != 2:
            sys.exit("error: cannot parse mlir-runner output:\n" + chunk)
        shape = tuple(int(s) for s in sizes.group(1).split(",") if s.strip())
        values = [float(v) for v in NUMBER.findall(data[1])]
        printed.append((shape, np.array(values, np.float64)))
    return printed


def reference_namespace():
    def softmax(x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)
    return {
        "np": np,
        "relu": lambda x: np.maximum(x, 0),
        "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
        "softmax": softmax,
        "bf16": lambda x: round_bf16(x).astype(np.float64),
    }


def check(path):
    _, cases, signatures = parse(path)
    printed = parse_runner_output(sys.stdin.read())
    expected_count = sum(len(signatures[c.name][1]) for c in cases)
    if len(printed) != expected_count:
        sys.exit(f"error: expected {expected_count} printed results, got {len(printed)}")
    position = 0
    for case in cases:
        namespace = reference_namespace()
        for arg, value in zip(case.args, case.inputs()):
            namespace[arg.name] = value if arg.is_int else value.astype(np.float64)
        with np.errstate(all="ignore"):
            reference = eval(case.expr, namespace)
        if not isinstance(reference, tuple):
            reference = (reference,)
        for j, result_type in enumerate(signatures[case.name][1]):
            shape, values = printed[position]
            position += 1
            want = np.asarray(reference[j])
            where = f"@{case.name} result {j}"
            if shape != want.shape:
                sys.exit(f"error: {where}: expected shape {want.shape}, got {shape}")
            atol, rtol = TOLERANCE[element_type(result_type)]
            want = want.astype(np.float64).reshape(-1)
            close = np.isclose(values, want, atol=atol, rtol=rtol, equal_nan=True)
            if not close.all():
                i = int(np.argmin(close))
                index = np.unravel_index(i, shape) if shape else ()
                sys.exit(f"error: {where}: element {tuple(int(k) for k in index)} "
                         f"is {values[i]}, NumPy says {want[i]}")
    print(f"e2e: {len(cases)} cases match numpy")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("emit", "check"):
        sys.exit("usage: e2e.py emit|check FILE")
    (emit if sys.argv[1] == "emit" else check)(sys.argv[2])
