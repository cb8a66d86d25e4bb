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

// A grouped convolution with a dynamic batch: per filter tap, a batch of
// G matmuls (each group's C/G x F/G block, K the batch and positions).
// CHECK-LABEL: func.func private @grouped_vjp(
// CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<2x1x?xf32>, tensor<2x?x1xf32> -> tensor<2x1x1xf32>
func.func private @grouped(%x: tensor<?x4x4x2xf32>, %w: tensor<3x3x1x2xf32>) -> tensor<?x2x2x2xf32> {
  %y = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64} : tensor<?x4x4x2xf32>, tensor<3x3x1x2xf32> -> tensor<?x2x2x2xf32>
  return %y : tensor<?x2x2x2xf32>
}
func.func private @grouped_vjp(tensor<?x4x4x2xf32>, tensor<3x3x1x2xf32>, tensor<?x2x2x2xf32>) -> (tensor<?x2x2x2xf32>, tensor<?x4x4x2xf32>, tensor<3x3x1x2xf32>) attributes {google.vjp = {of = @grouped, wrt = array<i64: 0, 1>}}

// -----

// expected-error@+1 {{google-differentiate: expected google.vjp = {of = @function, wrt = array<i64: ...>}}}
func.func private @h_vjp(tensor<3xf32>) -> tensor<3xf32> attributes {google.vjp = {of = "h"}}

// -----

// conv2d: the filter's cotangent is a convolution of the padded input
// (channels first) by the cotangent, the forward stride as its dilation;
// the input's a full convolution of the stride-dilated cotangent by the
// flipped filter, its padding chosen to give just the input's rows (no
// crop where the padding allows).
// CHECK-LABEL: func.func private @conv_vjp(
// CHECK: google.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32> -> tensor<2x4x4x4xf32>
// CHECK: google.pad %{{.*}} {high = array<i64: 0, 1, 1, 0>, low = array<i64: 0, 1, 1, 0>} : tensor<2x8x8x3xf32>, tensor<f32> -> tensor<2x10x10x3xf32>
// CHECK: google.slice %{{.*}} {limits = array<i64: 2, 9, 9, 3>, starts = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}
// CHECK: google.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, groups = 1 : i64, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<3x9x9x2xf32>, tensor<4x4x2x4xf32> -> tensor<3x3x3x4xf32>
// CHECK: google.slice %{{.*}} {limits = array<i64: -1, -1, 3, 4>, starts = array<i64: 2, 2, 0, 0>, strides = array<i64: -1, -1, 1, 1>}
// CHECK: google.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<2x8x8x4xf32>, tensor<3x3x4x3xf32> -> tensor<2x8x8x3xf32>
// CHECK-NOT: google.slice
func.func private @conv(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32> {
  %y = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32> -> tensor<2x4x4x4xf32>
  return %y : tensor<2x4x4x4xf32>
}
func.func private @conv_vjp(tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<2x4x4x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) attributes {google.vjp = {of = @conv, wrt = array<i64: 0, 1>}}

// -----

// A function that calls another (a VJP the front end asked for, say) is
// differentiated with the call inlined, the callee's body built first.
// CHECK-LABEL: func.func private @g_vjp(
// CHECK-NOT: call
// CHECK: google.sin
// CHECK: google.cos
func.func private @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = google.sin %x : tensor<3xf32>
  return %s : tensor<3xf32>
}
func.func private @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = call @f(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %z = google.mul %y, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %z : tensor<3xf32>
}
func.func private @g_vjp(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) attributes {google.vjp = {of = @g, wrt = array<i64: 0>}}

// -----

