#!/usr/bin/env bash
# Configures the one instrumented build that scripts/check-sanitizers.sh and
# scripts/fuzz.sh share: AddressSanitizer and UndefinedBehaviorSanitizer
# everywhere, libFuzzer's coverage (the fuzz targets in fuzz/), -O0 with
# line tables (half the compile time of -O1 on 2 cores; the heavy lifting
# runs in libMLIR.so, which is not instrumented). NDEBUG as in LLVM's own
# build: its headers change layout without it.
#   scripts/configure-sanitized.sh BUILD_DIR
# Needs clang-22 and libclang-rt-22-dev (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:?usage: configure-sanitized.sh BUILD_DIR}
if [ -f "$BUILD_DIR/build.ninja" ]; then
  exit 0
fi
flags="-O0 -gline-tables-only -DNDEBUG"
cmake -G Ninja -S . -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  -DGOOGLE_SANITIZE=address,undefined -DGOOGLE_FUZZ=ON
