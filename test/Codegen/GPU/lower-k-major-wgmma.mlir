// RUN: google-opt %s --pass-pipeline="builtin.module(gpu.module(google-lower-k-major-wgmma))" -split-input-file -verify-diagnostics | FileCheck %s

// The TF32 kernel's wgmma (google.tf32: K-major f32 tiles described as
// 16-bit ones of twice the depth) becomes, between one fence and one
// commit and wait, a wgmma.mma_async m64n128k8 of TF32 per 64-row chunk
// of A and 8-deep step of K: A's descriptor advanced by 32 bytes a step
// and 8 KiB (64 rows of 128 bytes) a chunk, B's (K-major) by 32 bytes a
// step, in 16-byte units. The accumulator crosses over as
// --convert-nvgpu-to-nvvm converts it (a struct per chunk).
// CHECK-LABEL: func.func @tf32
// CHECK-SAME: (%[[A:.*]]: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %[[B:.*]]: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %[[C:.*]]: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>)
// CHECK-DAG: %[[ACC:.*]] = builtin.unrealized_conversion_cast %[[C]] : {{.*}} to !llvm.struct<(struct<(f32, {{.*}})>, struct<(f32, {{.*}})>)>
// CHECK-DAG: %[[DA:.*]] = builtin.unrealized_conversion_cast %[[A]] : {{.*}} to i64
// CHECK-DAG: %[[DB:.*]] = builtin.unrealized_conversion_cast %[[B]] : {{.*}} to i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[C0:.*]] = llvm.extractvalue %[[ACC]][0]
// CHECK: %[[P0:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[C0]], <m = 64, n = 128, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64)
// CHECK: %[[A1:.*]] = llvm.add %[[DA]], %[[TWO]]
// CHECK: %[[TWO_B:.*]] = llvm.mlir.constant(2 : i64)
// CHECK: %[[B1:.*]] = llvm.add %[[DB]], %[[TWO_B]]
// CHECK: %[[P1:.*]] = nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[P0]]
// CHECK: llvm.mlir.constant(4 : i64)
// CHECK: llvm.mlir.constant(4 : i64)
// CHECK: nvvm.wgmma.mma_async
// CHECK: llvm.mlir.constant(6 : i64)
// CHECK: llvm.mlir.constant(6 : i64)
// CHECK: %[[P3:.*]] = nvvm.wgmma.mma_async
// CHECK: llvm.insertvalue %[[P3]], %{{.*}}[0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %[[ACC]][1]
// CHECK: %[[CHUNK:.*]] = llvm.mlir.constant(512 : i64)
// CHECK: %[[A4:.*]] = llvm.add %[[DA]], %[[CHUNK]]
// CHECK: nvvm.wgmma.mma_async %[[A4]], %[[DB]], %[[C1]]
// CHECK: llvm.mlir.constant(514 : i64)
// CHECK: llvm.mlir.constant(2 : i64)
// CHECK: llvm.mlir.constant(516 : i64)
// CHECK: llvm.mlir.constant(4 : i64)
// CHECK: llvm.mlir.constant(518 : i64)
// CHECK: llvm.mlir.constant(6 : i64)
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
// CHECK-NOT: nvgpu.warpgroup.mma
// A 16-bit wgmma of MN-major B (transposeB) is left to
// --convert-nvgpu-to-nvvm.
// CHECK-LABEL: func.func @f16
// CHECK: nvgpu.warpgroup.mma
// Of K-major B (no transposeB: B^T's rows of 64 halves, as A's), a
// wgmma.mma_async m64n128k16 per chunk and 16-deep step, the descriptors
// stepped as TF32's: 32 bytes a step (2), 8 KiB a chunk of A (512).
// CHECK-LABEL: func.func @k_major
// CHECK-SAME: (%[[A:[^:]*]]: {{.*}}, %[[B:[^:]*]]: {{.*}}, %[[C:[^:]*]]:
// CHECK-DAG: %[[DA:.*]] = builtin.unrealized_conversion_cast %[[A]] : {{.*}} to i64
// CHECK-DAG: %[[DB:.*]] = builtin.unrealized_conversion_cast %[[B]] : {{.*}} to i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[P0:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64)
// CHECK: %[[A1:.*]] = llvm.add %[[DA]], %[[TWO]]
// CHECK: %[[TWO_B:.*]] = llvm.mlir.constant(2 : i64)
// CHECK: %[[B1:.*]] = llvm.add %[[DB]], %[[TWO_B]]
// CHECK: nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[P0]]
// CHECK: llvm.mlir.constant(6 : i64)
// CHECK: llvm.mlir.constant(6 : i64)
// CHECK: %[[CHUNK:.*]] = llvm.mlir.constant(512 : i64)
// CHECK: %[[A4:.*]] = llvm.add %[[DA]], %[[CHUNK]]
// CHECK: nvvm.wgmma.mma_async %[[A4]], %[[DB]]
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: nvgpu.warpgroup.mma
// CHECK-LABEL: func.func @k_major_bf16
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-7: nvvm.wgmma.mma_async {{.*}}A[<bf16>
// CHECK-NOT: nvgpu.warpgroup.mma
gpu.module @kernels {
  func.func @tf32(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> {
    %d = nvgpu.warpgroup.mma %a, %b, %c {google.tf32, waitGroup = 1 : i64} : <tensor = memref<128x64xf16, 3>>, <tensor = memref<64x128xf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    return %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
  }
  func.func @f16(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> {
    %d = nvgpu.warpgroup.mma %a, %b, %c {transposeB, waitGroup = 1 : i64} : <tensor = memref<128x64xf16, 3>>, <tensor = memref<64x128xf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    return %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
  }
  func.func @k_major(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> {
    %d = nvgpu.warpgroup.mma %a, %b, %c {waitGroup = 1 : i64} : <tensor = memref<128x64xf16, 3>>, <tensor = memref<64x128xf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    return %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
  }
  func.func @k_major_bf16(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xbf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xbf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> {
    %d = nvgpu.warpgroup.mma %a, %b, %c {waitGroup = 1 : i64} : <tensor = memref<128x64xbf16, 3>>, <tensor = memref<64x128xbf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    return %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
  }
}

// -----

// A marked wgmma of MN-major B is not the TF32 kernel's: an error.
gpu.module @kernels {
  func.func @transposed(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> {
    // expected-error @below {{google-lower-k-major-wgmma: expected K-major f16 or bf16 tiles (or, marked google.tf32, 16-bit tiles holding f32 pairs) and an f32 accumulator of 64-row chunks}}
    %d = nvgpu.warpgroup.mma %a, %b, %c {google.tf32, transposeB, waitGroup = 1 : i64} : <tensor = memref<128x64xf16, 3>>, <tensor = memref<64x128xf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    return %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
  }
}

// -----

// Unmarked, a wgmma of tiles that TMA loads as f32 would be lowered as a
// 16-bit one (wrong values): an error.
!map = !nvgpu.tensormap.descriptor<tensor = memref<128x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
gpu.module @kernels {
  func.func @unmarked(%a: memref<128x64xf16, 3>, %b: memref<64x128xf16, 3>, %map: !map, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> {
    %da = nvgpu.warpgroup.generate.descriptor %a, %map : memref<128x64xf16, 3>, !map -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
    %db = nvgpu.warpgroup.generate.descriptor %b, %map : memref<64x128xf16, 3>, !map -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
    // expected-error @below {{google-lower-k-major-wgmma: a wgmma reading f32 tiles (loaded through f32 TMA maps) without google.tf32}}
    %d = nvgpu.warpgroup.mma %da, %db, %c {waitGroup = 1 : i64} : <tensor = memref<128x64xf16, 3>>, <tensor = memref<64x128xf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
    return %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
  }
}
