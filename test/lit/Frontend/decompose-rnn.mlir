// RUN: tgc-opt %s --tgc-decompose | FileCheck %s
// RNN, GRU and LSTM unroll over the static sequence: one input projection
// for all steps, then per step the recurrent matmul and the gates.

// Two steps of a tanh RNN (tanh as a rational function, ending in a
// division); only Y_h is used.
// CHECK-LABEL: func @rnn_two_steps(
// CHECK: %[[XW:.*]] = tgc.reduce_axis add %{{.*}} [3] : tensor<2x1x4x3xf32> -> tensor<2x1x4x1xf32>
// CHECK: %[[P:.*]] = tgc.reshape %[[XW]] : tensor<2x1x4x1xf32> -> tensor<2x1x4xf32>
// CHECK: tgc.shrink %[[P]] begin [0, 0, 0] end [1, 1, 4]
// CHECK: tgc.reduce_axis add %{{.*}} [2] : tensor<1x4x4xf32> -> tensor<1x4x1xf32>
// CHECK: tgc.fdiv
// CHECK: tgc.shrink %[[P]] begin [1, 0, 0] end [2, 1, 4]
// CHECK: tgc.reduce_axis add %{{.*}} [2] : tensor<1x4x4xf32> -> tensor<1x4x1xf32>
// CHECK: tgc.fdiv
// CHECK: %[[H:.*]] = tgc.reshape %{{.*}} : tensor<1x4xf32> -> tensor<1x1x4xf32>
// CHECK-NEXT: return %[[H]]
func.func @rnn_two_steps(%x: tensor<2x1x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x1x4xf32> {
  %0:2 = tgc.onnx_node "RNN"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 4 : i64}} : (tensor<2x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<2x1x1x4xf32>, tensor<1x1x4xf32>)
  return %0#1 : tensor<1x1x4xf32>
}

// An LSTM's four gates are slices of one projection (i, o, f, c).
// CHECK-LABEL: func @lstm_gates(
// CHECK-DAG: tgc.shrink %{{.*}} begin [0, 0] end [1, 2] : tensor<1x8xf32> -> tensor<1x2xf32>
// CHECK-DAG: tgc.shrink %{{.*}} begin [0, 2] end [1, 4] : tensor<1x8xf32> -> tensor<1x2xf32>
// CHECK-DAG: tgc.shrink %{{.*}} begin [0, 4] end [1, 6] : tensor<1x8xf32> -> tensor<1x2xf32>
// CHECK-DAG: tgc.shrink %{{.*}} begin [0, 6] end [1, 8] : tensor<1x8xf32> -> tensor<1x2xf32>
// CHECK: return
func.func @lstm_gates(%x: tensor<1x1x3xf32>, %w: tensor<1x8x3xf32>, %r: tensor<1x8x2xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x2xf32>) {
  %0:3 = tgc.onnx_node "LSTM"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 2 : i64}} : (tensor<1x1x3xf32>, tensor<1x8x3xf32>, tensor<1x8x2xf32>) -> (tensor<1x1x1x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>)
  return %0#1, %0#2 : tensor<1x1x2xf32>, tensor<1x1x2xf32>
}

// Y of a bidirectional GRU: each direction's steps concatenated and
// realized, then the two directions, so that no kernel selects among the
// steps of both.
// CHECK-LABEL: func @gru_bidirectional_y(
// CHECK: %[[FORWARD:.*]] = tgc.contiguous %{{.*}} : tensor<2x1x1x4xf32>
// CHECK: %[[BACKWARD:.*]] = tgc.contiguous %{{.*}} : tensor<2x1x1x4xf32>
// CHECK: tgc.pad %[[FORWARD]] low [0, 0, 0, 0] high [0, 1, 0, 0] : tensor<2x1x1x4xf32> -> tensor<2x2x1x4xf32>
// CHECK: tgc.pad %[[BACKWARD]] low [0, 1, 0, 0] high [0, 0, 0, 0] : tensor<2x1x1x4xf32> -> tensor<2x2x1x4xf32>
func.func @gru_bidirectional_y(%x: tensor<2x1x3xf32>, %w: tensor<2x12x3xf32>, %r: tensor<2x12x4xf32>) -> tensor<2x2x1x4xf32> {
  %0:2 = tgc.onnx_node "GRU"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 4 : i64, direction = "bidirectional"}} : (tensor<2x1x3xf32>, tensor<2x12x3xf32>, tensor<2x12x4xf32>) -> (tensor<2x2x1x4xf32>, tensor<2x1x4xf32>)
  return %0#0 : tensor<2x2x1x4xf32>
}

// Y of 130 steps: the first 128 concatenated and realized, then the last
// 2, then the two runs.
// CHECK-LABEL: func @rnn_many_steps_y(
// CHECK: %[[RUN1:.*]] = tgc.contiguous %{{.*}} : tensor<128x1x1x4xf32>
// CHECK: %[[RUN2:.*]] = tgc.contiguous %{{.*}} : tensor<2x1x1x4xf32>
// CHECK: tgc.pad %[[RUN1]] low [0, 0, 0, 0] high [2, 0, 0, 0] : tensor<128x1x1x4xf32> -> tensor<130x1x1x4xf32>
// CHECK: tgc.pad %[[RUN2]] low [128, 0, 0, 0] high [0, 0, 0, 0] : tensor<2x1x1x4xf32> -> tensor<130x1x1x4xf32>
func.func @rnn_many_steps_y(%x: tensor<130x1x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<130x1x1x4xf32> {
  %0:2 = tgc.onnx_node "RNN"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 4 : i64}} : (tensor<130x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<130x1x1x4xf32>, tensor<1x1x4xf32>)
  return %0#0 : tensor<130x1x1x4xf32>
}
