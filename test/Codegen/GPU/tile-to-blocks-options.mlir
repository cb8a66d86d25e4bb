// The pass's options are checked before any op is touched; tile-size is
// --google-map-to-gpu's, whose shared-memory tiles are 16 x tile-size.
// RUN: google-opt %s --google-gpu-tile-to-blocks="tile-size=0" -verify-diagnostics
// RUN: google-opt %s --google-gpu-tile-to-blocks="tile-size=9" -verify-diagnostics
// RUN: google-opt %s --google-gpu-tile-to-blocks="tile-size=2" | FileCheck %s

// CHECK: scf.forall ({{.*}}) = (0, 0) to ({{.*}}) step (32, 32)
// expected-error@+1 {{google-gpu-tile-to-blocks: expected tile-size in [1, 8], got tile-size=}}
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