func.func private @r(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = google.constant dense<1.0> : tensor<2xf32>
  %v:2 = call @r_vjp(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %v#1 : tensor<2xf32>
}
// expected-error@+1 {{google-differentiate: the VJP of a function that calls it (recursion)}}
func.func private @r_vjp(tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) attributes {google.vjp = {of = @r, wrt = array<i64: 0>}}

// -----

// Pools whose windows tile the input: the max's cotangent goes to each
// window's first maximal element (equal to the pooling's result, or NaN:
// the least such position, an i32, over the window's two axes), the
// average's is one broadcast divide; reshapes only (no transposes), so a
// dynamic batch works.
// CHECK-LABEL: func.func private @pools_vjp(
// CHECK: %[[MAX:.*]] = google.max_pool2d %arg0
// CHECK: google.div %{{.*}}, %{{.*}} : tensor<?x2x1x2x1x3xf32>, tensor<1x1x2x1x2x1xf32> -> tensor<?x2x2x2x2x3xf32>
// CHECK: %[[W:.*]] = google.reshape %arg0 : tensor<?x4x4x3xf32> -> tensor<?x2x2x2x2x3xf32>
// CHECK: %[[M:.*]] = google.reshape %[[MAX]] : tensor<?x2x2x3xf32> -> tensor<?x2x1x2x1x3xf32>
// CHECK: %[[EQ:.*]] = google.eq %[[W]], %[[M]]
// CHECK: %[[NAN:.*]] = google.ne %[[W]], %[[W]]
// CHECK: %[[MAXIMAL:.*]] = google.or %[[EQ]], %[[NAN]]
// CHECK: %[[POS:.*]] = google.constant dense<{{\[\[\[\[\[\[}}0], [1]]], {{\[\[\[}}2], [3]]]]]]> : tensor<1x1x2x1x2x1xi32>
// CHECK: %[[PAST:.*]] = google.constant dense<4> : tensor<i32>
// CHECK: %[[SEL:.*]] = google.select %[[MAXIMAL]], %[[POS]], %[[PAST]]
// CHECK: %[[FIRST:.*]] = google.reduce_min %[[SEL]] {axes = array<i64: 2, 4>, keep_dims = true}
// CHECK: google.eq %[[POS]], %[[FIRST]]
// CHECK-NOT: google.transpose
// CHECK-NOT: google.argmax
// CHECK-NOT: google.conv2d
// CHECK-NOT: google.slice
// CHECK: return
func.func private @pools(%x: tensor<?x4x4x3xf32>) -> (tensor<?x2x2x3xf32>, tensor<?x2x2x3xf32>) {
  %m = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<?x4x4x3xf32> -> tensor<?x2x2x3xf32>
  %a = google.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<?x4x4x3xf32> -> tensor<?x2x2x3xf32>
  return %m, %a : tensor<?x2x2x3xf32>, tensor<?x2x2x3xf32>
}
func.func private @pools_vjp(tensor<?x4x4x3xf32>, tensor<?x2x2x3xf32>, tensor<?x2x2x3xf32>) -> (tensor<?x2x2x3xf32>, tensor<?x2x2x3xf32>, tensor<?x4x4x3xf32>) attributes {google.vjp = {of = @pools, wrt = array<i64: 0>}}

// -----

// A dynamic batch: the filter's cotangent is one C x F matmul per filter
// tap (the batch cannot be a convolution's channels), each tap's window a
// gather of the static rows and columns (a slice needs a static input);
// the input's cotangent needs no crop.
// CHECK-LABEL: func.func private @dynamic_conv_vjp(
// CHECK-COUNT-4: google.matmul %{{.*}}, %{{.*}} : tensor<3x?xf32>, tensor<?x2xf32> -> tensor<3x2xf32>
// CHECK: google.concat {{.*}} {axis = 0 : i64} : tensor<1x3x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32> -> tensor<4x3x2xf32>
// CHECK: google.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<?x4x4x2xf32>, tensor<2x2x2x3xf32> -> tensor<?x5x5x3xf32>
func.func private @dynamic_conv(%x: tensor<?x5x5x3xf32>, %w: tensor<2x2x3x2xf32>) -> tensor<?x4x4x2xf32> {
  %y = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<?x5x5x3xf32>, tensor<2x2x3x2xf32> -> tensor<?x4x4x2xf32>
  return %y : tensor<?x4x4x2xf32>
}
func.func private @dynamic_conv_vjp(tensor<?x5x5x3xf32>, tensor<2x2x3x2xf32>, tensor<?x4x4x2xf32>) -> (tensor<?x4x4x2xf32>, tensor<?x5x5x3xf32>, tensor<2x2x3x2xf32>) attributes {google.vjp = {of = @dynamic_conv, wrt = array<i64: 0, 1>}}

// -----

// Overlapping windows with a dynamic batch: each window offset's
// candidates are gathers along the static rows and columns.
// CHECK-LABEL: func.func private @overlapping_vjp(
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x4x4x2xf32>, tensor<2xi64> -> tensor<?x2x4x2xf32>
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 2 : i64} : tensor<?x2x4x2xf32>, tensor<2xi64> -> tensor<?x2x2x2xf32>
func.func private @overlapping(%x: tensor<?x4x4x2xf32>) -> tensor<?x2x2x2xf32> {
  %p = google.max_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>} : tensor<?x4x4x2xf32> -> tensor<?x2x2x2xf32>
  return %p : tensor<?x2x2x2xf32>
}
func.func private @overlapping_vjp(tensor<?x4x4x2xf32>, tensor<?x2x2x2xf32>) -> (tensor<?x2x2x2xf32>, tensor<?x4x4x2xf32>) attributes {google.vjp = {of = @overlapping, wrt = array<i64: 0>}}

