// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// TopK is a bitonic network: columns of comparators, each realized.

// float32 travels as one i64 key per element: the float's bits made to
// order as a signed integer (negative magnitudes flipped, -0.0 moved onto
// 0.0) above the complement of the index. The keys are made in rows of 16,
// whose positions are a row start plus one 16-element constant. Each
// comparator is a max; the other side is what is left of a ^ b. A column
// whose runs alternate direction complements the keys of every second run
// around the max.
// CHECK-LABEL: func @topk_f32(
// CHECK: %[[DIGIT:.*]] = tgc.const dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xsi64>
// CHECK: %[[ROW:.*]] = tgc.mul %{{.*}}, %{{.*}} : tensor<1xsi64>
// CHECK: %[[COLUMN16:.*]] = tgc.reshape %[[DIGIT]] : tensor<16xsi64> -> tensor<1x1x16x1xsi64>
// CHECK: %[[POSITION:.*]] = tgc.add %{{.*}}, %[[COLUMN16]] : tensor<1x1x16x1xsi64>
// CHECK: tgc.pad %{{.*}} low [0, 0, 0] high [0, 12, 0] : tensor<3x4x1xf32> -> tensor<3x16x1xf32>
// CHECK: %[[BITS:.*]] = tgc.bitcast %{{.*}} : tensor<3x1x16x1xf32> to tensor<3x1x16x1xsi32>
// CHECK: %[[SIGN:.*]] = tgc.shr %[[BITS]], %{{.*}} : tensor<3x1x16x1xsi32>
// CHECK: %[[MAGNITUDE:.*]] = tgc.and %[[SIGN]], %{{.*}} : tensor<3x1x16x1xsi32>
// CHECK: %[[FLIPPED:.*]] = tgc.xor %[[BITS]], %[[MAGNITUDE]] : tensor<3x1x16x1xsi32>
// CHECK: %[[ORDERED:.*]] = tgc.sub %[[FLIPPED]], %[[SIGN]] : tensor<3x1x16x1xsi32>
// CHECK: %[[WIDE:.*]] = tgc.cast %[[ORDERED]] : tensor<3x1x16x1xsi32> to tensor<3x1x16x1xsi64>
// CHECK: %[[INDEX:.*]] = tgc.sub %{{.*}}, %[[POSITION]] : tensor<1x1x16x1xsi64>
// CHECK: %[[HIGH:.*]] = tgc.shl %[[WIDE]], %{{.*}} : tensor<3x1x16x1xsi64>
// CHECK: %[[KEYS:.*]] = tgc.or %[[HIGH]], %{{.*}} : tensor<3x1x16x1xsi64>
// CHECK: %[[ROWS:.*]] = tgc.contiguous %[[KEYS]] : tensor<3x1x16x1xsi64>
// CHECK: %[[FLAT:.*]] = tgc.reshape %[[ROWS]] : tensor<3x1x16x1xsi64> -> tensor<3x16x1xsi64>
// CHECK: %[[REAL:.*]] = tgc.shrink %[[FLAT]] begin [0, 0, 0] end [3, 4, 1]
// Sort runs of 2, the second run of each pair the other way round.
// CHECK: %[[VIEW:.*]] = tgc.reshape %[[REAL]] : tensor<3x4x1xsi64> -> tensor<3x1x2x1x2x1x1xsi64>
// CHECK: %[[A:.*]] = tgc.shrink %[[VIEW]] begin [0, 0, 0, 0, 0, 0, 0] end [3, 1, 2, 1, 1, 1, 1]
// CHECK: %[[B:.*]] = tgc.shrink %[[VIEW]] begin [0, 0, 0, 0, 1, 0, 0] end [3, 1, 2, 1, 2, 1, 1]
// CHECK: %[[RUNS:.*]] = tgc.const dense<[0, -1]> : tensor<2xsi64>
// CHECK: %[[FLIP:.*]] = tgc.reshape %[[RUNS]] : tensor<2xsi64> -> tensor<1x1x2x1x1x1x1xsi64>
// CHECK: tgc.max
// CHECK: %[[COLUMN:.*]] = tgc.contiguous %{{.*}} : tensor<3x1x2x1x2x1x1xsi64>
// The better of the two blocks, then one column over what is left.
// CHECK: %[[BLOCKS:.*]] = tgc.reshape %[[COLUMN]] : tensor<3x1x2x1x2x1x1xsi64> -> tensor<3x1x2x2x1xsi64>
// CHECK: %[[BETTER:.*]] = tgc.max %{{.*}}, %{{.*}} : tensor<3x1x1x2x1xsi64>
// CHECK: tgc.contiguous %[[BETTER]] : tensor<3x1x1x2x1xsi64>
// CHECK-NOT: tgc.const dense<[0, -1]>
// CHECK: %[[MAX:.*]] = tgc.max %[[C:.*]], %[[D:.*]] : tensor<3x1x1x1x1xsi64>
// CHECK: %[[BOTH:.*]] = tgc.xor %[[C]], %[[D]] : tensor<3x1x1x1x1xsi64>
// CHECK: %[[MIN:.*]] = tgc.xor %[[BOTH]], %[[MAX]] : tensor<3x1x1x1x1xsi64>
// CHECK: %[[LAST:.*]] = tgc.contiguous %{{.*}} : tensor<3x1x2x1x1xsi64>
// Back to the value and the index.
// CHECK: %[[TOP:.*]] = tgc.reshape %[[LAST]] : tensor<3x1x2x1x1xsi64> -> tensor<3x2x1xsi64>
// CHECK: tgc.shr %[[TOP]], %{{.*}} : tensor<3x2x1xsi64>
// CHECK: tgc.bitcast %{{.*}} : tensor<3x2x1xsi32> to tensor<3x2x1xf32>
// CHECK: %[[LOW:.*]] = tgc.and %{{.*}}, %{{.*}} : tensor<3x2x1xsi64>
// CHECK: tgc.sub %{{.*}}, %[[LOW]] : tensor<3x2x1xsi64>
func.func @topk_f32(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xsi64>) {
  %k = tgc.const dense<2> : tensor<1xsi64>
  %0:2 = tgc.onnx_node "TopK"(%x, %k) {opset = 11 : i64} : (tensor<3x4xf32>, tensor<1xsi64>) -> (tensor<3x2xf32>, tensor<3x2xsi64>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xsi64>
}

// int64 values do not fit a key: they travel beside their indices
// (positions 0..15 from one 16-element constant), padded to whole pairs of
// blocks of 4 with the greatest value (smallest first) at index 5, past the
// axis. A comparator compares the values, then the indices on ties, and
// selects both.
// CHECK-LABEL: func @topk_i64_smallest(
// CHECK: tgc.const dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xsi64>
// CHECK: tgc.const dense<9223372036854775807> : tensor<si64>
// CHECK: tgc.const dense<5> : tensor<si64>
// CHECK: tgc.pad %{{.*}} low [0, 0, 0] high [0, 3, 0] : tensor<1x5x2xsi64> -> tensor<1x8x2xsi64>
// CHECK: %[[LESS:.*]] = tgc.cmplt %[[A:.*]], %[[B:.*]] : tensor<1x2x2x1x1x1x2xsi64>
// CHECK: %[[EARLIER:.*]] = tgc.cmplt %{{.*}}, %{{.*}} : tensor<1x2x2x1x1x1x2xsi64>
// CHECK: %[[SAME:.*]] = tgc.cmpeq %[[A]], %[[B]] : tensor<1x2x2x1x1x1x2xsi64>
// CHECK: %[[TIE:.*]] = tgc.and %[[SAME]], %[[EARLIER]]
// CHECK: %[[AHEAD:.*]] = tgc.or %[[LESS]], %[[TIE]]
// CHECK: tgc.const dense<[false, true]> : tensor<2xi1>
// CHECK: %[[FIRST:.*]] = tgc.xor %[[AHEAD]], %{{.*}} : tensor<1x2x2x1x1x1x2xi1>
// CHECK: tgc.where %[[FIRST]], %[[A]], %[[B]]
// CHECK: tgc.where %[[FIRST]]
// CHECK: tgc.where %[[FIRST]], %[[B]], %[[A]]
// CHECK: tgc.where %[[FIRST]]
// CHECK: tgc.contiguous %{{.*}} : tensor<1x2x2x1x2x1x2xsi64>
// CHECK: tgc.contiguous %{{.*}} : tensor<1x2x2x1x2x1x2xsi64>
func.func @topk_i64_smallest(%x: tensor<5x2xsi64>) -> (tensor<3x2xsi64>, tensor<3x2xsi64>) {
  %k = tgc.const dense<3> : tensor<1xsi64>
  %0:2 = tgc.onnx_node "TopK"(%x, %k) {opset = 11 : i64, attrs = {axis = 0 : i64, largest = 0 : i64}} : (tensor<5x2xsi64>, tensor<1xsi64>) -> (tensor<3x2xsi64>, tensor<3x2xsi64>)
  return %0#0, %0#1 : tensor<3x2xsi64>, tensor<3x2xsi64>
}

// A long axis and a small k: the keys are first narrowed to the groups
// whose best key is among the k best groups' bests. The 1000 keys of a row
// in 63 groups of 16 (padded with the worst key), each group's best by a
// max reduce, a network over the 63 bests (padded to 64), and the groups
// of the 5 it keeps (index over 16) gathered by a one-hot sum: 80
// candidates for the last network.
// CHECK-LABEL: func @topk_groups(
// CHECK: %[[KEYS:.*]] = tgc.where %{{.*}} : tensor<2x1008x1xi1>, tensor<2x1008x1xsi64>
// CHECK: %[[GROUPED:.*]] = tgc.reshape %[[KEYS]] : tensor<2x1008x1xsi64> -> tensor<2x63x16x1xsi64>
// CHECK: tgc.reduce_axis  max %[[GROUPED]] [2] : tensor<2x63x16x1xsi64> -> tensor<2x63x1x1xsi64>
// CHECK: tgc.pad %{{.*}} low [0, 0, 0] high [0, 1, 0] : tensor<2x63x1xsi64> -> tensor<2x64x1xsi64>
// CHECK: %[[BESTS:.*]] = tgc.shrink %{{.*}} begin [0, 0, 0] end [2, 5, 1] : tensor<2x8x1xsi64> -> tensor<2x5x1xsi64>
// CHECK: %[[LOW:.*]] = tgc.and %[[BESTS]], %{{.*}} : tensor<2x5x1xsi64>
// CHECK: %[[POSITION:.*]] = tgc.sub %{{.*}}, %[[LOW]] : tensor<2x5x1xsi64>
// CHECK: %[[SIXTEEN:.*]] = tgc.const dense<4> : tensor<2x5x1xsi64>
// CHECK: %[[CHOSEN:.*]] = tgc.shr %[[POSITION]], %[[SIXTEEN]] : tensor<2x5x1xsi64>
// CHECK: %[[NUMBERS:.*]] = tgc.const dense<[0, 1, 2, {{.*}}, 62]> : tensor<63xsi64>
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<2x5x63x1x1xsi64>
// CHECK: %[[MEMBERS:.*]] = tgc.reshape %[[KEYS]] : tensor<2x1008x1xsi64> -> tensor<2x1x63x16x1xsi64>
// CHECK: tgc.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5x63x16x1xi1>, tensor<2x5x63x16x1xsi64>
// CHECK: %[[PICKED:.*]] = tgc.reduce_axis  add %{{.*}} [2] : tensor<2x5x63x16x1xsi64> -> tensor<2x5x1x16x1xsi64>
// CHECK: tgc.reshape %[[PICKED]] : tensor<2x5x1x16x1xsi64> -> tensor<2x20x2x1x2x1x1xsi64>
// CHECK: tgc.shrink %{{.*}} begin [0, 0, 0] end [2, 5, 1] : tensor<2x8x1xsi64> -> tensor<2x5x1xsi64>
func.func @topk_groups(%x: tensor<2x1000xf32>) -> (tensor<2x5xf32>, tensor<2x5xsi64>) {
  %k = tgc.const dense<5> : tensor<1xsi64>
  %0:2 = tgc.onnx_node "TopK"(%x, %k) {opset = 11 : i64} : (tensor<2x1000xf32>, tensor<1xsi64>) -> (tensor<2x5xf32>, tensor<2x5xsi64>)
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xsi64>
}
