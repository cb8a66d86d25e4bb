#!/usr/bin/python3
"""End-to-end test driver: runs google functions with google-run and checks
the results against NumPy.

A test file holds google-dialect functions and one directive per call:

  // E2E: @name(x: 4x8xf32, y: 8xf32[0.5:3]) -> relu(x + y)
  // E2E-ERROR: @name(x: 4x8xf32, y: 3xf32) -> google.add: dimension 0 ...

Each argument is a name, its concrete shape and element type, and optionally
a [low:high] range for the random values (default [-2:2]; integers use
[-10:10]). The expression after `->` is evaluated with NumPy (float64 for
floats, the element type for integers) using the argument names; it may be a
tuple for several results. Inputs are seeded from the directive's index.

  e2e.py run FILE GOOGLE_RUN [ARGS...]
  e2e.py run-all DIR GOOGLE_RUN [ARGS...]   (every file of DIR with
                                            directives, and the examples')
  e2e.py emit-all DIR GOOGLE_RUN OUT [ARGS...]   (each of those compiled
                                            to OUT/NAME.so, not run: a
                                            target without a device here)

writes each case's inputs and NumPy's results as .npy files and runs
`GOOGLE_RUN FILE --function=NAME --input=@... --expected_output=@... ARGS`,
which compiles FILE once per option set (through the compile cache) and
compares every result with google-run's tolerances. An E2E-ERROR case
must instead fail with an error line that contains the text after `->`
(a run-time check). Every case runs at each opt-level in
GOOGLE_E2E_OPT_LEVELS (default "0 1 2 3"). Exits 1 naming the first
failing case. GOOGLE_RUN_PREFIX (e.g. a valgrind command) is put before
google-run and GOOGLE_E2E_PIPELINE_OPTIONS added to its pipeline options.
GOOGLE_E2E_COLLECT=DIR compiles the file into objects in DIR and writes
each case there instead of running it; run_objects.py DIR runs them all in
one process (scripts/check-memory.sh runs that under valgrind).
"""

import concurrent.futures
import glob
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import numpy as np

DIRECTIVE = re.compile(
    r"//\s*E2E(-ERROR)?:\s*@(\w+)\((.*?)\)\s*->\s*(.+)$")
ARG = re.compile(r"(\w+)\s*:\s*([0-9x]*?)x?(f16|bf16|f32|f64|i32|i64|i1)"
                 r"(?:\[([-0-9.e]+):([-0-9.e]+)\])?$")
FUNC = re.compile(r"func\.func\s+@(\w+)\((.*?)\)\s*(?:->\s*(.*?))?\s*"
                  r"(?:attributes.*?)?\{", re.S)

NP_TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
            "i32": np.int32, "i64": np.int64, "bf16": np.float32,
            "i1": np.bool_}


