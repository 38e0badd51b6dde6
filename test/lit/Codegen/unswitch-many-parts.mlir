// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s < %t.c
// An LSTM's output concatenates one part per time step: 80 here. The time
// axis is split where its parts' gates change, into one step per part:
// each is the inner loop once, reading only its own part, so the copies
// are small however many parts there are, with no select over 80 gated
// loads per element (which made a 100-step LSTM 7x slower than ONNX
// Runtime) and no test of the step. (Scalar max and min, in the last step's
// tanh, are conditional expressions too, but over no load.)
// CHECK-LABEL: static void net_E_80_1_1_4(
// CHECK-NOT: ? data
// CHECK-NOT: if (
// CHECK: for (ptrdiff_t ridx1 = 0; ridx1 < 4; ridx1++) {
// CHECK-NEXT: float val0 = data0[ridx1];
// CHECK: [[Y:data[0-9]+]][ridx1] =
// CHECK: for (ptrdiff_t ridx1 = 0; ridx1 < 4; ridx1++) {
// CHECK-NEXT: ptrdiff_t [[SECOND:alu[0-9]+]] = ridx1 + 4;
// CHECK-NEXT: float {{.*}} = data1[ridx1];
// CHECK: [[Y]]{{\[}}[[SECOND]]{{\]}} =
// CHECK: ptrdiff_t [[LAST:alu[0-9]+]] = ridx1 + 316;
// CHECK-NOT: ? data
// CHECK: [[Y]]{{\[}}[[LAST]]{{\]}} =
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @main(%x: tensor<80x1x2xf32>) -> tensor<80x1x1x4xf32> {
  %w = tgc.const dense<0.25> : tensor<1x16x2xf32>
  %r = tgc.const dense<0.125> : tensor<1x16x4xf32>
  %y:3 = tgc.onnx_node "LSTM"(%x, %w, %r) {opset = 14 : i64, attrs = {hidden_size = 4 : i64}} : (tensor<80x1x2xf32>, tensor<1x16x2xf32>, tensor<1x16x4xf32>) -> (tensor<80x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
  return %y#0 : tensor<80x1x1x4xf32>
}
