// RUN: tgc-opt %s --split-input-file --tgc-order-loops | FileCheck %s
// Output loops nest so that weights one task cannot keep in L2 (over 512
// KB) are read once: the loops along which a weight's address moves go
// outside those along which none moves, and the next block of weights is
// prefetched while the rows use this one.

// A linear layer on 7x7 pixels, channels last (ConvNeXt's last stage):
// 768 -> 3072, weights packed in blocks of 32 columns (9.4 MB; 1.2 MB for
// each of 8 tasks). Rows outermost, each tile of 7 rows would stream a
// task's 12 blocks again; the blocks go outside, the rows inside them.
// Every step of the reduction then asks for a piece of the next block,
// (block + 1) * 24576 + (row * 768 + k) * 5: its 24576 elements spread over
// the 7 x 768 steps of the rows, inside the weight.
// CHECK-LABEL: func @few_rows(
//       CHECK:   %[[T:.*]] = tgc.range 8 thread id 7
//       CHECK:   %[[COLS:.*]] = tgc.range 12 global id 2
//  CHECK-NEXT:   %[[ROWS:.*]] = tgc.range 7 global id 0
//  CHECK-NEXT:   tgc.range 7 upcast id 6
//       CHECK:   tgc.range 2 upcast id 5
//       CHECK:   tgc.range 16 upcast id 4
//       CHECK:   %[[K:.*]] = tgc.range 768 reduce id 3
//       CHECK:   %[[TASK:.*]] = tgc.mul %[[T]], %{{.*}} : index
//  CHECK-NEXT:   %[[B:.*]] = tgc.add %[[TASK]], %[[COLS]] : index
//  CHECK-NEXT:   tgc.const 1 : index
//  CHECK-NEXT:   %[[B1:.*]] = tgc.add %[[B]], %{{.*}} : index
//  CHECK-NEXT:   tgc.const 24576 : index
//  CHECK-NEXT:   %[[NEXT:.*]] = tgc.mul %[[B1]], %{{.*}} : index
//  CHECK-NEXT:   tgc.const 768 : index
//  CHECK-NEXT:   %[[R:.*]] = tgc.mul %[[ROWS]], %{{.*}} : index
//  CHECK-NEXT:   %[[STEP:.*]] = tgc.add %[[R]], %[[K]] : index
//  CHECK-NEXT:   tgc.const 5 : index
//  CHECK-NEXT:   %[[OFF:.*]] = tgc.mul %[[STEP]], %{{.*}} : index
//  CHECK-NEXT:   %[[AT:.*]] = tgc.add %[[NEXT]], %[[OFF]] : index
//  CHECK-NEXT:   tgc.const 2359296 : index
//  CHECK-NEXT:   %[[IN:.*]] = tgc.cmplt %[[AT]], %{{.*}} : index
//  CHECK-NEXT:   %[[P:.*]] = tgc.index %{{.*}}[%[[AT]]], %[[IN]] : <f32>
//  CHECK-NEXT:   tgc.prefetch %[[P]] : <f32>
//       CHECK:   tgc.end %[[ROWS]]
//  CHECK-NEXT:   tgc.end %[[COLS]]
//  CHECK-NEXT:   tgc.end %[[T]]
func.func @few_rows(%x: tensor<1x7x7x768xf32>) -> tensor<1x7x7x3072xf32> {
  %w = tgc.const dense<1.0> : tensor<96x768x32xf32>
  %k = tgc.kernel "r_1_7_7_3072_768"(%x, %w) : (tensor<1x7x7x768xf32>, tensor<96x768x32xf32>) -> tensor<1x7x7x3072xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 8 thread id 7
    %c3072 = tgc.const 3072 : index
    %c768 = tgc.const 768 : index
    %rows = tgc.range 7 global id 0
    %rowlane = tgc.range 7 upcast id 6
    %c7 = tgc.const 7 : index
    %r0 = tgc.mul %rows, %c7 : index
    %row = tgc.add %r0, %rowlane : index
    %cols = tgc.range 12 global id 2
    %c12 = tgc.const 12 : index
    %b0 = tgc.mul %t, %c12 : index
    %block = tgc.add %b0, %cols : index
    %vec = tgc.range 2 upcast id 5
    %c2 = tgc.const 2 : index
    %v0 = tgc.mul %block, %c2 : index
    %v1 = tgc.add %v0, %vec : index
    %lane = tgc.range 16 upcast id 4
    %c16 = tgc.const 16 : index
    %l0 = tgc.mul %v1, %c16 : index
    %col = tgc.add %l0, %lane : index
    %k = tgc.range 768 reduce id 3
    %a0 = tgc.mul %row, %c768 : index
    %a = tgc.add %k, %a0 : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %c32 = tgc.const 32 : index
    %cb = tgc.idiv %col, %c32 : index
    %cl = tgc.mod %col, %c32 : index
    %c24576 = tgc.const 24576 : index
    %w0 = tgc.mul %cb, %c24576 : index
    %w1 = tgc.mul %k, %c32 : index
    %w2 = tgc.add %w0, %w1 : index
    %wi = tgc.add %w2, %cl : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %p over %k : f32
    %o0 = tgc.mul %row, %c3072 : index
    %o = tgc.add %col, %o0 : index
    %po = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %po, %s : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %vec
    tgc.end %cols
    tgc.end %rowlane
    tgc.end %rows
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<1x7x7x3072xf32>
}

