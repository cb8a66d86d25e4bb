#!/usr/bin/env bash
# The long checks CI leaves out (run before closing an issue, and report
# the figures): thousands of differential-tester seeds with every variant,
# on the CPU and through the GPU mapping on the host, compiled to GPU
# objects (CUDA where a toolkit's libdevice is, ROCm), the sanitizer build
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
# Every variant compiled for the GPU targets (objects, not run), programs
# and gradients, and the opt-in kernels' options on matmul programs.
/usr/bin/python3 test/fuzz/difftest.py --emit-only --target=rocm \
  --seeds $((SEEDS / 5)) --first 10000 --google-run build/bin/google-run
/usr/bin/python3 test/fuzz/difftest.py --emit-only --grad --target=rocm \
  --seeds $((SEEDS / 10)) --first 20000 --google-run build/bin/google-run
libdevice=${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice
if [ -d "$libdevice" ]; then
  toolkit=$(mktemp -d)
  mkdir -p "$toolkit/nvvm" && ln -s "$libdevice" "$toolkit/nvvm/libdevice"
  /usr/bin/python3 test/fuzz/difftest.py --emit-only --target=cuda \
    --pipeline-options "toolkit=$toolkit" --seeds $((SEEDS / 5)) \
    --first 30000 --google-run build/bin/google-run
  for options in "chip=sm_90a wgmma=true wgmma-specialized=true wgmma-warpgroups=2" \
      "chip=sm_90a wgmma=true tf32=true" "tf32=true mma-sync-warps=4" \
      "mma-sync-blocks-per-sm=2 warp-dots=true"; do
    /usr/bin/python3 test/fuzz/difftest.py --emit-only --target=cuda \
      --only matmul,fused --pipeline-options "toolkit=$toolkit $options" \
      --seeds $((SEEDS / 25)) --first 40000 --google-run build/bin/google-run
  done
fi
/usr/bin/python3 test/fuzz/difftest.py --emit-only --target=rocm \
  --only matmul,fused --pipeline-options "mfma=true" --seeds $((SEEDS / 25)) \
  --first 50000 --google-run build/bin/google-run
ROTATE=0 scripts/check-sanitizers.sh $((SEEDS / 10))
scripts/fuzz.sh "$FUZZ_SECONDS"
echo "long-check: done in $((SECONDS - start)) s"
