// RUN: google-opt %s -google-export-functions | FileCheck %s

// Callers pass inputs without a copy: bufferization must not write into
// them.
// CHECK-LABEL: func @public
// CHECK-SAME: (%{{.*}}: tensor<?x8xf32> {bufferization.writable = false}, %{{.*}}: tensor<8xf32> {bufferization.writable = false})
// CHECK-SAME: attributes {google.signature = (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>, llvm.emit_c_interface}
func.func @public(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = call @helper(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// Private functions are internal.
// CHECK-LABEL: func private @helper
// CHECK-NOT: bufferization.writable
// CHECK-NOT: google.signature
func.func private @helper(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %x : tensor<?x8xf32>
}

// CHECK-LABEL: func private @external
// CHECK-NOT: attributes
func.func private @external(tensor<4xf32>)

// A function named like a libm function would capture the lowering's calls
// to it: its symbol moves aside, its exported name stays.
// CHECK-LABEL: func @_google_fn.tanh
// CHECK-SAME: google.export_name = "tanh"
func.func @tanh(%x: tensor<4xf64>) -> tensor<4xf64> {
  return %x : tensor<4xf64>
}

// CHECK-LABEL: func @uses_exp
// CHECK: call @_google_fn.exp
func.func @uses_exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func private @_google_fn.exp
// CHECK-NOT: google.export_name
func.func private @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Names of the object's own symbols move aside too.
// CHECK-LABEL: func @_google_fn.google_mlir_manifest
// CHECK-SAME: google.export_name = "google_mlir_manifest"
func.func @google_mlir_manifest(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK-LABEL: func @_google_fn._mlir_ciface_f
// CHECK-SAME: google.export_name = "_mlir_ciface_f"
func.func @_mlir_ciface_f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK-LABEL: func @f(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
