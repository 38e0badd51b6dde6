// RUN: tgc-opt %s --tgc-schedule | FileCheck %s
// Fusion: how many kernels each pattern becomes, and where values are
// realized instead of recomputed.

// (a + b).relu().sum() is one kernel.
// CHECK-LABEL: func @add_relu_sum(
//       CHECK:   tgc.kernel "r_1_16"
//       CHECK:     tgc.add
//       CHECK:     tgc.max
//       CHECK:     tgc.reduce_axis add
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @add_relu_sum(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<1xf32> {
  %0 = tgc.add %a, %b : tensor<16xf32>
  %z = tgc.const dense<0.0> : tensor<16xf32>
  %1 = tgc.max %0, %z : tensor<16xf32>
  %2 = tgc.reduce_axis add %1 [0] : tensor<16xf32> -> tensor<1xf32>
  return %2 : tensor<1xf32>
}

// A transpose, an exp and a mul: one kernel; the permute is index math.
// CHECK-LABEL: func @transpose_exp_mul(
//       CHECK:   tgc.kernel "E_3_2"
//       CHECK:     tgc.permute
//       CHECK:     tgc.exp2
//       CHECK:     tgc.mul
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @transpose_exp_mul(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = tgc.permute %x [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = tgc.exp2 %0 : tensor<3x2xf32>
  %2 = tgc.mul %1, %y : tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}

// MatMul + bias + Relu: one kernel. The next matmul broadcasts the result
// over its output columns, so the result is realized first: two kernels.
// CHECK-LABEL: func @matmul_bias_relu_matmul(
//       CHECK:   %[[H:.*]] = tgc.kernel "r_4_16_8"(%{{.*}}, %{{.*}}, %{{.*}})
//       CHECK:     tgc.reduce_axis add
//       CHECK:     tgc.add
//       CHECK:     tgc.max
//       CHECK:   tgc.kernel "r_4_3_16"(%{{.*}}, %[[H]])
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @matmul_bias_relu_matmul(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %v: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x16x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %w1 = tgc.reshape %wt : tensor<16x8xf32> -> tensor<1x16x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x16x8xf32>
  %s = tgc.reduce_axis add %p [2] : tensor<4x16x8xf32> -> tensor<4x16x1xf32>
  %s1 = tgc.reshape %s : tensor<4x16x1xf32> -> tensor<4x16xf32>
  %b1 = tgc.reshape %b : tensor<16xf32> -> tensor<1x16xf32>
  %b2 = tgc.expand %b1 : tensor<1x16xf32> -> tensor<4x16xf32>
  %y = tgc.add %s1, %b2 : tensor<4x16xf32>
  %z = tgc.const dense<0.0> : tensor<4x16xf32>
  %h = tgc.max %y, %z : tensor<4x16xf32>
  %h1 = tgc.reshape %h : tensor<4x16xf32> -> tensor<4x1x16xf32>
  %h2 = tgc.expand %h1 : tensor<4x1x16xf32> -> tensor<4x3x16xf32>
  %vt = tgc.permute %v [1, 0] : tensor<16x3xf32> -> tensor<3x16xf32>
  %v1 = tgc.reshape %vt : tensor<3x16xf32> -> tensor<1x3x16xf32>
  %v2 = tgc.expand %v1 : tensor<1x3x16xf32> -> tensor<4x3x16xf32>
  %q = tgc.mul %h2, %v2 : tensor<4x3x16xf32>
  %r = tgc.reduce_axis add %q [2] : tensor<4x3x16xf32> -> tensor<4x3x1xf32>
  %o = tgc.reshape %r : tensor<4x3x1xf32> -> tensor<4x3xf32>
  return %o : tensor<4x3xf32>
}

// Softmax: exp(x - max) has two consumers (the sum and the division), so it
// is realized with the max fused into it; the sum fuses into the division.
// CHECK-LABEL: func @softmax(
//       CHECK:   tgc.kernel
//       CHECK:     tgc.reduce_axis max
//       CHECK:     tgc.exp2
//       CHECK:   tgc.kernel
//       CHECK:     tgc.reduce_axis add
//       CHECK:     tgc.fdiv
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %m = tgc.reduce_axis max %x [1] : tensor<4x10xf32> -> tensor<4x1xf32>
  %me = tgc.expand %m : tensor<4x1xf32> -> tensor<4x10xf32>
  %d = tgc.sub %x, %me : tensor<4x10xf32>
  %e = tgc.exp2 %d : tensor<4x10xf32>
  %s = tgc.reduce_axis add %e [1] : tensor<4x10xf32> -> tensor<4x1xf32>
  %se = tgc.expand %s : tensor<4x1xf32> -> tensor<4x10xf32>
  %r = tgc.fdiv %e, %se : tensor<4x10xf32>
  return %r : tensor<4x10xf32>
}

// LayerNorm: two kernels (x - mean, then the variance and the scaling).
// CHECK-LABEL: func @layernorm(
//       CHECK:   tgc.kernel
//       CHECK:     tgc.reduce_axis add
//       CHECK:     tgc.sub
//       CHECK:   tgc.kernel
//       CHECK:     tgc.reduce_axis add
//       CHECK:     tgc.sqrt
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @layernorm(%x: tensor<4x8xf32>, %g: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %inv = tgc.const dense<0.125> : tensor<4x1xf32>
  %s = tgc.reduce_axis add %x [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %mean = tgc.mul %s, %inv : tensor<4x1xf32>
  %me = tgc.expand %mean : tensor<4x1xf32> -> tensor<4x8xf32>
  %d = tgc.sub %x, %me : tensor<4x8xf32>
  %d2 = tgc.mul %d, %d : tensor<4x8xf32>
  %v = tgc.reduce_axis add %d2 [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %var = tgc.mul %v, %inv : tensor<4x1xf32>
  %eps = tgc.const dense<1.0e-5> : tensor<4x1xf32>
  %ve = tgc.add %var, %eps : tensor<4x1xf32>
  %sd = tgc.sqrt %ve : tensor<4x1xf32>
  %r = tgc.recip %sd : tensor<4x1xf32>
  %re = tgc.expand %r : tensor<4x1xf32> -> tensor<4x8xf32>
  %y = tgc.mul %d, %re : tensor<4x8xf32>
  %o = tgc.mul %y, %g : tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// A column sum broadcast back over the rows: the rows loop runs outside the
// columns loop, so fusing would redo the sum per row: realized.
// CHECK-LABEL: func @outer_broadcast(
//       CHECK:   tgc.kernel "r_1_8_4"
//       CHECK:   tgc.kernel "E_4_8"
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @outer_broadcast(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = tgc.reduce_axis add %x [0] : tensor<4x8xf32> -> tensor<1x8xf32>
  %se = tgc.expand %s : tensor<1x8xf32> -> tensor<4x8xf32>
  %d = tgc.sub %x, %se : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// A row sum broadcast over the columns fuses: the sum runs once per row.
// CHECK-LABEL: func @inner_broadcast(
//       CHECK:   tgc.kernel "r_4_8_8"
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @inner_broadcast(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = tgc.reduce_axis add %x [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %se = tgc.expand %s : tensor<4x1xf32> -> tensor<4x8xf32>
  %d = tgc.sub %x, %se : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// Returning an input, a weight, or one value twice needs copy kernels.
// CHECK-LABEL: func @copies(
//  CHECK-SAME:     %[[X:.*]]: tensor<2xf32>)
//       CHECK:   %[[W:.*]] = tgc.const dense<[1.000000e+00, 2.000000e+00]>
//       CHECK:   %[[N:.*]] = tgc.kernel "E_2"(%[[X]])
//       CHECK:     tgc.neg
//       CHECK:   %[[CX:.*]] = tgc.kernel "E_2n1"(%[[X]])
//       CHECK:     tgc.contiguous
//       CHECK:   %[[CW:.*]] = tgc.kernel "E_2n2"(%[[W]])
//       CHECK:   %[[CN:.*]] = tgc.kernel "E_2n3"(%[[N]])
//       CHECK:   return %[[CX]], %[[CW]], %[[N]], %[[CN]]
func.func @copies(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %w = tgc.const dense<[1.0, 2.0]> : tensor<2xf32>
  %n = tgc.neg %x : tensor<2xf32>
  return %x, %w, %n, %n : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// A pad of a row sum: the sum is realized and the pad is its own kernel,
// rather than the sum running on the padded grid under masks.
// CHECK-LABEL: func @pad_of_reduce(
//       CHECK:   %[[S:.*]] = tgc.kernel "r_4_1_8"
//       CHECK:     tgc.reduce_axis add
//   CHECK-NOT:     tgc.pad
//       CHECK:   tgc.kernel "E_6_1"(%[[S]])
//       CHECK:     tgc.pad
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @pad_of_reduce(%x: tensor<4x8xf32>) -> tensor<6x1xf32> {
  %s = tgc.reduce_axis add %x [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = tgc.pad %s low [1, 0] high [1, 0] : tensor<4x1xf32> -> tensor<6x1xf32>
  return %p : tensor<6x1xf32>
}

// A pad of elementwise work fuses with it: one kernel.
// CHECK-LABEL: func @not_pad_of_elementwise(
//       CHECK:   tgc.kernel "E_6_8"
//       CHECK:     tgc.neg
//       CHECK:     tgc.pad
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @not_pad_of_elementwise(%x: tensor<4x8xf32>) -> tensor<6x8xf32> {
  %n = tgc.neg %x : tensor<4x8xf32>
  %p = tgc.pad %n low [1, 0] high [1, 0] : tensor<4x8xf32> -> tensor<6x8xf32>
  return %p : tensor<6x8xf32>
}