def round_bf16(values):
    """Rounds float32 values to the nearest bfloat16, ties to even."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def round_tf32(values):
    """Rounds float32 values to TF32 (10-bit mantissas) as PTX's
    cvt.rna.tf32.f32 does: to nearest, ties away from zero; NaN stays."""
    values = np.asarray(values, np.float32)
    bits = values.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x1000) & 0xFFFFE000
    rounded = bits.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(values), values, rounded)


class Arg:
    def __init__(self, text):
        m = ARG.match(text.strip())
        if not m:
            sys.exit(f"error: bad E2E argument '{text.strip()}', expected "
                     "name: 4x8xf32 or name: 4x8xf32[low:high]")
        self.name, dims, self.dtype = m.group(1), m.group(2), m.group(3)
        self.shape = tuple(int(d) for d in dims.split("x") if d)
        self.is_int = self.dtype.startswith("i")
        default = (0, 1) if self.dtype == "i1" else \
            (-10, 10) if self.is_int else (-2.0, 2.0)
        self.low = float(m.group(4)) if m.group(4) else default[0]
        self.high = float(m.group(5)) if m.group(5) else default[1]

    def tensor_type(self):
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.dtype + ">"

    def generate(self, rng):
        if self.dtype == "i1":
            return rng.integers(int(self.low), int(self.high) + 1,
                                self.shape).astype(np.bool_)
        if self.is_int:
            values = rng.integers(int(self.low), int(self.high) + 1, self.shape)
            return values.astype(NP_TYPES[self.dtype])
        values = rng.uniform(self.low, self.high, self.shape)
        if self.dtype == "bf16":
            return round_bf16(values)
        return values.astype(NP_TYPES[self.dtype])


class Case:
    def __init__(self, index, error, name, args, expr):
        self.index, self.name, self.expr = index, name, expr
        self.expects_error = bool(error)
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


def reference_namespace():
    def softmax(x, axis=-1):
        if x.shape[axis] == 0:
            return x
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)
    def conv(x, w, strides, dilations, padding, groups):
        """NHWC x HWIO convolution, padding (top, bottom, left, right)."""
        top, bottom, left, right = padding
        x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
        kh, kw, cg, cout = w.shape
        fh, fw = dilations[0] * (kh - 1) + 1, dilations[1] * (kw - 1) + 1
        oh = (x.shape[1] - fh) // strides[0] + 1
        ow = (x.shape[2] - fw) // strides[1] + 1
        per_group = cout // groups
        out = np.zeros((x.shape[0], oh, ow, cout), np.result_type(x, w))
        for o in range(cout):
            g = o // per_group
            for i in range(kh):
                for j in range(kw):
                    rows = x[:, i * dilations[0]:, j * dilations[1]:,
                             g * cg:(g + 1) * cg]
                    rows = rows[:, :(oh - 1) * strides[0] + 1:strides[0],
                                :(ow - 1) * strides[1] + 1:strides[1]]
                    out[..., o] += rows @ w[i, j, :, o]
        return out

    def pool(x, reduce, window, strides, padding):
        """Pooling over the input elements of each window."""
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

    return {
        "np": np,
        "conv": conv,
        "pool": pool,
        "relu": lambda x: np.maximum(x, 0),
        "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
        "erf": np.vectorize(math.erf, otypes=[np.float64]),
        "softmax": softmax,
        "bf16": lambda x: round_bf16(x).astype(np.float64),
        "tf32": lambda x: round_tf32(x).astype(np.float64),
        "scatter_add": scatter_add,
    }


def scatter_add(base, indices, updates, axis=0):
    """google.scatter_add: base.at[..., indices, ...].add(updates)."""
    result = base.copy()
    np.add.at(result, (slice(None),) * axis + (indices,), updates)
    return result


EXPECTED_DTYPES = {"f16": np.float16, "bf16": np.float32, "f32": np.float32,
                   "f64": np.float64, "i32": np.int32, "i64": np.int64,
                   "i1": np.bool_}


def evaluate(case, inputs):
    namespace = reference_namespace()
    for arg, value in zip(case.args, inputs):
        namespace[arg.name] = value if arg.is_int else value.astype(np.float64)
    with np.errstate(all="ignore"):
        reference = eval(case.expr, namespace)
    return reference if isinstance(reference, tuple) else (reference,)


def with_pipeline_options(args, opt_level):
    """Adds the opt-level and GOOGLE_E2E_PIPELINE_OPTIONS to the
    --pipeline-options in args."""
    extra = f"opt-level={opt_level} " + os.environ.get(
        "GOOGLE_E2E_PIPELINE_OPTIONS", "")
    prefix = "--pipeline-options="
    merged = [a + " " + extra if a.startswith(prefix) else a for a in args]
    if merged == args:
        merged.append(prefix + extra)
    return merged


def collect_case(case, results, path, google_run, extra_args, collect,
                 opt_level):
    """GOOGLE_E2E_COLLECT=DIR: compiles the file into DIR (once per
    opt-level) and writes the case's inputs, expected results (or error)
    and object there, for run_objects.py; returns None or a failure."""
    # One object per file, opt-level and options (a file may run twice;
    # two files may have one name).
    options = " ".join(with_pipeline_options(extra_args, opt_level))
    stem = os.path.splitext(os.path.basename(path))[0] + "-" + \
        hashlib.sha1((os.path.abspath(path) + options).encode()).hexdigest()[:8]
    obj = os.path.join(collect, f"{stem}.so")
    if not os.path.exists(obj):
        done = subprocess.run(
            [google_run, path, f"--emit-object={obj}"] +
            with_pipeline_options(extra_args, opt_level),
            capture_output=True, text=True)
        if done.returncode != 0:
            return f"error: {path}: cannot emit an object: {done.stderr}"
    inputs = case.inputs()
    record = {"object": obj, "function": case.name,
              "where": f"{path} case {case.index} (@{case.name}) at "
                       f"opt-level={opt_level}",
              "inputs": [], "expected": [], "error": None}
    prefix = os.path.join(collect, f"{stem}-{case.index}")
    for i, value in enumerate(inputs):
        np.save(f"{prefix}-input{i}.npy", value)
        record["inputs"].append(f"{prefix}-input{i}.npy")
    if case.expects_error:
        record["error"] = case.expr
    else:
        for j, result_type in enumerate(results):
            want = np.asarray(evaluate(case, inputs)[j]).astype(
                EXPECTED_DTYPES[element_type(result_type)])
            np.save(f"{prefix}-expected{j}.npy", want)
            record["expected"].append(
                (f"{prefix}-expected{j}.npy", element_type(result_type)))
    with open(f"{prefix}.json", "w") as f:
        json.dump(record, f)
    return None


def run_case(case, results, path, google_run, extra_args, directory,
             opt_level):
    """Runs one case; returns None or the failure as one line."""
    collect = os.environ.get("GOOGLE_E2E_COLLECT")
    if collect:
        return collect_case(case, results, path, google_run, extra_args,
                            collect, opt_level)
    inputs = case.inputs()
    command = (shlex.split(os.environ.get("GOOGLE_RUN_PREFIX", "")) +
               [google_run, path, f"--function={case.name}"])
    directory = os.path.join(directory, f"o{opt_level}")
    os.makedirs(directory, exist_ok=True)
    for i, value in enumerate(inputs):
        file = os.path.join(directory, f"{case.index}-input{i}.npy")
        np.save(file, value)
        command.append(f"--input=@{file}")
    if not case.expects_error:
        reference = evaluate(case, inputs)
        for j, result_type in enumerate(results):
            want = np.asarray(reference[j]).astype(
                EXPECTED_DTYPES[element_type(result_type)])
            file = os.path.join(directory, f"{case.index}-expected{j}.npy")
            np.save(file, want)
            command.append(f"--expected_output=@{file}")
    command += with_pipeline_options(extra_args, opt_level)
    done = subprocess.run(command, capture_output=True, text=True)
    where = f"case {case.index} (@{case.name}) at opt-level={opt_level}"
    if case.expects_error:
        if done.returncode == 0:
            return (f"error: {where}: expected an error containing "
                    f"'{case.expr}', got success: {done.stdout.strip()}")
        if case.expr not in done.stderr or "result[" in done.stdout:
            return (f"error: {where}: expected an error containing "
                    f"'{case.expr}', got: {done.stderr.strip()}")
    elif done.returncode != 0:
        return (f"error: {where}: google-run exited with "
                f"{done.returncode}: {done.stderr.strip()}")
    return None


def run(path, google_run, extra_args):
    _, cases, signatures = parse(path)
    if not cases:
        sys.exit(f"error: {path} has no E2E directives")
    opt_levels = os.environ.get("GOOGLE_E2E_OPT_LEVELS", "0 1 2 3").split()
    directory = tempfile.mkdtemp(prefix="google-e2e-")
    def task(opt_level, case):
        return run_case(case, signatures[case.name][1], path, google_run,
                        extra_args, directory, opt_level)
    try:
        # The first case of each opt-level compiles the file into the cache;
        # the others then run in parallel.
        failures = [task(level, cases[0]) for level in opt_levels]
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
            failures += list(pool.map(lambda args: task(*args),
                                      [(level, case) for level in opt_levels
                                       for case in cases[1:]]))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    failures = [f for f in failures if f]
    if failures:
        sys.exit(failures[0])
    errors = sum(case.expects_error for case in cases)
    matched = len(cases) - errors
    print(f"e2e: {matched} cases match numpy" +
          (f", {errors} fail as expected" if errors else "") +
          f" at opt-level {', '.join(opt_levels)}")


def e2e_files(directory):
    """Every file of `directory` with E2E directives, and the examples'."""
    examples = os.path.join(directory, "..", "..", "examples")
    paths = sorted(glob.glob(os.path.join(directory, "*.mlir"))) + \
        sorted(glob.glob(os.path.join(examples, "*.mlir")))
    return [p for p in paths
            if any(DIRECTIVE.match(line.strip()) for line in open(p))]