// -----

// pad and concat with dynamic extents they take whole.
// CHECK-LABEL: func.func private @dynamic_layout_vjp(
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x4xf32>, tensor<2xi64> -> tensor<?x2xf32>
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x5xf32>, tensor<2xi64> -> tensor<?x2xf32>
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x5xf32>, tensor<3xi64> -> tensor<?x3xf32>
func.func private @dynamic_layout(%x: tensor<?x2xf32>, %y: tensor<?x3xf32>, %v: tensor<f32>) -> (tensor<?x5xf32>, tensor<?x4xf32>) {
  %c = google.concat %x, %y {axis = 1 : i64} : tensor<?x2xf32>, tensor<?x3xf32> -> tensor<?x5xf32>
  %p = google.pad %x, %v {low = array<i64: 0, 1>, high = array<i64: 0, 1>} : tensor<?x2xf32>, tensor<f32> -> tensor<?x4xf32>
  return %c, %p : tensor<?x5xf32>, tensor<?x4xf32>
}
func.func private @dynamic_layout_vjp(tensor<?x2xf32>, tensor<?x3xf32>, tensor<f32>, tensor<?x5xf32>, tensor<?x4xf32>) -> (tensor<?x5xf32>, tensor<?x4xf32>, tensor<?x2xf32>, tensor<?x3xf32>, tensor<f32>) attributes {google.vjp = {of = @dynamic_layout, wrt = array<i64: 0, 1, 2>}}

// -----

