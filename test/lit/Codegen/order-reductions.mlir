// RUN: tgc-opt %s --tgc-order-reductions | FileCheck %s
// The loops of a reduction nest by how far the computed input's addresses
// move along them, the least innermost, where the innermost steps a cache
// line or more; constant weights do not count.

// A channels-last 3x3 convolution of 32 channels (x[y][x][c], 32 floats a
// pixel): summed as (c, kh, kw), every kw step is another pixel, 128 bytes
// on. The channels go innermost: (kh, kw, c).
// CHECK-LABEL: func @channels_last(
//       CHECK:   %[[KH:.*]] = tgc.range 3 reduce id 2
//  CHECK-NEXT:   %[[KW:.*]] = tgc.range 3 reduce id 3
//  CHECK-NEXT:   %[[C:.*]] = tgc.range 32 reduce id 1
//       CHECK:   tgc.end %[[C]]
//  CHECK-NEXT:   tgc.end %[[KW]]
//  CHECK-NEXT:   tgc.end %[[KH]]
//  CHECK-NEXT:   tgc.reduce add %{{.*}} over %[[KH]], %[[KW]], %[[C]] : f32
func.func @channels_last(%x: tensor<6x6x32xf32>) -> tensor<4xf32> {
  %w = tgc.const dense<1.0> : tensor<32x3x3xf32>
  %k = tgc.kernel "r_4_32_3_3" (%x, %w) : (tensor<6x6x32xf32>, tensor<32x3x3xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c9 = tgc.const 9 : index
    %c32 = tgc.const 32 : index
    %c192 = tgc.const 192 : index
    %p = tgc.range 4 global id 0
    %c = tgc.range 32 reduce id 1
    %kh = tgc.range 3 reduce id 2
    %kw = tgc.range 3 reduce id 3
    %row = tgc.mul %kh, %c192 : index
    %col0 = tgc.add %kw, %p : index
    %col = tgc.mul %col0, %c32 : index
    %a0 = tgc.add %row, %col : index
    %a = tgc.add %a0, %c : index
    %px = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %px : !tgc.ptr<f32> -> f32
    %b0 = tgc.mul %c, %c9 : index
    %b1 = tgc.mul %kh, %c3 : index
    %b2 = tgc.add %b0, %b1 : index
    %b = tgc.add %b2, %kw : index
    %pw = tgc.index %wt[%b] : !tgc.ptr<f32>
    %u = tgc.load %pw : !tgc.ptr<f32> -> f32
    %m = tgc.mul %v, %u : f32
    tgc.end %kw
    tgc.end %kh
    tgc.end %c
    %s = tgc.reduce add %m over %c, %kh, %kw : f32
    %o = tgc.index %out[%p] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// Channels first (x[c][y][x]): kw already steps one float, innermost.
// CHECK-LABEL: func @channels_first(
//       CHECK:   %[[C:.*]] = tgc.range 32 reduce id 1
//  CHECK-NEXT:   %[[KH:.*]] = tgc.range 3 reduce id 2
//  CHECK-NEXT:   %[[KW:.*]] = tgc.range 3 reduce id 3
//       CHECK:   tgc.reduce add %{{.*}} over %[[C]], %[[KH]], %[[KW]] : f32
func.func @channels_first(%x: tensor<32x6x6xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_32_3_3" (%x) : (tensor<32x6x6xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c6 = tgc.const 6 : index
    %c36 = tgc.const 36 : index
    %p = tgc.range 4 global id 0
    %c = tgc.range 32 reduce id 1
    %kh = tgc.range 3 reduce id 2
    %kw = tgc.range 3 reduce id 3
    %plane = tgc.mul %c, %c36 : index
    %row = tgc.mul %kh, %c6 : index
    %col = tgc.add %kw, %p : index
    %a0 = tgc.add %plane, %row : index
    %a = tgc.add %a0, %col : index
    %px = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %px : !tgc.ptr<f32> -> f32
    tgc.end %kw
    tgc.end %kh
    tgc.end %c
    %s = tgc.reduce add %v over %c, %kh, %kw : f32
    %o = tgc.index %out[%p] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// Three channels last (a stem, x[y][x][c]): kw steps 12 bytes, within a
// line, so nothing moves though the channels step less.
// CHECK-LABEL: func @stem(
//       CHECK:   %[[C:.*]] = tgc.range 3 reduce id 1
//  CHECK-NEXT:   %[[KH:.*]] = tgc.range 3 reduce id 2
//  CHECK-NEXT:   %[[KW:.*]] = tgc.range 3 reduce id 3
//       CHECK:   tgc.reduce add %{{.*}} over %[[C]], %[[KH]], %[[KW]] : f32
func.func @stem(%x: tensor<6x6x3xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_3_3_3" (%x) : (tensor<6x6x3xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c18 = tgc.const 18 : index
    %p = tgc.range 4 global id 0
    %c = tgc.range 3 reduce id 1
    %kh = tgc.range 3 reduce id 2
    %kw = tgc.range 3 reduce id 3
    %row = tgc.mul %kh, %c18 : index
    %col0 = tgc.add %kw, %p : index
    %col = tgc.mul %col0, %c3 : index
    %a0 = tgc.add %row, %col : index
    %a = tgc.add %a0, %c : index
    %px = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %px : !tgc.ptr<f32> -> f32
    tgc.end %kw
    tgc.end %kh
    tgc.end %c
    %s = tgc.reduce add %v over %c, %kh, %kw : f32
    %o = tgc.index %out[%p] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %p
    tgc.sink
  }
  return %k : tensor<4xf32>
}
