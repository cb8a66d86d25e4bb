// The pass's options are checked before any op is touched.
// RUN: google-opt %s --google-map-to-gpu="tile-size=0" -verify-diagnostics
// RUN: google-opt %s --google-map-to-gpu="tile-size=9" -verify-diagnostics
// RUN: google-opt %s --google-map-to-gpu="block-size=0" -verify-diagnostics
// RUN: google-opt %s --google-map-to-gpu="block-size=2048" -verify-diagnostics
// RUN: google-opt %s --google-map-to-gpu="tile-size=8 block-size=1024" | FileCheck %s

// CHECK: gpu.launch
// expected-error@+1 {{google-map-to-gpu: expected block-size in [1, 1024] and tile-size in [1, 8], got block-size=}}
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
