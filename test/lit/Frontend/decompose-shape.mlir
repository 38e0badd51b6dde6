// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// Shape and data-movement ops become movement primitives (reshape, permute,
// expand, pad, shrink, flip); values known from static shapes become
// constants.

// Reshape's 0 copies a dim and -1 takes the rest.
// CHECK-LABEL: func @reshape(
// CHECK: %[[R:.*]] = tgc.reshape %arg0 : tensor<2x3x4xf32> -> tensor<2x12xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %s = tgc.const dense<[0, -1]> : tensor<2xsi64>
  %0 = tgc.onnx_node "Reshape"(%x, %s) {opset = 14 : i64} : (tensor<2x3x4xf32>, tensor<2xsi64>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// CHECK-LABEL: func @flatten_squeeze_unsqueeze(
// CHECK-NEXT: %[[F:.*]] = tgc.reshape %arg0 : tensor<2x1x3xf32> -> tensor<2x3xf32>
// CHECK: %[[S:.*]] = tgc.reshape %arg0 : tensor<2x1x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[U:.*]] = tgc.reshape %arg0 : tensor<2x1x3xf32> -> tensor<1x2x1x3x1xf32>
// CHECK-NEXT: return %[[F]], %[[S]], %[[U]]
func.func @flatten_squeeze_unsqueeze(%x: tensor<2x1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x2x1x3x1xf32>) {
  %0 = tgc.onnx_node "Flatten"(%x) {opset = 13 : i64, attrs = {axis = 2 : i64}} : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
  %axes = tgc.const dense<[1]> : tensor<1xsi64>
  %1 = tgc.onnx_node "Squeeze"(%x, %axes) {opset = 13 : i64} : (tensor<2x1x3xf32>, tensor<1xsi64>) -> tensor<2x3xf32>
  %2 = tgc.onnx_node "Unsqueeze"(%x) {opset = 11 : i64, attrs = {axes = array<i64: 0, -1>}} : (tensor<2x1x3xf32>) -> tensor<1x2x1x3x1xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x2x1x3x1xf32>
}

// CHECK-LABEL: func @transpose(
// CHECK-NEXT: tgc.permute %arg0 [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: tgc.permute %arg0 [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<3x2x4xf32>) {
  %0 = tgc.onnx_node "Transpose"(%x) {opset = 13 : i64} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = tgc.onnx_node "Transpose"(%x) {opset = 13 : i64, attrs = {perm = array<i64: 1, 0, 2>}} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return %0, %1 : tensor<4x3x2xf32>, tensor<3x2x4xf32>
}

// Concat pads each part to the full size and selects each where it lies
// (floats: exact for -0.0, and a select at a known position folds), or
// ors them (i1).
// CHECK-LABEL: func @concat(
// CHECK-NEXT: %[[A:.*]] = tgc.pad %arg0 low [0, 0] high [0, 1] : tensor<2x3xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[B:.*]] = tgc.pad %arg1 low [0, 3] high [0, 0] : tensor<2x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[ONES:.*]] = tgc.const dense<true> : tensor<2x1xi1>
// CHECK-NEXT: %[[WHERE:.*]] = tgc.pad %[[ONES]] low [0, 3] high [0, 0] : tensor<2x1xi1> -> tensor<2x4xi1>
// CHECK-NEXT: tgc.where %[[WHERE]], %[[B]], %[[A]] : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK-NEXT: %[[C:.*]] = tgc.pad %arg2 low [0, 0] high [2, 0] : tensor<2x2xi1> -> tensor<4x2xi1>
// CHECK-NEXT: %[[D:.*]] = tgc.pad %arg3 low [2, 0] high [0, 0] : tensor<2x2xi1> -> tensor<4x2xi1>
// CHECK-NEXT: tgc.or %[[C]], %[[D]] : tensor<4x2xi1>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>, %c: tensor<2x2xi1>, %d: tensor<2x2xi1>) -> (tensor<2x4xf32>, tensor<4x2xi1>) {
  %0 = tgc.onnx_node "Concat"(%a, %b) {opset = 13 : i64, attrs = {axis = -1 : i64}} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %1 = tgc.onnx_node "Concat"(%c, %d) {opset = 13 : i64, attrs = {axis = 0 : i64}} : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<4x2xi1>
  return %0, %1 : tensor<2x4xf32>, tensor<4x2xi1>
}

