// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// The training losses: the class of each target is a one-hot compare with an
// arange over the class axis, the picked log-probability a where-select
// summed over that axis.

// ignore_index masks the loss and the weight of its targets; the mean
// divides by the sum of the weights that count.
// CHECK-LABEL: func @nll_mean_weight_ignore(
// CHECK: %[[IDS:.*]] = tgc.const dense<[0, 1, 2]> : tensor<3xsi64>
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<2x3x4xsi64>
// CHECK: %[[PICK:.*]] = tgc.where %[[HIT]], %arg0, %{{.*}} : tensor<2x3x4xi1>, tensor<2x3x4xf32>
// CHECK: tgc.reduce_axis add %[[PICK]] [1] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK: %[[II:.*]] = tgc.const dense<1> : tensor<2x4xsi64>
// CHECK: %[[VALID:.*]] = tgc.cmpne %arg1, %[[II]] : tensor<2x4xsi64>
// CHECK: %[[W:.*]] = tgc.reshape %arg2 : tensor<3xf32> -> tensor<1x3x1xf32>
// CHECK: %[[WALL:.*]] = tgc.expand %[[W]]
// CHECK: tgc.where %[[HIT]], %[[WALL]], %{{.*}}
// CHECK: %[[WSUM:.*]] = tgc.reduce_axis add %{{.*}} [1]
// CHECK: %[[EW:.*]] = tgc.where %[[VALID]], %{{.*}}, %{{.*}} : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK: %[[NEG:.*]] = tgc.neg
// CHECK: %[[LOSS:.*]] = tgc.where %[[VALID]], %[[NEG]], %{{.*}}
// CHECK: %[[WL:.*]] = tgc.mul %[[LOSS]], %[[EW]] : tensor<2x4xf32>
// CHECK: %[[NUM:.*]] = tgc.reduce_axis add %[[WL]] [0, 1] : tensor<2x4xf32> -> tensor<1x1xf32>
// CHECK: %[[DEN:.*]] = tgc.reduce_axis add %[[EW]] [0, 1] : tensor<2x4xf32> -> tensor<1x1xf32>
// CHECK: %[[N:.*]] = tgc.reshape %[[NUM]] : tensor<1x1xf32> -> tensor<f32>
// CHECK: %[[D:.*]] = tgc.reshape %[[DEN]] : tensor<1x1xf32> -> tensor<f32>
// CHECK: %[[R:.*]] = tgc.fdiv %[[N]], %[[D]] : tensor<f32>
// CHECK: return %[[R]]
func.func @nll_mean_weight_ignore(%x: tensor<2x3x4xf32>, %t: tensor<2x4xsi64>, %w: tensor<3xf32>) -> tensor<f32> {
  %0 = tgc.onnx_node "NegativeLogLikelihoodLoss"(%x, %t, %w) {opset = 13 : i64, attrs = {ignore_index = 1 : i64}} : (tensor<2x3x4xf32>, tensor<2x4xsi64>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Without weights or ignore_index the mean divides by the element count.
// CHECK-LABEL: func @nll_mean_plain(
// CHECK-NOT: tgc.cmpne
// CHECK: %[[S:.*]] = tgc.reduce_axis add %{{.*}} [0] : tensor<5xf32> -> tensor<1xf32>
// CHECK-DAG: %[[C:.*]] = tgc.const dense<5.000000e+00> : tensor<f32>
// CHECK-DAG: %[[T:.*]] = tgc.reshape %[[S]] : tensor<1xf32> -> tensor<f32>
// CHECK: tgc.fdiv %[[T]], %[[C]] : tensor<f32>
func.func @nll_mean_plain(%x: tensor<5x3xf32>, %t: tensor<5xsi64>) -> tensor<f32> {
  %0 = tgc.onnx_node "NegativeLogLikelihoodLoss"(%x, %t) {opset = 13 : i64} : (tensor<5x3xf32>, tensor<5xsi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// SoftmaxCrossEntropyLoss is the NLL of log_softmax over axis 1, whose
// value is also the optional second output.
// CHECK-LABEL: func @sce_none_log_prob(
// CHECK: tgc.reduce_axis max %arg0 [1]
// CHECK: tgc.exp2
// CHECK: tgc.log2
// CHECK: %[[LP:.*]] = tgc.sub %{{.*}}, %{{.*}} : tensor<2x3xf32>
// CHECK: %[[HIT:.*]] = tgc.cmpeq %{{.*}}, %{{.*}} : tensor<2x3xsi32>
// CHECK: tgc.where %[[HIT]], %[[LP]], %{{.*}}
// CHECK: tgc.reduce_axis add %{{.*}} [1] : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK: %[[L:.*]] = tgc.neg %{{.*}} : tensor<2xf32>
// CHECK: return %[[L]], %[[LP]]
func.func @sce_none_log_prob(%x: tensor<2x3xf32>, %t: tensor<2xsi32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %0:2 = tgc.onnx_node "SoftmaxCrossEntropyLoss"(%x, %t) {opset = 13 : i64, attrs = {reduction = "none"}} : (tensor<2x3xf32>, tensor<2xsi32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2x3xf32>
}
