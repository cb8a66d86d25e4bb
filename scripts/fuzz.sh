#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-asan/ (BUILD_DIR overrides; the
# build scripts/check-sanitizers.sh uses, scripts/configure-sanitized.sh), seeds
# each corpus from test/ and runs every target. Any crash, leak, sanitizer
# report or timeout fails the run; the reproducer is left in
# $BUILD_DIR/fuzz-artifacts/.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]        (default 60)
#   RUNS=1000000 scripts/fuzz.sh                (a number of executions)
#   TARGETS="google-parse-fuzzer" scripts/fuzz.sh
# Needs clang-22 and libclang-rt-22-dev (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BUILD_DIR=${BUILD_DIR:-build-asan}
SECONDS_PER_TARGET=${1:-60}
TARGETS=${TARGETS:-"google-parse-fuzzer google-passes-fuzzer google-inputs-fuzzer google-runtime-object-fuzzer"}
scripts/configure-sanitized.sh "$BUILD_DIR"
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" --target $TARGETS

# Seed corpora from the tests (the working corpora grow in place).
corpus=$BUILD_DIR/fuzz-corpus
artifacts=$BUILD_DIR/fuzz-artifacts
mkdir -p "$artifacts"
seed() { mkdir -p "$corpus/$1"; }
seed google-parse-fuzzer
seed google-passes-fuzzer
find test examples -name '*.mlir' -size -64k | while read -r file; do
  name=$(echo "$file" | tr '/' '_')
  cp "$file" "$corpus/google-parse-fuzzer/$name"
  cp "$file" "$corpus/google-passes-fuzzer/$name"
done
seed google-inputs-fuzzer
/usr/bin/python3 test/google-run/Inputs/make_npy.py "$corpus/google-inputs-fuzzer" >/dev/null
n=0
for spec in "2x3xf32=1 2 3 4 5 6" "f32=0.5" "2x2xf32=[1 2][3 4]" "3xi32=1,-2,3" \
            "2xi64=9007199254740993 -9223372036854775808" "2xf16=65504 0.1" \
            "2xbf16=1.5 -inf" "0x3xf64" "4xi1=true false 1 0" "2xi8=-128 127" \
            "2xf32=nan 1e-45"; do
  printf '%s' "$spec" > "$corpus/google-inputs-fuzzer/spec$n"; n=$((n + 1))
done
seed google-runtime-object-fuzzer
printf 'google-mlir-manifest 1\nfunc main out 2 tensor<?x4xf32> tensor<4xf32> 1 tensor<?x4xf32>\nfunc a%%20b ret 0 1 tensor<i64>\n' \
  > "$corpus/google-runtime-object-fuzzer/manifest"
if [ -x build/bin/google-run ]; then
  build/bin/google-run test/google-run/Inputs/two_functions.mlir \
    --emit-object="$corpus/google-runtime-object-fuzzer/two_functions.so"
fi

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0
status=0
for target in $TARGETS; do
  limit=(-max_total_time="$SECONDS_PER_TARGET")
  [ -n "${RUNS:-}" ] && limit=(-runs="$RUNS")
  echo "== $target (${RUNS:+$RUNS runs}${RUNS:-$SECONDS_PER_TARGET s})"
  # A fixed seed (FUZZ_SEED overrides) keeps CI's short runs repeatable.
  if ! "$BUILD_DIR/bin/$target" "${limit[@]}" -seed="${FUZZ_SEED:-1}" \
      -timeout=20 -rss_limit_mb=4096 \
      -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
      "$corpus/$target" 2> "$BUILD_DIR/$target.log"; then
    status=1
    echo "FAILED: $target (log: $BUILD_DIR/$target.log)"
    grep -E "ERROR|SUMMARY|Test unit written" "$BUILD_DIR/$target.log" | head -5
    # The stack and the reproducer, so a failure on a CI machine can be
    # reproduced from its log alone.
    grep -E "^ +#[0-9]+ " "$BUILD_DIR/$target.log" | head -25
    unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' \
      "$BUILD_DIR/$target.log" | tail -1)
    if [ -n "$unit" ] && [ -f "$unit" ]; then
      echo "reproducer $unit (base64, $(wc -c < "$unit") bytes):"
      head -c 6000 "$unit" | base64 -w 100
    fi
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" \
    "$BUILD_DIR/$target.log" | sed 's/^/  /' || true
done
exit $status
