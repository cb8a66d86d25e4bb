// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s

// All parallel dimensions collapse into one range split into blocks of 256
// threads; consecutive threads take consecutive innermost elements.
// CHECK-LABEL: func.func @elementwise_collapsed
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x4x8xf32>
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK: %[[PLANES:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[PLANES]], %[[C8:.*]] : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in
// CHECK: arith.cmpi ult, %{{.*}}, %[[TOTAL]] : index
// CHECK: scf.if
// CHECK: arith.remsi %{{.*}}, %[[C8]]
// CHECK: math.exp
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: SCFToGPU_visited
// CHECK-NOT: linalg.generic
func.func @elementwise_collapsed(%x: memref<?x4x8xf32>, %y: memref<?x4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i,j,k)->(i,j,k)>, affine_map<(i,j,k)->(i,j,k)>], iterator_types = ["parallel","parallel","parallel"]} ins(%x : memref<?x4x8xf32>) outs(%y : memref<?x4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// The reduction over rows runs in each thread; the columns are the threads
// (one block of 10, since the range is static and smaller than a block).
// CHECK-LABEL: func.func @reduce_first_dim_interchanged
// CHECK: %[[ROWS:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x10xf32>
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[T:[^,]*]],
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[ROWS]]
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x10xf32>
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<10xf32>
func.func @reduce_first_dim_interchanged(%x: memref<?x10xf32>, %y: memref<10xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<?x10xf32>) outs(%y : memref<10xf32>) dimensions = [0]
  return
}

// -----

// Without a parallel dimension, one thread computes the whole reduction.
// CHECK-LABEL: func.func @full_reduction_one_thread
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
func.func @full_reduction_one_thread(%x: memref<?xf32>, %y: memref<f32>) {
  linalg.reduce { arith.addf } ins(%x : memref<?xf32>) outs(%y : memref<f32>) dimensions = [0]
  return
}

// -----

// CHECK-LABEL: func.func @matmul_threads_over_output
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.matmul
func.func @matmul_threads_over_output(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// The copy that buffer deallocation adds for a returned argument is made on
// the device.
// CHECK-LABEL: func.func @clone_on_device
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: %[[COPY:.*]] = gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK: gpu.memcpy %[[COPY]], %[[X]]
// CHECK: return %[[COPY]]
func.func @clone_on_device(%x: memref<?xf32>) -> memref<?xf32> {
  %c = bufferization.clone %x : memref<?xf32> to memref<?xf32>
  return %c : memref<?xf32>
}

// -----

// A strided copy is a kernel.
// CHECK-LABEL: func.func @strided_copy_kernel
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<2x3xf32, strided<[4, 1]>>
// CHECK: memref.store
func.func @strided_copy_kernel(%x: memref<2x3xf32, strided<[4, 1]>>, %y: memref<2x3xf32>) {
  linalg.copy ins(%x : memref<2x3xf32, strided<[4, 1]>>) outs(%y : memref<2x3xf32>)
  return
}
