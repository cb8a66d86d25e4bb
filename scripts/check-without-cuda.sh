#!/usr/bin/env bash
# Runs the GPU tests (the NVVM pipeline, device binaries, the runtime's
# CUDA path with the stand-in driver, Python's GPU target) with the CUDA
# toolkit hidden: CUDA_HOME names an empty directory, as on a user's
# machine with an NVIDIA driver and no toolkit. Tests that need ptxas say
# `REQUIRES: cuda-toolkit` and are reported unsupported.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
unset CUDA_ROOT CUDA_PATH
# (The compile cache keys NVVM objects by the toolkit they were built with.)
# (The kernel mapping run on the host, mapping-on-host.test, stops before
# device code: the toolkit does not matter to it.)
tests=$(ls -d test/Codegen/GPU/*.mlir test/Codegen/GPU/*.test test/google-run/gpu-*.test \
  test/google-run/errors/gpu-*.test test/runtime \
  test/Pipelines/extreme-gpu.mlir test/python/test_gpu.py test/python/test_examples.py |
  grep -v mapping-on-host)
# shellcheck disable=SC2086
CUDA_HOME=$empty /usr/lib/llvm-22/bin/lit -sv \
  $(printf "$BUILD_DIR/%s " $tests)
