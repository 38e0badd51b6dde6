// RUN: tgc-opt %s --split-input-file --tgc-order-loops | FileCheck %s
// Output loops nest so that weights one task cannot keep in L2 (over 512
// KB) are read once: the loops along which a weight's address moves go
// outside those along which none moves; so do they where a task's weights
// overflow L1 but each block of them fits. Where a task reads over 256 KB of
// a weight, the next block of it is prefetched while the rows (or a
// reduction that reuses the block) use this one. A window written out
// over an activation that moves with the columns (a channels-last
// depthwise convolution) puts the columns outside where a column's
// stripe of a task's activation fits in L2.

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
// inputs, read once per block instead, would not: the order stays. Each
// block still comes from memory once, in the first tile of rows: the next
// one is prefetched, (block + 1) * 12288 + (row * 384 + k) * 2.
// CHECK-LABEL: func @cached_weights(
//       CHECK:   ^bb0(%{{[a-z0-9]+}}: !tgc.ptr<f32>, %[[WT:[a-z0-9]+]]:
//       CHECK:   %[[ROWS:.*]] = tgc.range 28 global id 0
//       CHECK:   %[[COLS:.*]] = tgc.range 6 global id 2
//       CHECK:   %[[K:.*]] = tgc.range 384 reduce id 3
//       CHECK:   tgc.index %[[WT]][%{{.*}}] : <f32>
//  CHECK-NEXT:   tgc.const 6 : index
//  CHECK-NEXT:   tgc.mul
//  CHECK-NEXT:   %[[B:.*]] = tgc.add %{{.*}}, %[[COLS]] : index
//  CHECK-NEXT:   tgc.const 1 : index
//  CHECK-NEXT:   %[[B1:.*]] = tgc.add %[[B]], %{{.*}} : index
//  CHECK-NEXT:   tgc.const 12288 : index
//  CHECK-NEXT:   %[[NEXT:.*]] = tgc.mul %[[B1]], %{{.*}} : index
//  CHECK-NEXT:   tgc.const 384 : index
//  CHECK-NEXT:   %[[R:.*]] = tgc.mul %[[ROWS]], %{{.*}} : index
//  CHECK-NEXT:   %[[STEP:.*]] = tgc.add %[[R]], %[[K]] : index
//  CHECK-NEXT:   tgc.const 2 : index
//  CHECK-NEXT:   %[[OFF:.*]] = tgc.mul %[[STEP]], %{{.*}} : index
//  CHECK-NEXT:   %[[AT:.*]] = tgc.add %[[NEXT]], %[[OFF]] : index
//  CHECK-NEXT:   tgc.const 589824 : index
//  CHECK-NEXT:   %[[IN:.*]] = tgc.cmplt %[[AT]], %{{.*}} : index
//  CHECK-NEXT:   %[[P:.*]] = tgc.index %[[WT]][%[[AT]]], %[[IN]] : <f32>
//  CHECK-NEXT:   tgc.prefetch %[[P]] : <f32>
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

// -----

// A transformer's linear layer, 128 tokens, 256 -> 1024: 128 KB of weights
// a task, past L1, in 4 blocks of 32 columns by 256 (32 KB each, within
// it). Rows outside, each of the 16 tiles of 8 tokens reads the task's
// weights from L2 again (2 MB in all); blocks outside, each stays in L1
// for the 16 tiles and the tokens' inputs (128 KB) are read 4 times. The
// blocks go outside; under 256 KB a task, nothing is prefetched.
// CHECK-LABEL: func @block_in_l1(
//       CHECK:   %[[T:.*]] = tgc.range 8 thread id 7
//       CHECK:   %[[COLS:.*]] = tgc.range 4 global id 2
//  CHECK-NEXT:   %[[ROWS:.*]] = tgc.range 16 global id 0
//   CHECK-NOT:   tgc.prefetch
//       CHECK:   tgc.end %[[ROWS]]
//  CHECK-NEXT:   tgc.end %[[COLS]]
//  CHECK-NEXT:   tgc.end %[[T]]
func.func @block_in_l1(%x: tensor<1x128x256xf32>) -> tensor<1x128x1024xf32> {
  %w = tgc.const dense<1.0> : tensor<32x256x32xf32>
  %k = tgc.kernel "r_1_128_1024_256"(%x, %w) : (tensor<1x128x256xf32>, tensor<32x256x32xf32>) -> tensor<1x128x1024xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 8 thread id 7
    %c1024 = tgc.const 1024 : index
    %c256 = tgc.const 256 : index
    %rows = tgc.range 16 global id 0
    %rowlane = tgc.range 8 upcast id 6
    %c8 = tgc.const 8 : index
    %r0 = tgc.mul %rows, %c8 : index
    %row = tgc.add %r0, %rowlane : index
    %cols = tgc.range 4 global id 2
    %c4 = tgc.const 4 : index
    %b0 = tgc.mul %t, %c4 : index
    %block = tgc.add %b0, %cols : index
    %lane = tgc.range 32 upcast id 4
    %c32 = tgc.const 32 : index
    %l0 = tgc.mul %block, %c32 : index
    %col = tgc.add %l0, %lane : index
    %k = tgc.range 256 reduce id 3
    %a0 = tgc.mul %row, %c256 : index
    %a = tgc.add %k, %a0 : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %c8192 = tgc.const 8192 : index
    %w0 = tgc.mul %block, %c8192 : index
    %w1 = tgc.mul %k, %c32 : index
    %w2 = tgc.add %w0, %w1 : index
    %wi = tgc.add %w2, %lane : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %p over %k : f32
    %o0 = tgc.mul %row, %c1024 : index
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
  return %k : tensor<1x128x1024xf32>
}

