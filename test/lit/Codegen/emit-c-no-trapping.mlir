// The emitted C tells GCC that floating-point operations do not trap, so
// it computes under a gate without a branch: the padded copy of a biased
// Relu before a max pool (x + b under the pad's gate, then max(x, 0), -inf
// on the border), a loop tgc leaves scalar (rows of 58), is vectorized by
// GCC. With -ftrapping-math (GCC's default) it was "control flow in loop".
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// RUN: gcc -O3 -march=haswell -c %t.c -o %t.o -fopt-info-vec-all 2>&1 | FileCheck %s --check-prefix=GCC

// CHECK: #pragma GCC optimize("no-trapping-math")
// CHECK: static void net_E_1_16_58_58(
// CHECK: for (ptrdiff_t ridx2 = 0; ridx2 < 58; ridx2++) {
// CHECK: + 0.5f;
// GCC-NOT: control flow in loop
// GCC: loop vectorized using 32 byte vectors
// GCC-NOT: control flow in loop

func.func @main(%x: tensor<1x16x56x56xf32> {tgc.name = "x"}) -> (tensor<1x16x28x28xf32> {tgc.name = "y"}) {
  %b = tgc.const dense<0.5> : tensor<1x16x1x1xf32>
  %a = tgc.onnx_node "Add"(%x, %b) {opset = 17 : i64} : (tensor<1x16x56x56xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x56x56xf32>
  %r = tgc.onnx_node "Relu"(%a) {opset = 17 : i64} : (tensor<1x16x56x56xf32>) -> tensor<1x16x56x56xf32>
  %y = tgc.onnx_node "MaxPool"(%r) {opset = 17 : i64, attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : (tensor<1x16x56x56xf32>) -> tensor<1x16x28x28xf32>
  return %y : tensor<1x16x28x28xf32>
}
