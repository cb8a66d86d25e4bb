"""Compiles MODULE for a CPU with a feature this one lacks, then runs it
(compiled in-process, and as an emitted object): both must fail with one
error line naming the feature, not die with SIGILL.

  foreign_cpu.py RUNTIME_LIBRARY GOOGLE_RUN MODULE OBJECT [INPUT...]
"""
import ctypes
import subprocess
import sys

runtime, google_run, module, obj = sys.argv[1:5]
inputs = sys.argv[5:]
has_feature = ctypes.CDLL(runtime).google_rt_cpu_has_feature
has_feature.argtypes = [ctypes.c_char_p]
# Intel's chips lack AMD's sse4a; AMD's (up to Zen 5) lack avx512fp16.
for chip, feature in [("sapphirerapids", "avx512fp16"), ("znver4", "sse4a")]:
    if not has_feature(feature.encode()):
        break
else:
    print("this CPU has every feature the candidate chips need")
    sys.exit(0)
options = f"--pipeline-options=chip={chip}"
runs = [[google_run, module, options] + inputs,
        [google_run, module, options, f"--emit-object={obj}"],
        [google_run, obj] + inputs]
for command in runs:
    done = subprocess.run(command, capture_output=True, text=True)
    print(f"exit {done.returncode}: {done.stderr.strip()}")
