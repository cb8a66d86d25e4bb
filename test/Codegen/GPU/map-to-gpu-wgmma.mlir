// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true wgmma=true" | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true" | FileCheck %s --check-prefix=MMA-SYNC
// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true wgmma=true wgmma-warpgroups=2" | FileCheck %s --check-prefix=TWO
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="wgmma=true" 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: error: google-map-to-gpu: wgmma needs mma-sync
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true wgmma=true wgmma-warpgroups=3" 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: error: google-map-to-gpu: wgmma-warpgroups must be 1 or 2, got 3
// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true wgmma=true wgmma-specialized=true" | FileCheck %s --check-prefix=SPECIALIZED
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true wgmma-specialized=true" 2>&1 | FileCheck %s --check-prefix=SPECIALIZED-ALONE
// SPECIALIZED-ALONE: error: google-map-to-gpu: wgmma-specialized needs wgmma

// With wgmma, an f16 matmul without a batch in whole 128x128 tiles and K
// a multiple of 64 runs on the warpgroup tensor cores when A and B are
// aligned (else on shared tiles): the host makes tensor maps of A (boxes
// of 128 x 64) and B (64 x 64, half a slice), zero-filled, with the
// 128-byte swizzle; blocks of 128 threads take 1 KiB + 3 stages of 32 KiB
// of dynamic shared memory, aligned in the kernel to 1024 bytes; thread 0
// initializes 3 mbarriers (fenced for TMA) and loads the first slices (the
// two there are), A's at (K, row), B's halves at (column, K) and
// (column + 64, K), each stage expecting 32 KiB; every thread waits for its
// slice's phase, starts its wgmma (128x128 += 128x64 * 64x128) while the
// previous slice's completes (waitGroup 1) and meets the others at a
// barrier before thread 0 refills the previous slice's stage; after the
// last wgmma completes, the product goes to shared memory, and from
// there, with the fill's value added, to C.
// CHECK-LABEL: func.func @f16_matmul
// CHECK: scf.if
// CHECK: %[[A:.*]] = memref.cast %{{.*}} : memref<512x128xf16> to memref<*xf16>
// CHECK: %[[MAPA:.*]] = nvgpu.tma.create.descriptor %[[A]] box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK: %[[MAPB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size %c99328_i32
// CHECK: %[[DYNAMIC:.*]] = gpu.dynamic_shared_memory
// CHECK: memref.extract_aligned_pointer_as_index %[[DYNAMIC]]
// CHECK: %[[BARRIERS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-COUNT-3: nvgpu.mbarrier.init %[[BARRIERS]]
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: gpu.barrier
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BARRIERS]][%{{.*}}], %c32768
// CHECK: nvgpu.tma.async.load %[[MAPA]][%c0{{.*}}, %{{.*}}], %[[BARRIERS]]
// CHECK-COUNT-2: nvgpu.tma.async.load %[[MAPB]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-3: nvgpu.tma.async.load
// CHECK: nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARRIERS]]
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}}, %[[MAPA]]
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}}, %[[MAPB]]
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeB} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
// CHECK-NEXT: gpu.barrier
// CHECK: %[[STARTED:.*]] = arith.cmpi uge, %[[SLICE:.*]], %c1
// CHECK: %[[LEFT:.*]] = arith.cmpi ult, %{{.*}}, %c2
// CHECK: %[[REFILL:.*]] = arith.andi %[[STARTED]], %[[LEFT]]
// CHECK: scf.if %[[REFILL]]
// CHECK-COUNT-3: nvgpu.tma.async.load
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu
// CHECK: nvgpu.warpgroup.mma.store {{.*}} to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK: vector.load {{.*}} : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: memref.store
// CHECK: } else {
// CHECK: gpu.launch
// CHECK-NOT: nvgpu
// With two warpgroups, blocks of 256 threads own 256x128 tiles: four
// stages of 48 KiB (A's 256 rows as two boxes, each warpgroup's 16 KiB,
// then B's halves), each warpgroup's wgmma on its rows of A, the
// products one after the other (256x128 f32).
// TWO-LABEL: func.func @f16_matmul
// TWO: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size %c197632_i32
// TWO: %[[WARPGROUP:.*]] = arith.divui %{{.*}}, %c128
// TWO: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// TWO: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c49152
// TWO: nvgpu.tma.async.load %{{.*}}[%c0{{.*}}, %[[ROW:.*]]], {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// TWO: %[[SECOND:.*]] = arith.addi %[[ROW]], %c128
// TWO: nvgpu.tma.async.load %{{.*}}[%c0{{.*}}, %[[SECOND]]], {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// TWO-COUNT-2: nvgpu.tma.async.load {{.*}} -> memref<64x64xf16, #gpu.address_space<workgroup>>
// TWO: scf.for
// TWO: %[[OWN:.*]] = arith.muli %[[WARPGROUP]], %c16384
// TWO: arith.addi %{{.*}}, %[[OWN]]
// TWO: nvgpu.warpgroup.mma
// TWO: nvvm.wgmma.wait.group.sync.aligned 0
// TWO: %[[PRODUCT:.*]] = arith.muli %[[WARPGROUP]], %c65536
// TWO: %[[START:.*]] = arith.addi %{{.*}}, %[[PRODUCT]]
// TWO: %[[MINE:.*]] = memref.view %{{.*}}[%[[START]]][] : {{.*}} to memref<128x128xf32, #gpu.address_space<workgroup>>
// TWO: nvgpu.warpgroup.mma.store %{{.*}}, %[[MINE]]
// TWO: gpu.barrier
// TWO: memref.view {{.*}} to memref<256x128xf32, #gpu.address_space<workgroup>>
// Warp-specialized, a producer warpgroup comes first (256 threads): the
// MMA warpgroup's threads are the others (thread - 128). Besides the
// stages' mbarriers, `released` ones expect an arrival from each of its 4
// warps. In each iteration thread 0 waits for the slice's stage to be
// released (the phase before the slice's: a new mbarrier's phase -1 counts
// as completed) and loads the slice; the MMA warpgroup waits for it,
// multiplies, and each of its warps' lane 0 releases the previous slice's
// stage, whose wgmma completed (waitGroup 1). No block barrier in the loop.
// SPECIALIZED-LABEL: func.func @f16_matmul
// SPECIALIZED: gpu.launch {{.*}} threads(%[[THREAD:[^,]*]], {{.*}} in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size %c99328_i32
// SPECIALIZED: %[[FIRST:.*]] = arith.cmpi eq, %[[THREAD]], %c0
// SPECIALIZED: %[[MMA_THREAD:.*]] = arith.addi %[[THREAD]], %c-128
// SPECIALIZED: %[[IS_MMA:.*]] = arith.cmpi sge, %[[MMA_THREAD]], %c0
// SPECIALIZED: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// SPECIALIZED: %[[RELEASED:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// SPECIALIZED-COUNT-3: nvgpu.mbarrier.init %[[RELEASED]][%{{.*}}], %c4{{.*}}, predicate = %[[FIRST]]
// SPECIALIZED: nvvm.fence.mbarrier.init
// SPECIALIZED-NOT: nvgpu.tma.async.load
// SPECIALIZED: scf.for %[[SLICE:.*]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// SPECIALIZED: %[[STAGE:.*]] = arith.remui %[[SLICE]], %c3
// SPECIALIZED: scf.if %[[FIRST]] {
// SPECIALIZED: %[[ROUND:.*]] = arith.divui %[[SLICE]], %c3
// SPECIALIZED: arith.addi %[[ROUND]], %c1
// SPECIALIZED: nvgpu.mbarrier.try_wait.parity %[[RELEASED]][%[[STAGE]]]
// SPECIALIZED: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[STAGE]]], %c32768
// SPECIALIZED-COUNT-3: nvgpu.tma.async.load
// SPECIALIZED: scf.if %[[IS_MMA]] -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
// SPECIALIZED: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[STAGE]]]
// SPECIALIZED: nvgpu.warpgroup.mma {{.*}}, %[[ACC]] {transposeB}
// SPECIALIZED: %[[LANE:.*]] = arith.remui %[[THREAD]], %c32
// SPECIALIZED: arith.cmpi eq, %[[LANE]], %c0
// SPECIALIZED: %[[PREVIOUS:.*]] = arith.addi %[[SLICE]], %c-1
// SPECIALIZED: %[[PREVIOUS_STAGE:.*]] = arith.remui %[[PREVIOUS]], %c3
// SPECIALIZED: nvgpu.mbarrier.arrive %[[RELEASED]][%[[PREVIOUS_STAGE]]]
// SPECIALIZED: } else {
// SPECIALIZED-NEXT: scf.yield %[[ACC]]
// SPECIALIZED-NOT: gpu.barrier
// SPECIALIZED: nvvm.wgmma.wait.group.sync.aligned 0
// SPECIALIZED-NEXT: gpu.barrier
// SPECIALIZED-NEXT: scf.if %[[IS_MMA]] {
// SPECIALIZED: nvgpu.warpgroup.mma.store
// SPECIALIZED: gpu.barrier
// SPECIALIZED-NEXT: scf.if %[[IS_MMA]] {
// SPECIALIZED: memref.view {{.*}} to memref<128x128xf32, #gpu.address_space<workgroup>>
// SPECIALIZED: arith.divui %[[MMA_THREAD]], %c32
// MMA-SYNC-LABEL: func.func @f16_matmul
// MMA-SYNC-NOT: nvgpu.warpgroup
// MMA-SYNC: nvgpu.mma.sync
func.func @f16_matmul(%a: memref<512x128xf16>, %b: memref<128x256xf16>, %c: memref<512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<512x256xf32>)
  linalg.matmul ins(%a, %b : memref<512x128xf16>, memref<128x256xf16>) outs(%c : memref<512x256xf32>)
  return
}

