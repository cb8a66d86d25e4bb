// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 4 cases match numpy
// google.slice is numpy's basic slicing: ranges with steps of either sign.

// E2E: @windows(x: 6x40xf32) -> (x[1:5, ::3], x[::-1, 39:2:-2], x[5, 10:30], x[2:2])
// E2E: @last_token(h: 2x16x8xf32) -> h[:, -1]
// E2E: @ints(x: 7x9xi64, p: 7x9xi1) -> (x[6:0:-3, 1::2], p[::2, ::-1])
// Reversed rows, enough of them for threads' chunks: the chunks' slices
// of a reversing map are not linalg's to compute (it read out of bounds).
// E2E: @reversed_rows(x: 512x300xf64) -> x[::-1, 99:287]

func.func @windows(%x: tensor<6x40xf32>) -> (tensor<4x14xf32>, tensor<6x19xf32>, tensor<20xf32>, tensor<0x40xf32>) {
  %0 = google.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 5, 40>, strides = array<i64: 1, 3>} : tensor<6x40xf32> -> tensor<4x14xf32>
  %1 = google.slice %x {starts = array<i64: 5, 39>, limits = array<i64: -1, 2>, strides = array<i64: -1, -2>} : tensor<6x40xf32> -> tensor<6x19xf32>
  %2 = google.slice %x {starts = array<i64: 5, 10>, limits = array<i64: 6, 30>, strides = array<i64: 1, 1>} : tensor<6x40xf32> -> tensor<1x20xf32>
  %3 = google.reshape %2 : tensor<1x20xf32> -> tensor<20xf32>
  %4 = google.slice %x {starts = array<i64: 2, 0>, limits = array<i64: 2, 40>, strides = array<i64: 1, 1>} : tensor<6x40xf32> -> tensor<0x40xf32>
  return %0, %1, %3, %4 : tensor<4x14xf32>, tensor<6x19xf32>, tensor<20xf32>, tensor<0x40xf32>
}
func.func @last_token(%h: tensor<2x16x8xf32>) -> tensor<2x8xf32> {
  %0 = google.slice %h {starts = array<i64: 0, 15, 0>, limits = array<i64: 2, 16, 8>, strides = array<i64: 1, 1, 1>} : tensor<2x16x8xf32> -> tensor<2x1x8xf32>
  %1 = google.reshape %0 : tensor<2x1x8xf32> -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}
func.func @ints(%x: tensor<7x9xi64>, %p: tensor<7x9xi1>) -> (tensor<2x4xi64>, tensor<4x9xi1>) {
  %0 = google.slice %x {starts = array<i64: 6, 1>, limits = array<i64: 0, 9>, strides = array<i64: -3, 2>} : tensor<7x9xi64> -> tensor<2x4xi64>
  %1 = google.slice %p {starts = array<i64: 0, 8>, limits = array<i64: 7, -1>, strides = array<i64: 2, -1>} : tensor<7x9xi1> -> tensor<4x9xi1>
  return %0, %1 : tensor<2x4xi64>, tensor<4x9xi1>
}
func.func @reversed_rows(%x: tensor<512x300xf64>) -> tensor<512x188xf64> {
  %0 = google.slice %x {starts = array<i64: 511, 99>, limits = array<i64: -1, 287>, strides = array<i64: -1, 1>} : tensor<512x300xf64> -> tensor<512x188xf64>
  return %0 : tensor<512x188xf64>
}