def run_all(directory, google_run, extra_args):
    """Runs every e2e file (e2e_files): a list that cannot drift from the
    directory (the GPU suites listed the files by hand and missed five)."""
    failures = []
    paths = e2e_files(directory)
    for path in paths:
        try:
            run(path, google_run, extra_args)
        except SystemExit as failure:
            failures.append(f"{os.path.basename(path)}: {failure}")
    for failure in failures:
        print(failure)
    print(f"e2e: {len(paths) - len(failures)} of {len(paths)} files pass")
    return 1 if failures else 0


def emit_all(directory, google_run, out, extra_args):
    """Compiles every e2e file (e2e_files) into an object in `out`."""
    failures = []
    paths = e2e_files(directory)
    os.makedirs(out, exist_ok=True)
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        done = subprocess.run(
            [google_run, path, f"--emit-object={os.path.join(out, name)}.so"]
            + extra_args, capture_output=True, text=True)
        errors = [line for line in done.stderr.splitlines()
                  if line.startswith("error:")]
        if done.returncode != 0 or errors:
            failures.append(f"{os.path.basename(path)}: " + (
                errors[0] if errors else f"exit {done.returncode}"))
    for failure in failures:
        print(failure)
    print(f"e2e: {len(paths) - len(failures)} of {len(paths)} files compile")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "emit-all":
        sys.exit(emit_all(sys.argv[2], sys.argv[3], sys.argv[4],
                          sys.argv[5:]))
    if len(sys.argv) >= 4 and sys.argv[1] == "run-all":
        sys.exit(run_all(sys.argv[2], sys.argv[3], sys.argv[4:]))
    if len(sys.argv) < 4 or sys.argv[1] != "run":
        sys.exit("usage: e2e.py run FILE GOOGLE_RUN [ARGS...]\n"
                 "       e2e.py run-all DIR GOOGLE_RUN [ARGS...]\n"
                 "       e2e.py emit-all DIR GOOGLE_RUN OUT [ARGS...]")
    run(sys.argv[2], sys.argv[3], sys.argv[4:])
