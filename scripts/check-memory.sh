#!/usr/bin/env bash
# Runs the end-to-end cases (through the Python extension, in one process),
# the runtime's C tests and google-run on compiled objects under valgrind
# (memcheck): no invalid access and no definite leak may be reported in
# google-run, the runtime, the extension or compiled code (the compiler is
# checked by scripts/check-sanitizers.sh). Needs a build (scripts/build.sh)
# and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
VALGRIND="valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect -q"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The e2e cases: compiled into objects without valgrind, then all run in
# one Python process under it (one start of the runtime, not one of
# google-run, which loads all of MLIR, per case: 20 minutes less).
mkdir "$tmp/e2e"
/usr/lib/llvm-22/bin/lit -s -Dmemcheck="$tmp/e2e" "$BUILD_DIR/test/e2e"
# (Python itself leaks at exit: run_objects.py checks that the runtime's
# pool got every block back instead of valgrind's leak check.)
PYTHONPATH="$BUILD_DIR/python" PYTHONMALLOC=malloc valgrind \
  --error-exitcode=99 -q --suppressions=scripts/valgrind-python.supp \
  /usr/bin/python3 test/e2e/run_objects.py "$tmp/e2e"

"$BUILD_DIR/bin/google-run" test/google-run/Inputs/two_functions.mlir \
  --pipeline-options=chip=haswell --emit-object="$tmp/two.so"
"$BUILD_DIR/bin/google-run" test/runtime/Inputs/checks.mlir \
  --pipeline-options=chip=haswell --emit-object="$tmp/checks.so"
$VALGRIND "$BUILD_DIR/bin/runtime_test" "$tmp/two.so"
$VALGRIND "$BUILD_DIR/bin/runtime_test" --checks "$tmp/checks.so"
# The GPU path of the runtime, with the stand-in CUDA driver of the tests.
"$BUILD_DIR/bin/google-run" test/google-run/Inputs/gpu_functions.mlir \
  --target=cuda --emit-object="$tmp/gpu.so"
LD_LIBRARY_PATH="$BUILD_DIR/test/fake-cuda" \
  $VALGRIND "$BUILD_DIR/bin/runtime_gpu_test" fake "$tmp/gpu.so"
LD_LIBRARY_PATH="$BUILD_DIR/test/fake-cuda" $VALGRIND "$BUILD_DIR/bin/google-run" \
  "$tmp/gpu.so" --target=cuda --function=relu --input=5x3xf32=1 > /dev/null
# A launch that fails ends the call (longjmp) and frees its device buffers.
if LD_LIBRARY_PATH="$BUILD_DIR/test/fake-cuda" FAKE_CUDA_FAIL=cuLaunchKernel=719 \
   $VALGRIND "$BUILD_DIR/bin/google-run" "$tmp/gpu.so" --target=cuda \
   --function=relu --input=5x3xf32=1 2> "$tmp/launch.err"; then
  echo "expected the failed launch to fail the call"; exit 1
fi
grep -q "CUDA_ERROR_LAUNCH_FAILED" "$tmp/launch.err"
# The Python extension: compile first, then call under valgrind.
PY_CACHE="$tmp/python-cache"
GOOGLE_MLIR_CACHE_DIR="$PY_CACHE" PYTHONPATH="$BUILD_DIR/python" \
  /usr/bin/python3 test/python/Inputs/memcheck_calls.py
GOOGLE_MLIR_CACHE_DIR="$PY_CACHE" PYTHONPATH="$BUILD_DIR/python" \
  PYTHONMALLOC=malloc valgrind --error-exitcode=99 -q \
  --suppressions=scripts/valgrind-python.supp \
  /usr/bin/python3 test/python/Inputs/memcheck_calls.py
echo "memcheck: no errors"
