// RUN: google-opt %s -split-input-file --google-hoist-loop-invariants | FileCheck %s

// A reverse loop's w^T: the transpose and its empty tensor move before the
// loop; the fill and the matmul, which read the iteration's values, stay.
// CHECK-LABEL: func.func @reverse_loop
// CHECK-SAME: (%[[W:.*]]: tensor<16x16xf32>, %[[G0:.*]]: tensor<4x16xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<16x16xf32>) outs(%[[E]] : tensor<16x16xf32>)
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[G:.*]] = %[[G0]])
// CHECK: linalg.fill
// CHECK: linalg.matmul ins(%[[G]], %[[WT]] : tensor<4x16xf32>, tensor<16x16xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: scf.yield
func.func @reverse_loop(%w: tensor<16x16xf32>, %g0: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%g = %g0) -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<16x16xf32>
    %wt = linalg.transpose ins(%w : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) permutation = [1, 0]
    %e2 = tensor.empty() : tensor<4x16xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %d = linalg.matmul ins(%g, %wt : tensor<4x16xf32>, tensor<16x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
    scf.yield %d : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// -----

// A chain of invariant ops moves out of both loops of a nest; in a while
// loop, out of its body.
// CHECK-LABEL: func.func @chain_and_nest
// CHECK: linalg.transpose
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.generic
// CHECK: } -> tensor<8x8xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: linalg.transpose
// CHECK-LABEL: func.func @while_body
// CHECK: linalg.transpose
// CHECK-NEXT: scf.while
func.func @chain_and_nest(%w: tensor<8x8xf32>, %x0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %x0) -> (tensor<8x8xf32>) {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%y = %x) -> (tensor<8x8xf32>) {
      %e = tensor.empty() : tensor<8x8xf32>
      %wt = linalg.transpose ins(%w : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
      %e2 = tensor.empty() : tensor<8x8xf32>
      %twice = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%wt : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        %t = arith.addf %a, %a : f32
        linalg.yield %t : f32
      } -> tensor<8x8xf32>
      %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%twice : tensor<8x8xf32>) outs(%y : tensor<8x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        %t = arith.addf %a, %o : f32
        linalg.yield %t : f32
      } -> tensor<8x8xf32>
      scf.yield %sum : tensor<8x8xf32>
    }
    scf.yield %s : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}
func.func @while_body(%w: tensor<8x8xf32>, %x0: tensor<8x8xf32>, %n: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %x = %x0) : (index, tensor<8x8xf32>) -> (index, tensor<8x8xf32>) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %x : index, tensor<8x8xf32>
  } do {
  ^bb0(%i: index, %x: tensor<8x8xf32>):
    %e = tensor.empty() : tensor<8x8xf32>
    %wt = linalg.transpose ins(%w : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
    %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%wt : tensor<8x8xf32>) outs(%x : tensor<8x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %a, %o : f32
      linalg.yield %t : f32
    } -> tensor<8x8xf32>
    %next = arith.addi %i, %c1 : index
    scf.yield %next, %sum : index, tensor<8x8xf32>
  }
  return %r#1 : tensor<8x8xf32>
}

// -----

// A reduction of a value from above moves with the fill and the empty
// tensor it starts from.
// CHECK-LABEL: func.func @reduction
// CHECK: tensor.empty() : tensor<5xi64>
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.reduce
// CHECK: scf.for
// CHECK-NOT: linalg.reduce
// CHECK-NOT: linalg.fill
// CHECK: scf.yield
func.func @reduction(%a: tensor<5x2xi64>, %x0: tensor<5xi64>) -> tensor<5xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %x0) -> (tensor<5xi64>) {
    %e = tensor.empty() : tensor<5xi64>
    %f = linalg.fill ins(%zero : i64) outs(%e : tensor<5xi64>) -> tensor<5xi64>
    %s = linalg.reduce { arith.addi } ins(%a : tensor<5x2xi64>) outs(%f : tensor<5xi64>) dimensions = [1]
    %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%s : tensor<5xi64>) outs(%x : tensor<5xi64>) {
    ^bb0(%v: i64, %o: i64):
      %t = arith.muli %v, %o : i64
      linalg.yield %t : i64
    } -> tensor<5xi64>
    scf.yield %n : tensor<5xi64>
  }
  return %r : tensor<5xi64>
}

// -----

// Left in the loop: a gather (it could read out of range where the loop
// would not run), an op on dynamic shapes, a result that is a destination
// in the loop, a yielded result, an op reading the iteration's value.
// CHECK-LABEL: func.func @stays
// CHECK: scf.for
// CHECK-COUNT-5: linalg.generic
// CHECK: scf.yield
func.func @stays(%w: tensor<8xf32>, %idx: tensor<8xindex>, %d: tensor<?xf32>, %x0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %x0, %y = %x0, %z = %d) -> (tensor<8xf32>, tensor<8xf32>, tensor<?xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %gathered = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%idx : tensor<8xindex>) outs(%e : tensor<8xf32>) {
    ^bb0(%k: index, %o: f32):
      %v = tensor.extract %w[%k] : tensor<8xf32>
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %n = tensor.dim %d, %c0 : tensor<?xf32>
    %ed = tensor.empty(%n) : tensor<?xf32>
    %dyn = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%d : tensor<?xf32>) outs(%ed : tensor<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %a, %a : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    %e2 = tensor.empty() : tensor<8xf32>
    %dest = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%w : tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %a, %a : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    %next = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %gathered : tensor<8xf32>, tensor<8xf32>) outs(%dest : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %t = arith.addf %a, %b : f32
      %u = arith.addf %t, %o : f32
      linalg.yield %u : f32
    } -> tensor<8xf32>
    %e3 = tensor.empty() : tensor<8xf32>
    %yielded = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%w : tensor<8xf32>) outs(%e3 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.mulf %a, %a : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    scf.yield %next, %yielded, %dyn : tensor<8xf32>, tensor<8xf32>, tensor<?xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>, tensor<?xf32>
}

// -----

// A payload that takes a value the loop computes (a check's bound, here
// the state's extent) stays, though its operands come from outside.
// CHECK-LABEL: func.func @payload_reads_loop_value
// CHECK: scf.for
// CHECK: tensor.dim
// CHECK: linalg.generic
// CHECK: scf.yield
func.func @payload_reads_loop_value(%ids: tensor<4xindex>, %x0: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %x0) -> (tensor<?xf32>) {
    %n = tensor.dim %x, %c0 : tensor<?xf32>
    %e = tensor.empty() : tensor<4xi1>
    %outside = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%ids : tensor<4xindex>) outs(%e : tensor<4xi1>) {
    ^bb0(%k: index, %o: i1):
      %bad = arith.cmpi uge, %k, %n : index
      linalg.yield %bad : i1
    } -> tensor<4xi1>
    %any = tensor.extract %outside[%c0] : tensor<4xi1>
    cf.assert %any, "in range"
    scf.yield %x : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
