"""Runs the e2e cases that `GOOGLE_E2E_COLLECT=DIR e2e.py run ...` wrote
to DIR, all in this one process, through the runtime (the Python
extension): every result compared with NumPy's with google-run's
tolerances, every expected run-time check failure checked.
scripts/check-memory.sh runs it under valgrind: one process start instead
of one per case.

  run_objects.py DIR
"""
import glob
import json
import os
import sys

import numpy as np

import google_mlir as gm
from google_mlir import _native

# google-run's --expected_output tolerances: (absolute, relative).
TOLERANCES = {"f32": (1e-4, 1e-5), "f16": (1e-2, 1e-3), "bf16": (1e-2, 1e-2),
              "f64": (1e-10, 1e-9)}


def run(record, modules):
    module = modules.get(record["object"])
    if module is None:
        module = modules[record["object"]] = _native.Module(record["object"])
    function = module.function(record["function"], unpack_single=False)
    arrays = [np.load(path) for path in record["inputs"]]
    arrays = [gm.to_bfloat16(a) if dtype == "bf16" else a
              for a, (dtype, _) in zip(arrays, function.arg_types)]
    try:
        results = function(*arrays)
    except gm.Error as error:
        if record["error"] and record["error"] in str(error):
            return None
        return f"{record['where']}: {error}"
    except _native.SignatureMismatch as mismatch:
        # Arguments the runtime's signature check rejects (google-run words
        # the same check differently).
        if record["error"]:
            return None
        return f"{record['where']}: the arguments do not fit: {mismatch}"
    if record["error"]:
        return f"{record['where']}: expected an error '{record['error']}'"
    for j, ((path, dtype), result) in enumerate(zip(record["expected"],
                                                    results)):
        want = np.load(path)
        got = gm.from_bfloat16(result) if dtype == "bf16" else result
        if want.shape != got.shape:
            return f"{record['where']}: result {j} has shape {got.shape}, " \
                   f"expected {want.shape}"
        if dtype in TOLERANCES:
            atol, rtol = TOLERANCES[dtype]
            close = np.isclose(got.astype(np.float64),
                               want.astype(np.float64), rtol=rtol, atol=atol,
                               equal_nan=True)
        else:
            close = got == want
        if not np.all(close):
            i = np.unravel_index(np.argmin(close), want.shape)
            return (f"{record['where']}: result {j} element {list(i)} is "
                    f"{got[i]}, expected {want[i]}")
    return None


def main():
    records = sorted(glob.glob(os.path.join(sys.argv[1], "*.json")))
    modules = {}
    failures = [f for f in (run(json.load(open(r)), modules)
                            for r in records) if f]
    # Every result is gone: the compiled code and the runtime gave back
    # every pooled block (valgrind's leak check would drown in Python's).
    in_use = _native.pool_stats()["bytes_in_use"]
    if in_use:
        failures.append(f"{in_use} bytes of the runtime's pool are still "
                        "in use after every result was released")
    for failure in failures:
        print("error:", failure)
    print(f"run_objects: {len(records) - len(failures)} of {len(records)} "
          "cases pass")
    return 1 if failures or not records else 0


if __name__ == "__main__":
    sys.exit(main())
