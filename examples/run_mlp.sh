#!/usr/bin/env bash
# The main job: optimize the example MLP, lower it to native code with
# --google-extreme-pipeline, run it and compare the result with NumPy.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OPT="$BUILD_DIR/bin/google-opt"
LLVM_BIN=/usr/lib/llvm-22/bin
LLVM_LIB=/usr/lib/llvm-22/lib
E2E="/usr/bin/python3 test/e2e/e2e.py"

echo "== google dialect after the optimization passes =="
"$OPT" examples/mlp.mlir --google-fold-constants --google-cse --google-dce \
  --google-fuse-matmul-bias-relu

echo "== compiled with --google-extreme-pipeline and run =="
output=$($E2E emit examples/mlp.mlir \
  | "$OPT" --google-extreme-pipeline \
  | "$LLVM_BIN/mlir-runner" -e main -entry-point-result=void \
      -shared-libs="$BUILD_DIR/lib/libgoogle_runtime.so,$LLVM_LIB/libmlir_runner_utils.so,$LLVM_LIB/libmlir_c_runner_utils.so")
echo "$output"
echo "$output" | $E2E check examples/mlp.mlir