// -----

// A batch's matrices lie one after the other: the tensor maps see A as
// one (2 * 256) x 128 matrix and B as (2 * 128) x 256; a block of batch b
// loads A's rows from 256 b + its first row, B's from 128 b + the slice's K.
// CHECK-LABEL: func.func @batch
// CHECK: %[[A:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<2x256x128xf16> into memref<512x128xf16>
// CHECK: %[[CASTA:.*]] = memref.cast %[[A]] : memref<512x128xf16> to memref<*xf16>
// CHECK: %[[MAPA:.*]] = nvgpu.tma.create.descriptor %[[CASTA]]
// CHECK: %[[B:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<2x128x256xf16> into memref<256x256xf16>
// CHECK: %[[CASTB:.*]] = memref.cast %[[B]] : memref<256x256xf16> to memref<*xf16>
// CHECK: %[[MAPB:.*]] = nvgpu.tma.create.descriptor %[[CASTB]]
// CHECK: gpu.launch
// CHECK: %[[REST:.*]] = arith.divsi %{{.*}}, %[[TILESN:.*]] : index
// CHECK: %[[BATCH:.*]] = arith.divsi %[[REST]], %{{.*}} : index
// CHECK: %[[FIRSTROW:.*]] = arith.muli %{{.*}}, %c128
// CHECK: %[[BATCHROWS:.*]] = arith.muli %[[BATCH]], %c256
// CHECK: %[[LHSROW:.*]] = arith.addi %[[BATCHROWS]], %[[FIRSTROW]]
// CHECK: %[[RHSROW:.*]] = arith.muli %[[BATCH]], %c128
// CHECK: nvgpu.tma.async.load %[[MAPA]][%c0{{.*}}, %[[LHSROW]]]
// CHECK: %[[K:.*]] = arith.addi %[[RHSROW]], %c0
// CHECK: nvgpu.tma.async.load %[[MAPB]][%{{.*}}, %[[K]]]
// CHECK: nvgpu.warpgroup.mma
func.func @batch(%a: memref<2x256x128xf16>, %b: memref<2x128x256xf16>, %c: memref<2x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x256x256xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x256x128xf16>, memref<2x128x256xf16>) outs(%c : memref<2x256x256xf32>)
  return
}

