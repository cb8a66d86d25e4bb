// The CPU pipeline's matmul, end to end in the LLVM dialect: the outer
// blocks run in an OpenMP parallel region (its thread count from the
// runtime) or, with too little work or one thread, in a loop on the
// calling thread, both calling the block's code, and the K loop is vector FMAs on the register block's rows
// (8x32 with AVX-512: 8 fmuladds of 32 lanes per k; 6x16 with AVX2). The
// chips are named: the test does not depend on the host.
// RUN: google-opt %s --google-extreme-pipeline=chip=skylake-avx512 | FileCheck %s
// RUN: google-opt %s --google-extreme-pipeline=chip=haswell | FileCheck %s --check-prefix=AVX2
// The stage where the FMAs appear: register blocks after tile-and-vectorize.
// RUN: google-opt %s --google-extreme-pipeline=chip=skylake-avx512 --mlir-print-ir-after=google-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGE

// CHECK-LABEL: llvm.func internal @mbr_parallel_body
// CHECK-COUNT-8: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// CHECK-NOT:     llvm.intr.fmuladd({{.*}}) : (f32, f32, f32)
// CHECK-LABEL: llvm.func @mbr(
// CHECK:       %[[THREADS:.*]] = llvm.call @google_rt_num_threads() : () -> i32
// CHECK:       omp.parallel num_threads(%[[THREADS]] : i32)
// CHECK:         omp.wsloop
// CHECK:           omp.loop_nest
// CHECK:             llvm.call @mbr_parallel_body(
// CHECK:       llvm.call @mbr_parallel_body(

// AVX2-LABEL: llvm.func internal @mbr_parallel_body
// AVX2:         llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// AVX2-LABEL: llvm.func @mbr(
// AVX2:       omp.parallel

// STAGE-LABEL: IR Dump After TileAndVectorizePass
// STAGE:       scf.for {{.*}} iter_args({{.*}}) -> (tensor<128x256xf32>) {
// STAGE:         scf.for {{.*}} -> (vector<8x32xf32>)
// STAGE:           vector.contract {{.*}} into vector<8x32xf32>
// STAGE:       } {google.parallel}

func.func @mbr(%a: tensor<128x512xf32>, %b: tensor<512x256xf32>, %bias: tensor<256xf32>) -> tensor<128x256xf32> {
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<128x512xf32>, tensor<512x256xf32>, tensor<256xf32> -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}
