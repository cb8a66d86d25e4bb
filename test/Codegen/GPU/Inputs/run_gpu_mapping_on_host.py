#!/usr/bin/python3
"""Stands in for google-run, with the GPU pipeline's kernels run on the host.

  run_gpu_mapping_on_host.py MODULE.mlir [google-run options...]

Lowers MODULE with google-opt --google-test-gpu-mapping-on-host (the GPU
pipeline's device buffers and kernel mapping, the launches run as loops on
the host; a test tool, see test/lib/TestRunLaunchesOnHost.cpp) with the
--pipeline-options given, then runs the result with google-run (the
host code at opt-level 0), its buffers poisoned
(GOOGLE_MLIR_POISON_BUFFERS=1 unless the environment sets it; shared
memory is poisoned per block by the emulation itself). With
--interpret, it is google-run. GOOGLE_OPT and GOOGLE_RUN name the tools;
lowered modules are kept under $GOOGLE_MLIR_CACHE_DIR/gpu-mapping.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    google_opt = os.environ["GOOGLE_OPT"]
    google_run = os.environ["GOOGLE_RUN"]
    module, args = sys.argv[1], sys.argv[2:]
    if "--interpret" in args:
        os.execv(google_run, [google_run, module] + args)
    options = ""
    rest = []
    for arg in args:
        if arg.startswith("--pipeline-options="):
            options = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    with open(module, "rb") as f:
        source = f.read()
    # google-opt's build too: a rebuilt compiler must not reuse lowerings.
    built = os.stat(google_opt if os.path.isabs(google_opt) else
                    shutil.which(google_opt) or google_opt)
    key = hashlib.sha256(source + b"\0" + options.encode() + b"\0" +
                         google_opt.encode() + b"\0" +
                         f"{built.st_size}:{built.st_mtime_ns}".encode()
                         ).hexdigest()[:32]
    cache = os.path.join(os.environ.get("GOOGLE_MLIR_CACHE_DIR",
                                        tempfile.gettempdir()), "gpu-mapping")
    os.makedirs(cache, exist_ok=True)
    lowered = os.path.join(cache, key + ".mlir")
    if not os.path.exists(lowered):
        done = subprocess.run(
            [google_opt, module,
             f"--google-test-gpu-mapping-on-host={options}"],
            capture_output=True, text=True)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            first = next((l for l in lines if "error:" in l), None)
            if first is None or done.returncode != 1:
                # A crash is not a compile error: exit as a crash does.
                sys.stderr.write(done.stderr[-2000:])
                sys.exit(2)
            sys.stderr.write("error: " + first.split("error:", 1)[1].strip()
                             + "\n")
            sys.exit(1)
        with tempfile.NamedTemporaryFile("w", dir=cache, delete=False) as f:
            f.write(done.stdout)
        os.replace(f.name, lowered)
    # The opt-level chose the kernels (above); the host code that emulates
    # them is compiled at 0: LLVM's optimizations of these large, unrolled
    # bodies took ten times as long as running them, and they would check
    # only the host's code generation (the CPU tests do).
    # GOOGLE_MAPPING_HOST_OPT_LEVEL overrides.
    codegen = [o for o in options.split() if o.startswith("chip")]
    codegen.append("opt-level=" +
                   os.environ.get("GOOGLE_MAPPING_HOST_OPT_LEVEL", "0"))
    rest.append("--pipeline-options=" + " ".join(codegen))
    os.environ.setdefault("GOOGLE_MLIR_POISON_BUFFERS", "1")
    os.execv(google_run, [google_run, lowered] + rest)


if __name__ == "__main__":
    main()
