#!/bin/bash
# Runs on the GPU machine (repository root, bundle in .gpubundle): benches
# against torch, every bundled case, then compute-sanitizer on a subset and,
# with NCU=REGEX, Nsight Compute on the benches whose id matches.
# Each step has its own time limit so that one slow step cannot eat the rest.
# The misaligned run leaves out the TF32 file: its fallback kernel computes
# in f32, not against the references' TF32-rounded inputs.
B=${BUNDLE:-.gpubundle}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
# The wgmma kernels (not yet run on a GPU; a wrong mbarrier phase hangs)
# run on their own, after the rest, each step with its own time limit.
# PART=1 runs the benches and cases (plain, wgmma, warp-specialized),
# PART=2 the misaligned and isolated cases and the sanitizers: the whole
# can take longer than one device call allows.
PART=${PART:-all}
# Cases (not benches: it adds a fill per allocation) run with their
# buffers poisoned: a kernel reading what nothing wrote gives NaNs.
P="env GOOGLE_MLIR_POISON_BUFFERS=${POISON:-1}"
if [ "$PART" != 2 ]; then
# The warp-specialized ones (WS) after the others: a hang in them leaves
# the plain wgmma kernels' results standing.
# The mma.sync tunings (warps4, blocks2; warps8 is the default, timed
# beside them) and scatter_add's segments run with them.
NEW=${NEW:-wgmma|warps[48]|blocks2|scatter}
WS=${WS:-wgmma-specialized|wgmma2?-ws}
timeout ${BENCH_S:-90} python3 bench/gpu/device_run.py $B --no-cases --calls 20 --skip "$NEW" 2>&1 | tee $OUT/bench.txt
timeout ${CASES_S:-150} $P python3 bench/gpu/device_run.py $B --no-bench --skip "$NEW" ${ONLY:+--only "$ONLY"} 2>&1 | tail -40 | tee $OUT/cases.txt
timeout ${NEW_CASES_S:-90} $P python3 bench/gpu/device_run.py $B --no-bench --only "$NEW" --skip "$WS" 2>&1 | tail -20 | tee $OUT/new-cases.txt
timeout ${NEW_S:-60} python3 bench/gpu/device_run.py $B --no-cases --calls 20 --only "$NEW" --skip "$WS" 2>&1 | tee $OUT/new-bench.txt
timeout ${NEW_S:-60} $P python3 bench/gpu/device_run.py $B --no-bench --only "$WS" 2>&1 | tail -20 | tee $OUT/ws-cases.txt
timeout ${NEW_S:-60} python3 bench/gpu/device_run.py $B --no-cases --calls 20 --only "$WS" 2>&1 | tee $OUT/ws-bench.txt
fi
if [ "$PART" != 1 ]; then
timeout ${CASES_S:-150} $P python3 bench/gpu/device_run.py $B --no-bench --misalign --only "${MISALIGN:-matmul-(tensor|tiles|blocks|vector|transposed|wgmma)|matmul-o|split-k}" 2>&1 | tail -12 | tee $OUT/misaligned.txt
# Cases whose failure loses the CUDA context (a failed check in a kernel),
# one process each.
for id in $(python3 -c "import json,sys; print(' '.join(r['id'] for r in json.load(open(sys.argv[1] + '/manifest.json')) if r.get('isolated')))" $B); do
  timeout 60 $P python3 bench/gpu/device_run.py $B --no-bench --isolated --only "^$id\$" 2>&1 | tail -3
done | tee $OUT/isolated.txt
SAN=${SANITIZE:-control-flow|merged-launches|scatter|short-rows|transpose-tiles|transposed-operands|split-k|convolution|reductions-o3|normalization|wgmma}
for tool in racecheck memcheck; do
  timeout ${SAN_S:-60} compute-sanitizer --tool $tool --print-limit 5 python3 bench/gpu/device_run.py $B --no-bench --only "$SAN" 2>&1 | tail -8 | tee $OUT/$tool.txt
done
fi
# NCU="ID-REGEX:LAUNCHES ...": Nsight Compute on the first LAUNCHES kernels
# of our own (not torch's) in the benches whose id matches, one process each.
if [ -n "$NCU" ] && command -v ncu >/dev/null; then
  for spec in $NCU; do
    timeout ${NCU_S:-60} ncu --kernel-name regex:'^[a-z0-9]+_kernel' --launch-count ${spec##*:} \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
      python3 bench/gpu/device_run.py $B --no-cases --calls 1 --only "${spec%:*}" > "$OUT/ncu-$(echo ${spec%:*} | tr -c a-z0-9 _).txt" 2>&1
  done
fi
