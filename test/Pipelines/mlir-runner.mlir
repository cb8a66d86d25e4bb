// The pipeline's output is self-contained: upstream mlir-runner runs it with
// only its own runner libraries (weak stand-ins cover the runtime hooks).
// RUN: google-opt %s --google-extreme-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// RUN: google-opt %s --google-extreme-pipeline | FileCheck %s --check-prefix=IR

// CHECK: sizes = [2, 3]
// CHECK: {{\[\[}}0,   1.5,   3.5],
// CHECK-NEXT: [1,   4,   8.5]]

// IR-DAG: llvm.func weak @_mlir_memref_to_llvm_alloc(%{{.*}}: i64) -> !llvm.ptr attributes {google.runtime_fallback}
// IR-DAG: llvm.func weak @_mlir_memref_to_llvm_free(%{{.*}}: !llvm.ptr) attributes {google.runtime_fallback}

func.func @layer(%x: tensor<?x2xf32>, %w: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = google.matmul %x, %w : tensor<?x2xf32>, tensor<2x3xf32> -> tensor<?x3xf32>
  %1 = google.add %0, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  %2 = google.relu %1 : tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 0.5], [2.0, 2.0]]> : tensor<2x2xf32>
  %w = arith.constant dense<[[-1.0, 1.0, 2.0], [2.0, 1.0, 2.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[-1.0, 0.0, 0.5]> : tensor<3xf32>
  %xd = tensor.cast %x : tensor<2x2xf32> to tensor<?x2xf32>
  %r = call @layer(%xd, %w, %b) : (tensor<?x2xf32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %u = tensor.cast %r : tensor<?x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
