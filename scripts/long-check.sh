#!/usr/bin/env bash
# The long checks CI leaves out (run before closing an issue, and report
# the figures): thousands of differential-tester seeds with every variant,
# on the CPU and through the GPU mapping on the host, the sanitizer build
# on more seeds, and long fuzzing.
#   scripts/long-check.sh [SEEDS] [FUZZ_SECONDS]   (default 5000, 600)
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-5000}
FUZZ_SECONDS=${2:-600}
start=$SECONDS
/usr/bin/python3 test/fuzz/difftest.py --seeds "$SEEDS" --first 300 \
  --google-run build/bin/google-run
GOOGLE_OPT=build/bin/google-opt GOOGLE_RUN=build/bin/google-run \
  /usr/bin/python3 test/fuzz/difftest.py --seeds $((SEEDS / 5)) --first 400 \
  --google-run test/Codegen/GPU/Inputs/run_gpu_mapping_on_host.py
ROTATE=0 scripts/check-sanitizers.sh $((SEEDS / 10))
scripts/fuzz.sh "$FUZZ_SECONDS"
echo "long-check: done in $((SECONDS - start)) s"
