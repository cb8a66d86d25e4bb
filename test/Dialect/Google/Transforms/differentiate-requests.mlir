// RUN: google-opt %s -split-input-file -google-differentiate -verify-diagnostics | FileCheck %s

// A declaration with google.vjp gets its body from @g (the Python front
// end's request); the attribute is removed.
// CHECK-LABEL: func.func private @g_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NOT: google.vjp
// CHECK: %[[T:.*]] = google.tanh %[[X]]
// CHECK: %[[SQ:.*]] = google.mul %[[T]], %[[T]]
// CHECK: %[[D:.*]] = google.sub %{{.*}}, %[[SQ]]
// CHECK: %[[G:.*]] = google.mul %[[CT]], %[[D]]
// CHECK: return %[[T]], %[[G]]
func.func private @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = google.tanh %x : tensor<3xf32>
  return %t : tensor<3xf32>
}
func.func private @g_vjp(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) attributes {google.vjp = {of = @g, wrt = array<i64: 0>}}
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %r:2 = call @g_vjp(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %r#1 : tensor<3xf32>
}

// -----

func.func private @h(%x: tensor<3xi32>) -> tensor<3xi32> {
  return %x : tensor<3xi32>
}
// expected-error@+1 {{google-differentiate: argument 0 of @h is 'tensor<3xi32>'; gradients are taken with respect to float tensors}}
func.func private @h_vjp(tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) attributes {google.vjp = {of = @h, wrt = array<i64: 0>}}

// -----

func.func private @h(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// expected-error@+1 {{google-differentiate: the VJP of @h has type '(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)', got '(tensor<3xf32>) -> tensor<3xf32>'}}
func.func private @h_vjp(tensor<3xf32>) -> tensor<3xf32> attributes {google.vjp = {of = @h, wrt = array<i64: 0>}}

// -----

func.func private @h(%x: tensor<3xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{google-differentiate: google.gather is not differentiable yet (it needs a scatter-add)}}
  %g = google.gather %x, %i {axis = 0 : i64} : tensor<3xf32>, tensor<2xi64> -> tensor<2xf32>
  return %g : tensor<2xf32>
}
func.func private @h_vjp(tensor<3xf32>, tensor<2xi64>, tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>) attributes {google.vjp = {of = @h, wrt = array<i64: 0>}}

// -----

// expected-error@+1 {{google-differentiate: expected google.vjp = {of = @function, wrt = array<i64: ...>}}}
func.func private @h_vjp(tensor<3xf32>) -> tensor<3xf32> attributes {google.vjp = {of = "h"}}
