// A 3x3 max pool of stride 2 over a concatenation of two 64-channel
// tensors, channels last (SqueezeNet's fire modules with
// --conv-layout nhwc), for AVX-512. The parts meet at channel 64, between
// vectors of 16: each lane's gate `16*v + k < 64` is the same for every
// lane k, so the channels are the vector's lanes, the loop is written once
// per part (on one thread, and split into a task per part on two) and
// every load is a whole vector. When the gate counted as moving along the
// channels, the pool ran scalar, 20x slower.
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=0" | tgc-translate --emit-c > %t.c
// RUN: FileCheck %s --implicit-check-not="_lane(val" --implicit-check-not="float val" < %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -fsyntax-only %t.c
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=skylake-avx512 thread-tasks=2" | tgc-translate --emit-c > %t2.c
// RUN: FileCheck %s --check-prefix=TASKS --implicit-check-not="_lane(val" --implicit-check-not="float val" < %t2.c

// CHECK: /* opts: UPCAST(2,16) UPCAST(2,4) */
// CHECK: if (
// CHECK-COUNT-4: tgc_f32x16_load(data0 +
// CHECK: if (
// CHECK-COUNT-4: tgc_f32x16_load(data1 +
// CHECK-COUNT-4: tgc_f32x16_store(data2 +

// TASKS: /* opts: UPCAST(2,16) UPCAST(2,4) THREAD(2,2) */
// TASKS: ptrdiff_t [[TASK:ridx[0-9]+]] = task;
// TASKS: bool [[FIRST:alu[0-9]+]] = [[TASK]] < 1;
// TASKS-NEXT: if ([[FIRST]]) {
// TASKS-COUNT-4: tgc_f32x16_load(data0 +
// TASKS: bool [[SECOND:alu[0-9]+]] = 0 < [[TASK]];
// TASKS-NEXT: if ([[SECOND]]) {
// TASKS-COUNT-4: tgc_f32x16_load(data1 +

func.func @main(%a: tensor<1x27x27x64xf32> {tgc.name = "a"}, %b: tensor<1x27x27x64xf32> {tgc.name = "b"}) -> (tensor<1x13x13x128xf32> {tgc.name = "y"}) {
  %an = tgc.onnx_node "Transpose"(%a) {opset = 17 : i64, attrs = {perm = array<i64: 0, 3, 1, 2>}} : (tensor<1x27x27x64xf32>) -> tensor<1x64x27x27xf32>
  %bn = tgc.onnx_node "Transpose"(%b) {opset = 17 : i64, attrs = {perm = array<i64: 0, 3, 1, 2>}} : (tensor<1x27x27x64xf32>) -> tensor<1x64x27x27xf32>
  %c = tgc.onnx_node "Concat"(%an, %bn) {opset = 17 : i64, attrs = {axis = 1 : i64}} : (tensor<1x64x27x27xf32>, tensor<1x64x27x27xf32>) -> tensor<1x128x27x27xf32>
  %p = tgc.onnx_node "MaxPool"(%c) {opset = 17 : i64, attrs = {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>}} : (tensor<1x128x27x27xf32>) -> tensor<1x128x13x13xf32>
  %y = tgc.onnx_node "Transpose"(%p) {opset = 17 : i64, attrs = {perm = array<i64: 0, 2, 3, 1>}} : (tensor<1x128x13x13xf32>) -> tensor<1x13x13x128xf32>
  return %y : tensor<1x13x13x128xf32>
}