// reduce_max along a dynamic axis, which may be empty at run time (where
// argmax would fail the call): the least position (an iota shaped like
// the input at run time) holding the maximum or a NaN. Along a static
// empty axis nothing flows.
// CHECK-LABEL: func.func private @dynamic_max_vjp(
// CHECK-NOT: google.argmax
// CHECK: %[[M:.*]] = google.reduce_max %arg0 {axes = array<i64: 0>, keep_dims = true} : tensor<?x3xf32> -> tensor<1x3xf32>
// CHECK: %[[IS:.*]] = google.eq %arg0, %[[M]]
// CHECK: %[[NAN:.*]] = google.ne %arg0, %arg0
// CHECK: %[[HIT:.*]] = google.or %[[IS]], %[[NAN]]
// CHECK: %[[AT:.*]] = google.iota like(%arg0 : tensor<?x3xf32>) {dimension = 0 : i64} : tensor<?x3xi64>
// CHECK: %[[P:.*]] = google.select %[[HIT]], %[[AT]], %{{.*}} : tensor<?x3xi1>, tensor<?x3xi64>, tensor<i64> -> tensor<?x3xi64>
// CHECK: %[[FIRST:.*]] = google.reduce_min %[[P]] {axes = array<i64: 0>, keep_dims = true}
// CHECK: google.eq %[[AT]], %[[FIRST]] : tensor<?x3xi64>, tensor<1x3xi64> -> tensor<?x3xi1>
// CHECK-LABEL: func.func private @empty_max_vjp(
// CHECK-NOT: google.argmax
// CHECK: return
func.func private @dynamic_max(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %m = google.reduce_max %x {axes = array<i64: 0>, keep_dims = false} : tensor<?x3xf32> -> tensor<3xf32>
  return %m : tensor<3xf32>
}
func.func private @dynamic_max_vjp(tensor<?x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) attributes {google.vjp = {of = @dynamic_max, wrt = array<i64: 0>}}
func.func private @empty_max(%x: tensor<0x1x0xf32>) -> tensor<1x1x0xf32> {
  %m = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<0x1x0xf32> -> tensor<1x1x0xf32>
  return %m : tensor<1x1x0xf32>
}
func.func private @empty_max_vjp(tensor<0x1x0xf32>, tensor<1x1x0xf32>) -> (tensor<1x1x0xf32>, tensor<0x1x0xf32>) attributes {google.vjp = {of = @empty_max, wrt = array<i64: 0>}}

// -----

// Padded dynamic extents and concatenation along a dynamic axis: gathers
// at positions known at run time (an iota shaped like the operand summed
// over its other dimensions, plus the padding or the extents before).
// CHECK-LABEL: func.func private @dynamic_offsets_vjp(
// CHECK: google.iota like(%{{.*}} : tensor<?xf32>) {dimension = 0 : i64} : tensor<?xi64>
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x2xf32>, tensor<?xi64> -> tensor<?x2xf32>
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x2xf32>, tensor<?xi64> -> tensor<?x2xf32>
// CHECK: google.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x2xf32>, tensor<3xi64> -> tensor<3x2xf32>
func.func private @dynamic_offsets(%x: tensor<?x2xf32>, %y: tensor<3x2xf32>, %v: tensor<f32>) -> (tensor<?x2xf32>, tensor<?x2xf32>) {
  %c = google.concat %x, %y {axis = 0 : i64} : tensor<?x2xf32>, tensor<3x2xf32> -> tensor<?x2xf32>
  %p = google.pad %x, %v {low = array<i64: 2, 0>, high = array<i64: 1, 0>} : tensor<?x2xf32>, tensor<f32> -> tensor<?x2xf32>
  return %c, %p : tensor<?x2xf32>, tensor<?x2xf32>
}
func.func private @dynamic_offsets_vjp(tensor<?x2xf32>, tensor<3x2xf32>, tensor<f32>, tensor<?x2xf32>, tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<3x2xf32>, tensor<f32>) attributes {google.vjp = {of = @dynamic_offsets, wrt = array<i64: 0, 1, 2>}}

// -----

// A loop state of dynamic shape: its tape is trip count x the initial
// state's shape, -0.0 broadcast by a select that never picks the state.
// CHECK-LABEL: func.func private @dynamic_loop_vjp(
// CHECK: %[[NEVER:.*]] = google.lt %arg0, %arg0 : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK: %[[TAPE:.*]] = google.select %[[NEVER]], %arg0, %{{.*}} : tensor<?xi1>, tensor<?xf32>, tensor<2x1xf32> -> tensor<2x?xf32>
// CHECK: google.while %{{.*}}, %{{.*}}, %arg0, %{{.*}}, %[[TAPE]] {trip_count = 2 : i64}
func.func private @dynamic_loop(%x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x {trip_count = 2 : i64} : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %n = google.constant dense<2> : tensor<i64>
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.mul %y, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    google.yield %next, %z : tensor<i64>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}
func.func private @dynamic_loop_vjp(tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) attributes {google.vjp = {of = @dynamic_loop, wrt = array<i64: 0>}}
