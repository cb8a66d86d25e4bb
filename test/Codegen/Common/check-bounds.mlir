// RUN: google-opt %s -split-input-file --google-check-bounds | FileCheck %s

// Vector loads and stores: every element's indices, here x..x+15 of a
// dynamic row (x + 16 <= dim) and rows r..r+1 x columns c..c+3 of a
// static 8x8 buffer; memref loads through upstream's runtime verification.
// CHECK-LABEL: func.func @vectors
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[S:.*]]: memref<8x8xf32>, %[[X:.*]]: index, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK: %[[END:.*]] = arith.addi %[[X]], %c16
// CHECK: %[[DIM:.*]] = memref.dim %[[M]], %c0
// CHECK: arith.cmpi sge, %[[X]], %c0
// CHECK: arith.cmpi sle, %[[END]], %[[DIM]]
// CHECK: cf.assert %{{.*}}, "vector.load at {{.*}}: out-of-bounds access"
// CHECK-NEXT: vector.load %[[M]][%[[X]]]
// CHECK: arith.addi %[[R]], %c2
// CHECK: arith.cmpi sle, %{{.*}}, %c8
// CHECK: arith.addi %[[C]], %c4
// CHECK: arith.cmpi sle, %{{.*}}, %c8
// CHECK: cf.assert %{{.*}}, "vector.store at {{.*}}: out-of-bounds access"
// CHECK-NEXT: vector.store
// CHECK: cf.assert %{{.*}}, "memref.load at {{.*}}: out-of-bounds access"
// CHECK-NEXT: memref.load
func.func @vectors(%m: memref<?xf32>, %s: memref<8x8xf32>, %x: index, %r: index, %c: index) -> f32 {
  %v = vector.load %m[%x] : memref<?xf32>, vector<16xf32>
  %w = vector.extract_strided_slice %v {offsets = [0], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
  %t = vector.shape_cast %w : vector<8xf32> to vector<2x4xf32>
  vector.store %t, %s[%r, %c] : memref<8x8xf32>, vector<2x4xf32>
  %e = memref.load %s[%r, %c] : memref<8x8xf32>
  return %e : f32
}

// -----

// A transfer that must stay in bounds is checked over its vector; one
// allowed past the end (in_bounds = false) is not.
// CHECK-LABEL: func.func @transfers
// CHECK: arith.addi %{{.*}}, %c8
// CHECK: cf.assert %{{.*}}, "vector.transfer_read at {{.*}}: out-of-bounds access"
// CHECK-NEXT: vector.transfer_read %{{.*}} {in_bounds = [true]}
// CHECK-NOT: cf.assert
// CHECK: vector.transfer_read %{{.*}} : memref<?xf32>, vector<8xf32>
// CHECK: return
func.func @transfers(%m: memref<?xf32>, %i: index) -> vector<8xf32> {
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%i], %pad {in_bounds = [true]} : memref<?xf32>, vector<8xf32>
  %b = vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<8xf32>
  %s = arith.addf %a, %b : vector<8xf32>
  return %s : vector<8xf32>
}

// -----

// With a 1-D mask (a masked in-bounds transfer: a transposed tile's
// partial edge; masked loads and stores), over the lanes the mask sets:
// each set lane's element inside the innermost extent, and the leading
// indices inside theirs when a lane is set.
// CHECK-LABEL: func.func @masked
// CHECK-SAME: %[[M:[a-z0-9]+]]: memref<4x?xf32>, %[[R:[a-z0-9]+]]: index, %[[I:[a-z0-9]+]]: index, %[[MASK:[a-z0-9]+]]: vector<8xi1>
// CHECK: %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
// CHECK: %[[FIRST:.*]] = vector.broadcast %[[I]] : index to vector<8xindex>
// CHECK: %[[AT:.*]] = arith.addi %[[FIRST]], %[[LANES]] : vector<8xindex>
// CHECK: %[[COLUMNS:.*]] = memref.dim %[[M]], %c1
// CHECK: %[[END:.*]] = vector.broadcast %[[COLUMNS]] : index to vector<8xindex>
// CHECK: %[[BEFORE_END:.*]] = arith.cmpi slt, %[[AT]], %[[END]] : vector<8xindex>
// CHECK: %[[UNSET:.*]] = arith.xori %[[MASK]], %{{.*}} : vector<8xi1>
// CHECK: %[[LANE_OK:.*]] = arith.ori %[[UNSET]], %{{.*}} : vector<8xi1>
// CHECK: %[[ALL:.*]] = vector.reduction <and>, %[[LANE_OK]] : vector<8xi1> into i1
// CHECK: arith.cmpi sge, %[[R]], %{{.*}} : index
// CHECK: arith.cmpi sle, %{{.*}}, %c4 : index
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[MASK]] : vector<8xi1> into i1
// CHECK: cf.assert %{{.*}}, "vector.transfer_write at {{.*}}: out-of-bounds access"
// CHECK-NEXT: vector.transfer_write
// CHECK: vector.reduction <and>
// CHECK: cf.assert %{{.*}}, "vector.maskedload at {{.*}}: out-of-bounds access"
// CHECK-NEXT: vector.maskedload
// CHECK: vector.reduction <and>
// CHECK: cf.assert %{{.*}}, "vector.maskedstore at {{.*}}: out-of-bounds access"
// CHECK-NEXT: vector.maskedstore
func.func @masked(%m: memref<4x?xf32>, %r: index, %i: index, %mask: vector<8xi1>, %v: vector<8xf32>) -> vector<8xf32> {
  vector.transfer_write %v, %m[%r, %i], %mask {in_bounds = [true]} : vector<8xf32>, memref<4x?xf32>
  %l = vector.maskedload %m[%r, %i], %mask, %v : memref<4x?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  vector.maskedstore %m[%r, %i], %mask, %l : memref<4x?xf32>, vector<8xi1>, vector<8xf32>
  return %l : vector<8xf32>
}

// -----

// Views are checked, reshapes are not (their shapes were checked where
// they were made; upstream's check of an expand_shape divides by a group's
// extent, which may be 0).
// CHECK-LABEL: func.func @views
// CHECK: cf.assert %{{.*}}, "memref.subview at {{.*}}: view out of bounds"
// CHECK: memref.subview
// CHECK-NOT: cf.assert
// CHECK: memref.expand_shape
// CHECK-NOT: cf.assert
// CHECK: return
func.func @views(%m: memref<?xf32>, %i: index, %n: index) -> (memref<?xf32, strided<[1], offset: ?>>, memref<0x1xf32>) {
  %s = memref.subview %m[%i] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %a = memref.alloc() : memref<0xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [0, 1] : memref<0xf32> into memref<0x1xf32>
  return %s, %e : memref<?xf32, strided<[1], offset: ?>>, memref<0x1xf32>
}
