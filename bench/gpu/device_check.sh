#!/bin/bash
# Runs on the GPU machine (repository root, bundle in .gpubundle): benches
# against torch, every bundled case, then compute-sanitizer on a subset.
# Each step has its own time limit so that one slow step cannot eat the rest.
B=${BUNDLE:-.gpubundle}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout ${BENCH_S:-90} python3 bench/gpu/device_run.py $B --no-cases --calls 20 2>&1 | tee $OUT/bench.txt
timeout ${CASES_S:-150} python3 bench/gpu/device_run.py $B --no-bench ${ONLY:+--only "$ONLY"} 2>&1 | tail -40 | tee $OUT/cases.txt
timeout ${CASES_S:-150} python3 bench/gpu/device_run.py $B --no-bench --misalign --only "${MISALIGN:-matmul}" 2>&1 | tail -12 | tee $OUT/misaligned.txt
SAN=${SANITIZE:-control-flow|scatter|short-rows|transpose-tiles|convolution|reductions-o3|normalization}
for tool in racecheck memcheck; do
  timeout ${SAN_S:-60} compute-sanitizer --tool $tool --print-limit 5 python3 bench/gpu/device_run.py $B --no-bench --only "$SAN" 2>&1 | tail -8 | tee $OUT/$tool.txt
done
