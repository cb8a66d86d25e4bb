#!/usr/bin/env bash
# Builds google-mlir with AddressSanitizer and UndefinedBehaviorSanitizer
# into build-asan/ (BUILD_DIR overrides; scripts/configure-sanitized.sh,
# the build scripts/fuzz.sh uses too) and runs the lit suite and a set of
# differential-tester seeds with it (each seed with the interpreter, the
# default opt-level and ROTATE more variants; ROTATE=0 runs all), and
# two fifths as many through the GPU mapping on the host. Every
# sanitizer report fails the run.
#   scripts/check-sanitizers.sh [DIFFTEST_SEEDS]   (default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-asan}
SEEDS=${1:-100}
scripts/configure-sanitized.sh "$BUILD_DIR"
cmake --build "$BUILD_DIR"

# Every report goes to a file as well as failing its process: a test that
# expects a failure (`not google-run ...`) cannot hide one, because the
# files are checked at the end.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
# allocator_may_return_null: a huge allocation fails as malloc does (tests
# check that google-run reports it).
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:allocator_may_return_null=1:log_path=$reports/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0

status=0
# The suite but its slowest GPU tests: the host-mapping runs of whole e2e
# files under each kernel family (CUDA-core contractions, tensor cores,
# wgmma, MFMA, TF32, attention) and the device-binary and object checks
# (every e2e file compiled for CUDA and ROCm; under ASan
# they took 750 of this lit run's 1260 test-seconds; the time goes to
# LLVM, ptxas and the emulated kernels, which are not instrumented). They run unsanitized in
# the test suite; here the compiler paths they take are covered by the
# mapping and codegen tests, mapping-on-host.test's files and a GPU
# mapping difftest.
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" \
  --filter-out 'mapping-on-host-(tensor-cores|tensor-cores-registers|tensor-cores-wide-warps|wgmma|mfma|attention|contractions|tf32|difftest)\.test|(device|wgmma|mfma)-binaries\.test|gpu-(cuda|rocm)-objects\.test' \
  || status=1
/usr/bin/python3 test/fuzz/difftest.py --seeds "$SEEDS" --rotate "${ROTATE:-1}" \
  --google-run "$BUILD_DIR/bin/google-run" || status=1
GOOGLE_OPT=$BUILD_DIR/bin/google-opt GOOGLE_RUN=$BUILD_DIR/bin/google-run \
  /usr/bin/python3 test/fuzz/difftest.py --seeds $((SEEDS * 2 / 5)) \
  --first 300 --rotate "${ROTATE:-1}" \
  --google-run test/Codegen/GPU/Inputs/run_gpu_mapping_on_host.py || status=1
# (A warning that a huge allocation failed is expected; errors are not.)
if compgen -G "$reports/*" > /dev/null &&
   grep -l -E "ERROR|runtime error|SUMMARY" "$reports"/* > /dev/null; then
  echo "sanitizer reports:"
  cat "$reports"/*
  exit 1
fi
[ "$status" = 0 ] || exit "$status"
echo "sanitizers: no reports"