// -----

// SqueezeNet's classifier: a 1x1 convolution, 512 -> 1000, summed over
// 13x13 pixels, its weights packed in 63 blocks of 16 columns (2 MB; 288
// KB for each of 7 tasks). The one output loop steps through the blocks;
// the pool's reduction over the rows of pixels reuses each block, so the
// next block is asked for over its 13 x 512 steps: (block + 1) * 8192 +
// (row * 512 + k) * 2, inside the 516096 elements.
// CHECK-LABEL: func @pooled(
//       CHECK:   ^bb0(%[[WT:[a-z0-9]+]]:
//       CHECK:   %[[T:.*]] = tgc.range 7 thread id 5
//       CHECK:   %[[COLS:.*]] = tgc.range 9 global id 0
//       CHECK:   %[[ROW:.*]] = tgc.range 13 reduce id 1
//       CHECK:   %[[K:.*]] = tgc.range 512 reduce id 3
//       CHECK:   tgc.index %[[WT]][%{{.*}}] : <f32>
//  CHECK-NEXT:   tgc.const 9 : index
//  CHECK-NEXT:   %[[TASK:.*]] = tgc.mul %[[T]], %{{.*}} : index
//  CHECK-NEXT:   %[[B:.*]] = tgc.add %[[TASK]], %[[COLS]] : index
//  CHECK-NEXT:   tgc.const 1 : index
//  CHECK-NEXT:   %[[B1:.*]] = tgc.add %[[B]], %{{.*}} : index
//  CHECK-NEXT:   tgc.const 8192 : index
//  CHECK-NEXT:   %[[NEXT:.*]] = tgc.mul %[[B1]], %{{.*}} : index
//  CHECK-NEXT:   tgc.const 512 : index
//  CHECK-NEXT:   %[[R:.*]] = tgc.mul %[[ROW]], %{{.*}} : index
//  CHECK-NEXT:   %[[STEP:.*]] = tgc.add %[[R]], %[[K]] : index
//  CHECK-NEXT:   tgc.const 2 : index
//  CHECK-NEXT:   %[[OFF:.*]] = tgc.mul %[[STEP]], %{{.*}} : index
//  CHECK-NEXT:   %[[AT:.*]] = tgc.add %[[NEXT]], %[[OFF]] : index
//  CHECK-NEXT:   tgc.const 516096 : index
//  CHECK-NEXT:   %[[IN:.*]] = tgc.cmplt %[[AT]], %{{.*}} : index
//  CHECK-NEXT:   %[[P:.*]] = tgc.index %[[WT]][%[[AT]]], %[[IN]] : <f32>
//  CHECK-NEXT:   tgc.prefetch %[[P]] : <f32>
func.func @pooled(%x: tensor<1x512x13x13xf32>) -> tensor<1x1000xf32> {
  %w = tgc.const dense<1.0> : tensor<63x512x16xf32>
  %k = tgc.kernel "r_1_1000_512_1_1"(%w, %x) : (tensor<63x512x16xf32>, tensor<1x512x13x13xf32>) -> tensor<1x1000xf32> {
  ^bb0(%wt: !tgc.ptr<f32>, %in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 7 thread id 5
    %pixels = tgc.const 1.690000e+02 : f32
    %zero = tgc.const 0.000000e+00 : f32
    %c13 = tgc.const 13 : index
    %c169 = tgc.const 169 : index
    %cols = tgc.range 9 global id 0
    %c9 = tgc.const 9 : index
    %b0 = tgc.mul %t, %c9 : index
    %block = tgc.add %b0, %cols : index
    %lane = tgc.range 16 upcast id 4
    %c16 = tgc.const 16 : index
    %l0 = tgc.mul %block, %c16 : index
    %col = tgc.add %l0, %lane : index
    %c1000 = tgc.const 1000 : index
    %valid = tgc.cmplt %col, %c1000 : index
    %row = tgc.range 13 reduce id 1
    %pixel = tgc.range 13 unroll id 2
    %k = tgc.range 512 reduce id 3
    %a0 = tgc.mul %k, %c169 : index
    %a1 = tgc.mul %row, %c13 : index
    %a2 = tgc.add %a0, %a1 : index
    %a = tgc.add %a2, %pixel : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %c8192 = tgc.const 8192 : index
    %w0 = tgc.mul %block, %c8192 : index
    %w1 = tgc.mul %k, %c16 : index
    %w2 = tgc.add %w0, %w1 : index
    %wi = tgc.add %w2, %lane : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %p over %k : f32
    %relu = tgc.max %s, %zero : f32
    tgc.end %pixel
    tgc.end %row
    %sum = tgc.reduce add %relu over %row, %pixel : f32
    %mean = tgc.fdiv %sum, %pixels : f32
    %po = tgc.index %out[%col], %valid : !tgc.ptr<f32>
    tgc.store %po, %mean : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %cols
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<1x1000xf32>
}

// -----

// The same classifier on 9 tasks: 229 KB of weights each, which the
// hardware prefetcher streams well enough. No hint.
// CHECK-LABEL: func @few_weights(
//   CHECK-NOT:   tgc.prefetch
//       CHECK:   tgc.sink
func.func @few_weights(%x: tensor<1x512x13x13xf32>) -> tensor<1x1000xf32> {
  %w = tgc.const dense<1.0> : tensor<63x512x16xf32>
  %k = tgc.kernel "r_1_1000_512_1_1"(%w, %x) : (tensor<63x512x16xf32>, tensor<1x512x13x13xf32>) -> tensor<1x1000xf32> {
  ^bb0(%wt: !tgc.ptr<f32>, %in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 9 thread id 5
    %c13 = tgc.const 13 : index
    %c169 = tgc.const 169 : index
    %cols = tgc.range 7 global id 0
    %c7 = tgc.const 7 : index
    %b0 = tgc.mul %t, %c7 : index
    %block = tgc.add %b0, %cols : index
    %lane = tgc.range 16 upcast id 4
    %c16 = tgc.const 16 : index
    %l0 = tgc.mul %block, %c16 : index
    %col = tgc.add %l0, %lane : index
    %c1000 = tgc.const 1000 : index
    %valid = tgc.cmplt %col, %c1000 : index
    %row = tgc.range 13 reduce id 1
    %pixel = tgc.range 13 unroll id 2
    %k = tgc.range 512 reduce id 3
    %a0 = tgc.mul %k, %c169 : index
    %a1 = tgc.mul %row, %c13 : index
    %a2 = tgc.add %a0, %a1 : index
    %a = tgc.add %a2, %pixel : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %c8192 = tgc.const 8192 : index
    %w0 = tgc.mul %block, %c8192 : index
    %w1 = tgc.mul %k, %c16 : index
    %w2 = tgc.add %w0, %w1 : index
    %wi = tgc.add %w2, %lane : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %p over %k : f32
    tgc.end %pixel
    tgc.end %row
    %sum = tgc.reduce add %s over %row, %pixel : f32
    %po = tgc.index %out[%col], %valid : !tgc.ptr<f32>
    tgc.store %po, %sum : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %cols
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<1x1000xf32>
}

// -----

// DenseNet's 1x1 convolutions at 56x56, channels first (224 -> 128): 16
// blocks of 8 output channels (114 KB of weights in all, cached), each
// block outside 14 tiles of 32 pixels of a task. Every block would read
// the task's 400 KB of activations again, a channel a page apart; the
// pixels go outside instead, and each block of weights, read again for
// every tile of pixels, streams from L2 in rows of 224.
// CHECK-LABEL: func @rows_first(
//       CHECK:   tgc.range 7 thread id 7
//       CHECK:   %[[PIX:.*]] = tgc.range 14 global id 1
//  CHECK-NEXT:   %[[COLS:.*]] = tgc.range 16 global id 0
//   CHECK-NOT:   tgc.prefetch
//       CHECK:   tgc.end %[[COLS]]
//  CHECK-NEXT:   tgc.end %[[PIX]]
func.func @rows_first(%x: tensor<1x224x56x56xf32>) -> tensor<1x128x56x56xf32> {
  %w = tgc.const dense<1.0> : tensor<128x224x1x1xf32>
  %k = tgc.kernel "r_1_128_56_56_224_1_1"(%w, %x) : (tensor<128x224x1x1xf32>, tensor<1x224x56x56xf32>) -> tensor<1x128x56x56xf32> {
  ^bb0(%wt: !tgc.ptr<f32>, %in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 7 thread id 7
    %c224 = tgc.const 224 : index
    %c3136 = tgc.const 3136 : index
    %cols = tgc.range 16 global id 0
    %chan = tgc.range 8 upcast id 6
    %c8 = tgc.const 8 : index
    %o0 = tgc.mul %cols, %c8 : index
    %oc = tgc.add %o0, %chan : index
    %pix = tgc.range 14 global id 1
    %c14 = tgc.const 14 : index
    %p0 = tgc.mul %t, %c14 : index
    %p1 = tgc.add %p0, %pix : index
    %vec = tgc.range 2 upcast id 5
    %c2 = tgc.const 2 : index
    %p2 = tgc.mul %p1, %c2 : index
    %p3 = tgc.add %p2, %vec : index
    %lane = tgc.range 16 upcast id 4
    %c16 = tgc.const 16 : index
    %p4 = tgc.mul %p3, %c16 : index
    %pixel = tgc.add %p4, %lane : index
    %k = tgc.range 224 reduce id 3
    %a0 = tgc.mul %k, %c3136 : index
    %a = tgc.add %a0, %pixel : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %w0 = tgc.mul %oc, %c224 : index
    %wi = tgc.add %w0, %k : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %k
    %s = tgc.reduce add %p over %k : f32
    %s0 = tgc.mul %oc, %c3136 : index
    %so = tgc.add %s0, %pixel : index
    %po = tgc.index %out[%so] : !tgc.ptr<f32>
    tgc.store %po, %s : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %vec
    tgc.end %pix
    tgc.end %chan
    tgc.end %cols
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<1x128x56x56xf32>
}

// -----

// A channels-last 3x3 depthwise convolution at 56x56 (MobileNetV2's), 144
// channels in 9 vectors of 16, by 2 pixels, its taps written out, in 8
// tasks of 7 rows. The 3x3 window reads each input row again for the
// next two rows of outputs: rows outside, the rows of all 144 channels it
// spans overflow L1 and come from L2 again. A task reads 242 KB of input,
// 27 KB per vector of channels: the vectors go outside the rows, each
// one's stripe stays in L1 and its 9 weight vectors in registers.
// CHECK-LABEL: func @window_stripes(
//       CHECK:   %[[T:.*]] = tgc.range 8 thread id 7
//       CHECK:   %[[COLS:.*]] = tgc.range 9 global id 2
//  CHECK-NEXT:   %[[ROWS:.*]] = tgc.range 7 global id 0
//  CHECK-NEXT:   %[[PIX:.*]] = tgc.range 28 global id 1
//   CHECK-NOT:   tgc.prefetch
//       CHECK:   tgc.end %[[PIX]]
//  CHECK-NEXT:   tgc.end %[[ROWS]]
//  CHECK-NEXT:   tgc.end %[[COLS]]
//  CHECK-NEXT:   tgc.end %[[T]]
func.func @window_stripes(%x: tensor<58x58x144xf32>) -> tensor<56x56x144xf32> {
  %w = tgc.const dense<1.0> : tensor<9x3x3x16xf32>
  %k = tgc.kernel "r_56_56_144_3_3"(%x, %w) : (tensor<58x58x144xf32>, tensor<9x3x3x16xf32>) -> tensor<56x56x144xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %t = tgc.range 8 thread id 7
    %c144 = tgc.const 144 : index
    %c58 = tgc.const 58 : index
    %c56 = tgc.const 56 : index
    %rows = tgc.range 7 global id 0
    %c7 = tgc.const 7 : index
    %r0 = tgc.mul %t, %c7 : index
    %row = tgc.add %r0, %rows : index
    %pix = tgc.range 28 global id 1
    %pixlane = tgc.range 2 upcast id 6
    %c2 = tgc.const 2 : index
    %q0 = tgc.mul %pix, %c2 : index
    %col = tgc.add %q0, %pixlane : index
    %cols = tgc.range 9 global id 2
    %lane = tgc.range 16 upcast id 5
    %c16 = tgc.const 16 : index
    %c0 = tgc.mul %cols, %c16 : index
    %chan = tgc.add %c0, %lane : index
    %kh = tgc.range 3 unroll id 3
    %kw = tgc.range 3 unroll id 4
    %ih = tgc.add %row, %kh : index
    %iw = tgc.add %col, %kw : index
    %a0 = tgc.mul %ih, %c58 : index
    %a1 = tgc.add %a0, %iw : index
    %a2 = tgc.mul %a1, %c144 : index
    %a = tgc.add %a2, %chan : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %cblk = tgc.const 144 : index
    %c48 = tgc.const 48 : index
    %w0 = tgc.mul %cols, %cblk : index
    %w1 = tgc.mul %kh, %c48 : index
    %w2 = tgc.add %w0, %w1 : index
    %w3 = tgc.mul %kw, %c16 : index
    %w4 = tgc.add %w2, %w3 : index
    %wi = tgc.add %w4, %lane : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %kw
    tgc.end %kh
    %s = tgc.reduce add %p over %kh, %kw : f32
    %o0 = tgc.mul %row, %c56 : index
    %o1 = tgc.add %o0, %col : index
    %o2 = tgc.mul %o1, %c144 : index
    %o = tgc.add %o2, %chan : index
    %po = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %po, %s : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %cols
    tgc.end %pixlane
    tgc.end %pix
    tgc.end %rows
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<56x56x144xf32>
}

// -----

// The same convolution in one task: a vector's stripe of the whole image,
// 215 KB, would not stay in L1 either; the rows stay outside.
// CHECK-LABEL: func @window_whole_image(
//       CHECK:   %[[ROWS:.*]] = tgc.range 56 global id 0
//       CHECK:   %[[PIX:.*]] = tgc.range 28 global id 1
//       CHECK:   %[[COLS:.*]] = tgc.range 9 global id 2
//       CHECK:   tgc.end %[[COLS]]
//       CHECK:   tgc.end %[[PIX]]
//  CHECK-NEXT:   tgc.end %[[ROWS]]
func.func @window_whole_image(%x: tensor<58x58x144xf32>) -> tensor<56x56x144xf32> {
  %w = tgc.const dense<1.0> : tensor<9x3x3x16xf32>
  %k = tgc.kernel "r_56_56_144_3_3"(%x, %w) : (tensor<58x58x144xf32>, tensor<9x3x3x16xf32>) -> tensor<56x56x144xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wt: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c144 = tgc.const 144 : index
    %c58 = tgc.const 58 : index
    %c56 = tgc.const 56 : index
    %row = tgc.range 56 global id 0
    %pix = tgc.range 28 global id 1
    %pixlane = tgc.range 2 upcast id 6
    %c2 = tgc.const 2 : index
    %q0 = tgc.mul %pix, %c2 : index
    %col = tgc.add %q0, %pixlane : index
    %cols = tgc.range 9 global id 2
    %lane = tgc.range 16 upcast id 5
    %c16 = tgc.const 16 : index
    %c0 = tgc.mul %cols, %c16 : index
    %chan = tgc.add %c0, %lane : index
    %kh = tgc.range 3 unroll id 3
    %kw = tgc.range 3 unroll id 4
    %ih = tgc.add %row, %kh : index
    %iw = tgc.add %col, %kw : index
    %a0 = tgc.mul %ih, %c58 : index
    %a1 = tgc.add %a0, %iw : index
    %a2 = tgc.mul %a1, %c144 : index
    %a = tgc.add %a2, %chan : index
    %pa = tgc.index %in[%a] : !tgc.ptr<f32>
    %va = tgc.load %pa : !tgc.ptr<f32> -> f32
    %cblk = tgc.const 144 : index
    %c48 = tgc.const 48 : index
    %w0 = tgc.mul %cols, %cblk : index
    %w1 = tgc.mul %kh, %c48 : index
    %w2 = tgc.add %w0, %w1 : index
    %w3 = tgc.mul %kw, %c16 : index
    %w4 = tgc.add %w2, %w3 : index
    %wi = tgc.add %w4, %lane : index
    %pw = tgc.index %wt[%wi] : !tgc.ptr<f32>
    %vw = tgc.load %pw : !tgc.ptr<f32> -> f32
    %p = tgc.mul %va, %vw : f32
    tgc.end %kw
    tgc.end %kh
    %s = tgc.reduce add %p over %kh, %kw : f32
    %o0 = tgc.mul %row, %c56 : index
    %o1 = tgc.add %o0, %col : index
    %o2 = tgc.mul %o1, %c144 : index
    %o = tgc.add %o2, %chan : index
    %po = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %po, %s : !tgc.ptr<f32>, f32
    tgc.end %lane
    tgc.end %cols
    tgc.end %pixlane
    tgc.end %pix
    tgc.end %row
    tgc.sink
  }
  return %k : tensor<56x56x144xf32>
}