// -----

// The same at 14x14, 384 -> 1536 (ConvNeXt's third stage): 295 KB of
// weights a task stay in L2 across the 28 tiles of rows, and the rows'
// inputs, read once per block instead, would not: the order stays.
// CHECK-LABEL: func @cached_weights(
//       CHECK:   %[[ROWS:.*]] = tgc.range 28 global id 0
//       CHECK:   %[[COLS:.*]] = tgc.range 6 global id 2
//   CHECK-NOT:   tgc.prefetch
//       CHECK:   tgc.end %[[COLS]]
//       CHECK:   tgc.end %[[ROWS]]
func.func @cached_weights(%x: tensor<1x14x14x384xf32>) -> tensor<1x14x14x1536xf32> {
  %w = tgc.const dense<1.0> : tensor<48x384x32xf32>
  %k = tgc.kernel "r_1_14_14_1536_384"(%x, %w) : (tensor<1x14x14x384xf32>, tensor<48x384x32xf32>) -> tensor<1x14x14x1536xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 8 thread id 7
    %c1536 = tgc.const 1536 : index
    %c384 = tgc.const 384 : index
    %rows = tgc.range 28 global id 0
    %rowlane = tgc.range 7 upcast id 6
    %c7 = tgc.const 7 : index
    %r0 = tgc.mul %rows, %c7 : index
    %row = tgc.add %r0, %rowlane : index
    %cols = tgc.range 6 global id 2
    %c6 = tgc.const 6 : index
    %b0 = tgc.mul %t, %c6 : index
    %block = tgc.add %b0, %cols : index
    %lane = tgc.range 32 upcast id 4
    %c32 = tgc.const 32 : index
    %l0 = tgc.mul %block, %c32 : index
    %col = tgc.add %l0, %lane : index
    %k = tgc.range 384 reduce id 3
    %a0 = tgc.mul %row, %c384 : index
    %a = tgc.add %k, %a0 : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %c12288 = tgc.const 12288 : index
    %w0 = tgc.mul %block, %c12288 : index
    %w1 = tgc.mul %k, %c32 : index
    %w2 = tgc.add %w0, %w1 : index
    %wi = tgc.add %w2, %lane : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %p over %k : f32
    %o0 = tgc.mul %row, %c1536 : index
    %o = tgc.add %col, %o0 : index
    %po = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %po, %s : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %cols
    tgc.end %rowlane
    tgc.end %rows
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<1x14x14x1536xf32>
}