// Rows 1, 3, .., 9 (the end clamped), then columns 5 and 2 (negative step:
// a flip, then every third).
// CHECK-LABEL: func @slice(
// CHECK: %[[S:.*]] = tgc.shrink %arg0 begin [1, 0] end [10, 6] : tensor<10x6xf32> -> tensor<9x6xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.pad %[[S]] low [0, 0] high [1, 0] : tensor<9x6xf32> -> tensor<10x6xf32>
// CHECK-NEXT: %[[V:.*]] = tgc.reshape %[[P]] : tensor<10x6xf32> -> tensor<5x2x6xf32>
// CHECK-NEXT: %[[K:.*]] = tgc.shrink %[[V]] begin [0, 0, 0] end [5, 1, 6]
// CHECK-NEXT: %[[ROWS:.*]] = tgc.reshape %[[K]] : tensor<5x1x6xf32> -> tensor<5x6xf32>
// CHECK-NEXT: %[[F:.*]] = tgc.flip %[[ROWS]] [1] : tensor<5x6xf32> -> tensor<5x6xf32>
// CHECK-NEXT: %[[V2:.*]] = tgc.reshape %[[F]] : tensor<5x6xf32> -> tensor<5x2x3xf32>
// CHECK-NEXT: %[[K2:.*]] = tgc.shrink %[[V2]] begin [0, 0, 0] end [5, 2, 1]
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %[[K2]] : tensor<5x2x1xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @slice(%x: tensor<10x6xf32>) -> tensor<5x2xf32> {
  %starts = tgc.const dense<[1, -1]> : tensor<2xsi64>
  %ends = tgc.const dense<[1000, -9223372036854775807]> : tensor<2xsi64>
  %axes = tgc.const dense<[0, 1]> : tensor<2xsi64>
  %steps = tgc.const dense<[2, -3]> : tensor<2xsi64>
  %0 = tgc.onnx_node "Slice"(%x, %starts, %ends, %axes, %steps) {opset = 13 : i64} : (tensor<10x6xf32>, tensor<2xsi64>, tensor<2xsi64>, tensor<2xsi64>, tensor<2xsi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// Before opset 10 the bounds are attributes; a unit step is one shrink.
// CHECK-LABEL: func @slice_legacy(
// CHECK-NEXT: %[[S:.*]] = tgc.shrink %arg0 begin [0, 2] end [10, 4] : tensor<10x6xf32> -> tensor<10x2xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_legacy(%x: tensor<10x6xf32>) -> tensor<10x2xf32> {
  %0 = tgc.onnx_node "Slice"(%x) {opset = 9 : i64, attrs = {starts = array<i64: 2>, ends = array<i64: 4>, axes = array<i64: 1>}} : (tensor<10x6xf32>) -> tensor<10x2xf32>
  return %0 : tensor<10x2xf32>
}

// Constant indices in progression are a strided slice; others a one-hot
// select summed over the gathered axis.
// CHECK-LABEL: func @gather_const(
// CHECK: %[[ROW:.*]] = tgc.shrink %arg0 begin [3, 0] end [4, 3] : tensor<5x3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: tgc.reshape %[[ROW]] : tensor<1x3xf32> -> tensor<3xf32>
// CHECK: tgc.pad %arg0 low [0, 0] high [0, 1] : tensor<5x3xf32> -> tensor<5x4xf32>
// CHECK-NEXT: tgc.reshape %{{.*}} : tensor<5x4xf32> -> tensor<5x2x2xf32>
// CHECK-NEXT: tgc.shrink %{{.*}} begin [0, 0, 0] end [5, 2, 1]
// CHECK-NEXT: tgc.reshape %{{.*}} : tensor<5x2x1xf32> -> tensor<5x2xf32>
// CHECK-NEXT: %[[IDX:.*]] = tgc.const dense<{{\[\[}}4, 0], [1, 1]]> : tensor<2x2xsi64>
// CHECK-NOT: tgc.cmplt
// CHECK: %[[AR:.*]] = tgc.const dense<[0, 1, 2, 3, 4]> : tensor<5xsi64>
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<2x2x5x1xsi64>
// CHECK: %[[SEL:.*]] = tgc.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x2x5x3xi1>, tensor<2x2x5x3xf32>
// CHECK-NEXT: %[[SUM:.*]] = tgc.reduce_axis add %[[SEL]] [2] : tensor<2x2x5x3xf32> -> tensor<2x2x1x3xf32>
// CHECK-NEXT: tgc.reshape %[[SUM]] : tensor<2x2x1x3xf32> -> tensor<2x2x3xf32>
func.func @gather_const(%x: tensor<5x3xf32>) -> (tensor<3xf32>, tensor<5x2xf32>, tensor<2x2x3xf32>) {
  %i = tgc.const dense<-2> : tensor<si64>
  %0 = tgc.onnx_node "Gather"(%x, %i) {opset = 13 : i64} : (tensor<5x3xf32>, tensor<si64>) -> tensor<3xf32>
  %j = tgc.const dense<[0, 2]> : tensor<2xsi64>
  %1 = tgc.onnx_node "Gather"(%x, %j) {opset = 13 : i64, attrs = {axis = 1 : i64}} : (tensor<5x3xf32>, tensor<2xsi64>) -> tensor<5x2xf32>
  %k = tgc.const dense<[[4, 0], [1, 1]]> : tensor<2x2xsi64>
  %2 = tgc.onnx_node "Gather"(%x, %k) {opset = 13 : i64} : (tensor<5x3xf32>, tensor<2x2xsi64>) -> tensor<2x2x3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<5x2xf32>, tensor<2x2x3xf32>
}

// Indices known only at run time: negative ones wrap first.
// CHECK-LABEL: func @gather_runtime(
// CHECK-NEXT: %[[Z:.*]] = tgc.const dense<0> : tensor<4xsi32>
// CHECK-NEXT: %[[NEG:.*]] = tgc.cmplt %arg1, %[[Z]]
// CHECK-NEXT: %[[N:.*]] = tgc.const dense<5> : tensor<4xsi32>
// CHECK-NEXT: %[[W:.*]] = tgc.add %arg1, %[[N]]
// CHECK-NEXT: %[[I:.*]] = tgc.where %[[NEG]], %[[W]], %arg1
// CHECK-NEXT: tgc.const dense<[0, 1, 2, 3, 4]> : tensor<5xsi32>
// CHECK-NEXT: tgc.reshape %[[I]] : tensor<4xsi32> -> tensor<4x1x1xsi32>
// CHECK: tgc.cmpeq
// CHECK: tgc.reduce_axis add %{{.*}} [1] : tensor<4x5x3xf32> -> tensor<4x1x3xf32>
func.func @gather_runtime(%x: tensor<5x3xf32>, %i: tensor<4xsi32>) -> tensor<4x3xf32> {
  %0 = tgc.onnx_node "Gather"(%x, %i) {opset = 13 : i64} : (tensor<5x3xf32>, tensor<4xsi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Tile is tinygrad's repeat: reshape, expand, reshape.
// CHECK-LABEL: func @expand_tile(
// CHECK: %[[R:.*]] = tgc.reshape %arg0 : tensor<3x1xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: tgc.expand %[[R]] : tensor<1x3x1xf32> -> tensor<2x3x4xf32>
// CHECK: %[[T:.*]] = tgc.reshape %arg0 : tensor<3x1xf32> -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[TE:.*]] = tgc.expand %[[T]] : tensor<1x3x1x1xf32> -> tensor<2x3x2x1xf32>
// CHECK-NEXT: tgc.reshape %[[TE]] : tensor<2x3x2x1xf32> -> tensor<6x2xf32>
func.func @expand_tile(%x: tensor<3x1xf32>) -> (tensor<2x3x4xf32>, tensor<6x2xf32>) {
  %s = tgc.const dense<[2, 1, 4]> : tensor<3xsi64>
  %0 = tgc.onnx_node "Expand"(%x, %s) {opset = 13 : i64} : (tensor<3x1xf32>, tensor<3xsi64>) -> tensor<2x3x4xf32>
  %r = tgc.const dense<[2, 2]> : tensor<2xsi64>
  %1 = tgc.onnx_node "Tile"(%x, %r) {opset = 13 : i64} : (tensor<3x1xf32>, tensor<2xsi64>) -> tensor<6x2xf32>
  return %0, %1 : tensor<2x3x4xf32>, tensor<6x2xf32>
}

// CHECK-LABEL: func @split(
// CHECK: %[[A:.*]] = tgc.shrink %arg0 begin [0, 0] end [2, 3] : tensor<2x7xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = tgc.shrink %arg0 begin [0, 3] end [2, 7] : tensor<2x7xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @split(%x: tensor<2x7xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>) {
  %s = tgc.const dense<[3, 4]> : tensor<2xsi64>
  %0:2 = tgc.onnx_node "Split"(%x, %s) {opset = 13 : i64, attrs = {axis = 1 : i64}} : (tensor<2x7xf32>, tensor<2xsi64>) -> (tensor<2x3xf32>, tensor<2x4xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x4xf32>
}

// Constant mode: a negative pad shrinks, a non-zero value is selected
// outside a padded mask. Edge and reflect concatenate views of the borders.
// CHECK-LABEL: func @pad(
// CHECK: %[[FILL:.*]] = tgc.const dense<1.500000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = tgc.shrink %arg0 begin [0, 1] end [2, 3] : tensor<2x3xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.pad %[[S]] low [0, 0] high [0, 2] : tensor<2x2xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[ONES:.*]] = tgc.const dense<true> : tensor<2x2xi1>
// CHECK-NEXT: %[[MASK:.*]] = tgc.pad %[[ONES]] low [0, 0] high [0, 2]
// CHECK-NEXT: %[[FR:.*]] = tgc.reshape %[[FILL]] : tensor<f32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[FE:.*]] = tgc.expand %[[FR]] : tensor<1x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: tgc.where %[[MASK]], %[[P]], %[[FE]] : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK: %[[FIRST:.*]] = tgc.shrink %arg0 begin [0, 0] end [2, 1]
// CHECK-NEXT: %[[LAST:.*]] = tgc.shrink %arg0 begin [0, 2] end [2, 3]
// CHECK-NEXT: %[[TWICE:.*]] = tgc.expand %[[LAST]] : tensor<2x1xf32> -> tensor<2x2xf32>
// CHECK: %[[MIRROR:.*]] = tgc.shrink %arg0 begin [0, 0] end [2, 2]
// CHECK-NEXT: tgc.flip %[[MIRROR]] [1] : tensor<2x2xf32> -> tensor<2x2xf32>
func.func @pad(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x6xf32>, tensor<2x6xf32>) {
  %p = tgc.const dense<[0, -1, 0, 2]> : tensor<4xsi64>
  %v = tgc.const dense<1.5> : tensor<f32>
  %0 = tgc.onnx_node "Pad"(%x, %p, %v) {opset = 13 : i64} : (tensor<2x3xf32>, tensor<4xsi64>, tensor<f32>) -> tensor<2x4xf32>
  %q = tgc.const dense<[0, 1, 0, 2]> : tensor<4xsi64>
  %1 = tgc.onnx_node "Pad"(%x, %q) {opset = 13 : i64, attrs = {mode = "edge"}} : (tensor<2x3xf32>, tensor<4xsi64>) -> tensor<2x6xf32>
  %2 = tgc.onnx_node "Pad"(%x, %q) {opset = 13 : i64, attrs = {mode = "reflect"}} : (tensor<2x3xf32>, tensor<4xsi64>) -> tensor<2x6xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x6xf32>, tensor<2x6xf32>
}

// CHECK-LABEL: func @values_from_shapes(
// CHECK-DAG: %[[SHAPE:.*]] = tgc.const dense<[2, 3]> : tensor<2xsi64>
// CHECK-DAG: %[[SIZE:.*]] = tgc.const dense<6> : tensor<si64>
// CHECK-DAG: %[[FULL:.*]] = tgc.const dense<7> : tensor<2x2xsi32>
// CHECK-DAG: %[[RANGE:.*]] = tgc.const dense<[1.000000e+00, 1.500000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK: return %[[SHAPE]], %[[SIZE]], %[[FULL]], %[[RANGE]]
func.func @values_from_shapes(%x: tensor<2x3xf32>) -> (tensor<2xsi64>, tensor<si64>, tensor<2x2xsi32>, tensor<3xf32>) {
  %0 = tgc.onnx_node "Shape"(%x) {opset = 15 : i64} : (tensor<2x3xf32>) -> tensor<2xsi64>
  %1 = tgc.onnx_node "Size"(%x) {opset = 13 : i64} : (tensor<2x3xf32>) -> tensor<si64>
  %2 = tgc.onnx_node "ConstantOfShape"(%0) {opset = 9 : i64, attrs = {value = dense<7> : tensor<1xsi32>}} : (tensor<2xsi64>) -> tensor<2x2xsi32>
  %a = tgc.const dense<1.0> : tensor<f32>
  %b = tgc.const dense<2.5> : tensor<f32>
  %c = tgc.const dense<0.5> : tensor<f32>
  %3 = tgc.onnx_node "Range"(%a, %b, %c) {opset = 11 : i64} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2xsi64>, tensor<si64>, tensor<2x2xsi32>, tensor<3xf32>
}

// CHECK-LABEL: func @depth_to_space(
// CHECK-NEXT: %[[R:.*]] = tgc.reshape %arg0 : tensor<1x8x2x3xf32> -> tensor<1x2x2x2x2x3xf32>
// CHECK-NEXT: %[[P:.*]] = tgc.permute %[[R]] [0, 3, 4, 1, 5, 2]
// CHECK-NEXT: tgc.reshape %[[P]] : tensor<1x2x2x2x3x2xf32> -> tensor<1x2x4x6xf32>
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = tgc.onnx_node "DepthToSpace"(%x) {opset = 13 : i64, attrs = {blocksize = 2 : i64}} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// GatherElements: the indices grow a data-sized axis, compared with a range.
// CHECK-LABEL: func @gather_elements(
// CHECK: %[[I:.*]] = tgc.where %{{.*}}, %{{.*}}, %arg1 : tensor<2x4xi1>, tensor<2x4xsi64>
// CHECK-NEXT: %[[AR:.*]] = tgc.const dense<[0, 1, 2]> : tensor<3xsi64>
// CHECK-NEXT: %[[IR:.*]] = tgc.reshape %[[I]] : tensor<2x4xsi64> -> tensor<2x1x4xsi64>
// CHECK: tgc.cmpeq %{{.*}}, %{{.*}} : tensor<2x3x4xsi64>
// CHECK: %[[D:.*]] = tgc.reshape %arg0 : tensor<3x4xf32> -> tensor<1x3x4xf32>
// CHECK: %[[S:.*]] = tgc.reduce_axis add %{{.*}} [1] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT: tgc.reshape %[[S]] : tensor<2x1x4xf32> -> tensor<2x4xf32>
func.func @gather_elements(%d: tensor<3x4xf32>, %i: tensor<2x4xsi64>) -> tensor<2x4xf32> {
  %0 = tgc.onnx_node "GatherElements"(%d, %i) {opset = 13 : i64, attrs = {axis = 0 : i64}} : (tensor<3x4xf32>, tensor<2x4xsi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// A constant k makes Trilu's mask a constant.
// CHECK-LABEL: func @trilu(
// CHECK: %[[M:.*]] = tgc.const dense<{{\[\[}}true, true, false, false], [true, true, true, false], [true, true, true, true]]> : tensor<3x4xi1>
// CHECK: tgc.where %[[M]], %arg0, %{{.*}} : tensor<3x4xi1>, tensor<3x4xf32>
func.func @trilu(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %k = tgc.const dense<1> : tensor<si64>
  %0 = tgc.onnx_node "Trilu"(%x, %k) {opset = 14 : i64, attrs = {upper = 0 : i64}} : (tensor<3x4xf32>, tensor<si64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