// TWO-LABEL: func.func @batch
// TWO: nvgpu.warpgroup.mma

// -----

// K not a multiple of 64 takes a last partial slice: TMA fills its columns
// of A past K with zeros.
// CHECK-LABEL: func.func @ragged_k
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step
// CHECK: nvgpu.warpgroup.mma
func.func @ragged_k(%a: memref<512x96xf16>, %b: memref<96x256xf16>, %c: memref<512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<512x256xf32>)
  linalg.matmul ins(%a, %b : memref<512x96xf16>, memref<96x256xf16>) outs(%c : memref<512x256xf32>)
  return
}

// -----

// K shorter than a slice stays on mma.sync, as does a batch whose K is not
// a multiple of 64 (its last slice of B would read the next matrix's rows,
// which an Inf there would turn into NaN against A's zeros).
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: nvgpu.warpgroup
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: func.func @batch_ragged_k
// CHECK-NOT: nvgpu.warpgroup
// CHECK: nvgpu.mma.sync
func.func @short_k(%a: memref<512x32xf16>, %b: memref<32x256xf16>, %c: memref<512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<512x256xf32>)
  linalg.matmul ins(%a, %b : memref<512x32xf16>, memref<32x256xf16>) outs(%c : memref<512x256xf32>)
  return
}

func.func @batch_ragged_k(%a: memref<2x256x96xf16>, %b: memref<2x96x256xf16>, %c: memref<2x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x256x256xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x256x96xf16>, memref<2x96x256xf16>) outs(%c : memref<2x256x256xf32>)
  return
}

// -----

// B^T (N x K, an (n, k) map): TMA loads B's slice as one box of 128 rows
// of 64 halves at (K, column), as A's; the wgmma reads it K-major (no
// transposeB: --google-lower-k-major-wgmma lowers it). A batch: B's
// rows (batch * N + column); its K need not be a multiple of 64.
// CHECK-LABEL: func.func @rhs_k_major
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}]
// CHECK: %[[MAPB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.launch
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c32768
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load %[[MAPB]][%c0{{.*}}, %{{.*}}], {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.warpgroup.mma {{.*}} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
// CHECK-NOT: transposeB
// CHECK-LABEL: func.func @rhs_k_major_batch
// CHECK: nvgpu.warpgroup.mma
// CHECK-NOT: transposeB
// MMA-SYNC-LABEL: func.func @rhs_k_major
// MMA-SYNC: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// MMA-SYNC-NOT: transpose = true
// MMA-SYNC-LABEL: func.func @rhs_k_major_batch
func.func @rhs_k_major(%a: memref<512x128xf16>, %b: memref<256x128xf16>, %c: memref<512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<512x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<512x128xf16>, memref<256x128xf16>) outs(%c : memref<512x256xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @rhs_k_major_batch(%a: memref<2x256x96xf16>, %b: memref<2x256x96xf16>, %c: memref<2x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x256x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x256x96xf16>, memref<2x256x96xf16>) outs(%c : memref<2x256x256xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
