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

// A strided 7x7 conv, relu and max pool whose result is a model output and
// also read on (a conv and a residual add: two kernels after the pool's
// reduce). The conv's window product, 147 times the conv's output, is
// computed inside the conv's reduce, not realized on its own.
// CHECK-LABEL: func @conv_next_to_outputs(
//       CHECK:   tgc.kernel "E_1_3_22_22"
//       CHECK:     tgc.pad
//  CHECK-NEXT:     tgc.sink
//       CHECK:   tgc.kernel "r_1_1_4_8_8_1_1_1_3_7_7"(%{{.*}}) : (tensor<1x3x22x22xf32>)
//   CHECK-NOT:   tgc.kernel "E_1_1_4_8_8_3_7_7"
//       CHECK:   tgc.kernel "E_1_4_10_10"
func.func @conv_next_to_outputs(%arg0: tensor<1x3x16x16xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %0 = tgc.const dense<0xFF800000> : tensor<1x4x10x10xf32>
  %1 = tgc.const dense<0.000000e+00> : tensor<1x1x4x8x8x1x1x1xf32>
  %2 = tgc.const dense<true> : tensor<1x4x8x8xi1>
  %3 = tgc.const dense<0.5> : tensor<4x3x7x7xf32>
  %4 = tgc.const dense<0.25> : tensor<4x4x3x3xf32>
  %5 = tgc.pad %arg0 low [0, 0, 3, 3] high [0, 0, 3, 3] : tensor<1x3x16x16xf32> -> tensor<1x3x22x22xf32>
  %6 = tgc.reshape %5 : tensor<1x3x22x22xf32> -> tensor<1x3x1x22x1x22xf32>
  %7 = tgc.expand %6 : tensor<1x3x1x22x1x22xf32> -> tensor<1x3x8x22x8x22xf32>
  %8 = tgc.reshape %7 : tensor<1x3x8x22x8x22xf32> -> tensor<1x3x176x176xf32>
  %9 = tgc.shrink %8 begin [0, 0, 0, 0] end [1, 3, 161, 161] : tensor<1x3x176x176xf32> -> tensor<1x3x161x161xf32>
  %10 = tgc.reshape %9 : tensor<1x3x161x161xf32> -> tensor<1x3x7x23x7x23xf32>
  %11 = tgc.shrink %10 begin [0, 0, 0, 0, 0, 0] end [1, 3, 7, 16, 7, 16] : tensor<1x3x7x23x7x23xf32> -> tensor<1x3x7x16x7x16xf32>
  %12 = tgc.reshape %11 : tensor<1x3x7x16x7x16xf32> -> tensor<1x3x7x8x2x7x8x2xf32>
  %13 = tgc.shrink %12 begin [0, 0, 0, 0, 0, 0, 0, 0] end [1, 3, 7, 8, 1, 7, 8, 1] : tensor<1x3x7x8x2x7x8x2xf32> -> tensor<1x3x7x8x1x7x8x1xf32>
  %14 = tgc.reshape %13 : tensor<1x3x7x8x1x7x8x1xf32> -> tensor<1x3x7x8x7x8xf32>
  %15 = tgc.permute %14 [0, 1, 3, 5, 2, 4] : tensor<1x3x7x8x7x8xf32> -> tensor<1x3x8x8x7x7xf32>
  %16 = tgc.reshape %15 : tensor<1x3x8x8x7x7xf32> -> tensor<1x1x3x8x8x7x7xf32>
  %17 = tgc.permute %16 [0, 1, 3, 4, 2, 5, 6] : tensor<1x1x3x8x8x7x7xf32> -> tensor<1x1x8x8x3x7x7xf32>
  %18 = tgc.reshape %17 : tensor<1x1x8x8x3x7x7xf32> -> tensor<1x1x1x8x8x3x7x7xf32>
  %19 = tgc.expand %18 : tensor<1x1x1x8x8x3x7x7xf32> -> tensor<1x1x4x8x8x3x7x7xf32>
  %20 = tgc.reshape %3 : tensor<4x3x7x7xf32> -> tensor<1x1x4x1x1x3x7x7xf32>
  %21 = tgc.expand %20 : tensor<1x1x4x1x1x3x7x7xf32> -> tensor<1x1x4x8x8x3x7x7xf32>
  %22 = tgc.mul %19, %21 : tensor<1x1x4x8x8x3x7x7xf32>
  %23 = tgc.reduce_axis  add %22 [5, 6, 7] : tensor<1x1x4x8x8x3x7x7xf32> -> tensor<1x1x4x8x8x1x1x1xf32>
  %24 = tgc.max %23, %1 : tensor<1x1x4x8x8x1x1x1xf32>
  %25 = tgc.reshape %24 : tensor<1x1x4x8x8x1x1x1xf32> -> tensor<1x4x8x8xf32>
  %26 = tgc.pad %25 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x10x10xf32>
  %27 = tgc.pad %2 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x4x8x8xi1> -> tensor<1x4x10x10xi1>
  %28 = tgc.where %27, %26, %0 : tensor<1x4x10x10xi1>, tensor<1x4x10x10xf32>
  %29 = tgc.reshape %28 : tensor<1x4x10x10xf32> -> tensor<1x4x1x10x1x10xf32>
  %30 = tgc.expand %29 : tensor<1x4x1x10x1x10xf32> -> tensor<1x4x4x10x4x10xf32>
  %31 = tgc.reshape %30 : tensor<1x4x4x10x4x10xf32> -> tensor<1x4x40x40xf32>
  %32 = tgc.shrink %31 begin [0, 0, 0, 0] end [1, 4, 33, 33] : tensor<1x4x40x40xf32> -> tensor<1x4x33x33xf32>
  %33 = tgc.reshape %32 : tensor<1x4x33x33xf32> -> tensor<1x4x3x11x3x11xf32>
  %34 = tgc.shrink %33 begin [0, 0, 0, 0, 0, 0] end [1, 4, 3, 8, 3, 8] : tensor<1x4x3x11x3x11xf32> -> tensor<1x4x3x8x3x8xf32>
  %35 = tgc.reshape %34 : tensor<1x4x3x8x3x8xf32> -> tensor<1x4x3x4x2x3x4x2xf32>
  %36 = tgc.shrink %35 begin [0, 0, 0, 0, 0, 0, 0, 0] end [1, 4, 3, 4, 1, 3, 4, 1] : tensor<1x4x3x4x2x3x4x2xf32> -> tensor<1x4x3x4x1x3x4x1xf32>
  %37 = tgc.reshape %36 : tensor<1x4x3x4x1x3x4x1xf32> -> tensor<1x4x3x4x3x4xf32>
  %38 = tgc.permute %37 [0, 1, 3, 5, 2, 4] : tensor<1x4x3x4x3x4xf32> -> tensor<1x4x4x4x3x3xf32>
  %39 = tgc.reduce_axis  max %38 [4, 5] : tensor<1x4x4x4x3x3xf32> -> tensor<1x4x4x4x1x1xf32>
  %40 = tgc.reshape %39 : tensor<1x4x4x4x1x1xf32> -> tensor<1x4x4x4xf32>
  %41 = tgc.pad %40 low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x4x4x4xf32> -> tensor<1x4x6x6xf32>
  %42 = tgc.reshape %41 : tensor<1x4x6x6xf32> -> tensor<1x4x1x6x1x6xf32>
  %43 = tgc.expand %42 : tensor<1x4x1x6x1x6xf32> -> tensor<1x4x4x6x4x6xf32>
  %44 = tgc.reshape %43 : tensor<1x4x4x6x4x6xf32> -> tensor<1x4x24x24xf32>
  %45 = tgc.shrink %44 begin [0, 0, 0, 0] end [1, 4, 21, 21] : tensor<1x4x24x24xf32> -> tensor<1x4x21x21xf32>
  %46 = tgc.reshape %45 : tensor<1x4x21x21xf32> -> tensor<1x4x3x7x3x7xf32>
  %47 = tgc.shrink %46 begin [0, 0, 0, 0, 0, 0] end [1, 4, 3, 4, 3, 4] : tensor<1x4x3x7x3x7xf32> -> tensor<1x4x3x4x3x4xf32>
  %48 = tgc.permute %47 [0, 1, 3, 5, 2, 4] : tensor<1x4x3x4x3x4xf32> -> tensor<1x4x4x4x3x3xf32>
  %49 = tgc.reshape %48 : tensor<1x4x4x4x3x3xf32> -> tensor<1x1x4x4x4x3x3xf32>
  %50 = tgc.permute %49 [0, 1, 3, 4, 2, 5, 6] : tensor<1x1x4x4x4x3x3xf32> -> tensor<1x1x4x4x4x3x3xf32>
  %51 = tgc.reshape %50 : tensor<1x1x4x4x4x3x3xf32> -> tensor<1x1x1x4x4x4x3x3xf32>
  %52 = tgc.expand %51 : tensor<1x1x1x4x4x4x3x3xf32> -> tensor<1x1x4x4x4x4x3x3xf32>
  %53 = tgc.reshape %4 : tensor<4x4x3x3xf32> -> tensor<1x1x4x1x1x4x3x3xf32>
  %54 = tgc.expand %53 : tensor<1x1x4x1x1x4x3x3xf32> -> tensor<1x1x4x4x4x4x3x3xf32>
  %55 = tgc.mul %52, %54 : tensor<1x1x4x4x4x4x3x3xf32>
  %56 = tgc.reduce_axis  add %55 [5, 6, 7] : tensor<1x1x4x4x4x4x3x3xf32> -> tensor<1x1x4x4x4x1x1x1xf32>
  %57 = tgc.reshape %56 : tensor<1x1x4x4x4x1x1x1xf32> -> tensor<1x4x4x4xf32>
  %58 = tgc.reshape %39 : tensor<1x4x4x4x1x1xf32> -> tensor<1x4x4x4xf32>
  %59 = tgc.add %57, %58 : tensor<1x4x4x4xf32>
  return %59, %40 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// A realized padded copy stays a copy: a BatchNormalization and Relu before
// it are realized on their own (under the border masks the C compiler
// would leave them scalar, the Relu a branch on the data). One op rides
// along.
// CHECK-LABEL: func @padded_copy(
//       CHECK:   %[[ACT:.*]] = tgc.kernel "E_1_4_8_8"(%arg0)
//       CHECK:     tgc.max
//       CHECK:   tgc.kernel "E_1_4_10_10"(%[[ACT]])
//  CHECK-NEXT:   ^bb0(%{{.*}}: tensor<1x4x8x8xf32>):
//  CHECK-NEXT:     tgc.pad
//  CHECK-NEXT:     tgc.contiguous
//  CHECK-NEXT:     tgc.sink
//       CHECK:   tgc.kernel "E_1_4_10_10n1"(%arg0)
//       CHECK:     tgc.mul
//       CHECK:     tgc.pad
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @padded_copy(%y: tensor<1x4x8x8xf32>) -> (tensor<1x4x10x10xf32>, tensor<1x4x10x10xf32>) {
  %s = tgc.const dense<0.5> : tensor<1x4x8x8xf32>
  %b = tgc.const dense<0.25> : tensor<1x4x8x8xf32>
  %z = tgc.const dense<0.0> : tensor<1x4x8x8xf32>
  %m = tgc.mul %y, %s : tensor<1x4x8x8xf32>
  %a = tgc.add %m, %b : tensor<1x4x8x8xf32>
  %r = tgc.max %a, %z : tensor<1x4x8x8xf32>
  %p = tgc.pad %r low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x10x10xf32>
  %c = tgc.contiguous %p : tensor<1x4x10x10xf32>
  %q = tgc.pad %m low [0, 0, 1, 1] high [0, 0, 1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x10x10xf32>
  %d = tgc.contiguous %q : tensor<1x4x10x10xf32>
  return %c, %d : tensor<1x4x10x10xf32>, tensor<1x4x10x10xf32>
}

// A projection and its bias, read by two kernels (a transposed copy and an
// exp): realized after the bias, in the projection's kernel, not before it
// with the bias added again in each kernel that reads it.
// CHECK-LABEL: func @projection_bias_two_kernels(
//       CHECK:   %[[Y:.*]] = tgc.kernel "r_4_16_8"({{.*}}) : ({{.*}}) -> tensor<4x16xf32>
//       CHECK:     tgc.reduce_axis add
//       CHECK:     tgc.add
//       CHECK:   tgc.kernel "E_16_4"(%[[Y]])
//   CHECK-NOT:     tgc.add
//       CHECK:   tgc.kernel "E_4_16"(%[[Y]])
//   CHECK-NOT:     tgc.add
//       CHECK:   return
func.func @projection_bias_two_kernels(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<16x4xf32>, tensor<4x16xf32>) {
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
  %t = tgc.permute %y [1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
  %c = tgc.contiguous %t : tensor<16x4xf32>
  %e = tgc.exp2 %y : tensor<4x16xf32>
  return %c, %e : tensor<16x4xf32>, tensor<4x16xf32>
}

// A matmul whose two consumers join again (x * exp2(x), as SiLU's x and
// sigmoid(x) do): one kernel, the reduce evaluated once per element. With
// a consumer that leaves on its own (a second result), or a condition on
// the way (GELU's erf takes the sign of x), the reduce is realized.
// CHECK-LABEL: func @matmul_consumers_rejoin(
//       CHECK:   tgc.kernel "r_4_16_8"
//       CHECK:     tgc.reduce_axis add
//       CHECK:     tgc.exp2
//       CHECK:     tgc.mul
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @matmul_consumers_rejoin(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x16x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %w1 = tgc.reshape %wt : tensor<16x8xf32> -> tensor<1x16x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x16x8xf32>
  %s = tgc.reduce_axis add %p [2] : tensor<4x16x8xf32> -> tensor<4x16x1xf32>
  %x = tgc.reshape %s : tensor<4x16x1xf32> -> tensor<4x16xf32>
  %e = tgc.exp2 %x : tensor<4x16xf32>
  %y = tgc.mul %x, %e : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// CHECK-LABEL: func @matmul_consumers_apart(
//       CHECK:   %[[S:.*]] = tgc.kernel "r_4_16_1_8"
//       CHECK:   tgc.kernel "E_4_16"(%[[S]])
//       CHECK:   tgc.kernel "E_4_16n1"(%[[S]])
//       CHECK:   return
func.func @matmul_consumers_apart(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x16x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %w1 = tgc.reshape %wt : tensor<16x8xf32> -> tensor<1x16x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x16x8xf32>
  %s = tgc.reduce_axis add %p [2] : tensor<4x16x8xf32> -> tensor<4x16x1xf32>
  %x = tgc.reshape %s : tensor<4x16x1xf32> -> tensor<4x16xf32>
  %e = tgc.exp2 %x : tensor<4x16xf32>
  %y = tgc.mul %x, %x : tensor<4x16xf32>
  return %e, %y : tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func @matmul_consumers_rejoin_condition(
//       CHECK:   %[[S:.*]] = tgc.kernel "r_4_16_1_8"
//       CHECK:   tgc.kernel "E_4_16"(%[[S]])
//       CHECK:   return
func.func @matmul_consumers_rejoin_condition(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x16x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %w1 = tgc.reshape %wt : tensor<16x8xf32> -> tensor<1x16x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x16x8xf32>
  %s = tgc.reduce_axis add %p [2] : tensor<4x16x8xf32> -> tensor<4x16x1xf32>
  %x = tgc.reshape %s : tensor<4x16x1xf32> -> tensor<4x16xf32>
  %z = tgc.const dense<0.0> : tensor<4x16xf32>
  %n = tgc.cmplt %x, %z : tensor<4x16xf32>
  %e = tgc.exp2 %x : tensor<4x16xf32>
  %y = tgc.where %n, %x, %e : tensor<4x16xi1>, tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// A normalization (4 ops per element) before a matmul of 64 columns is
// realized: fused, it would run again for every column tile. Over 8
// columns it fuses, and so does a Relu (1 op) over 64.
// CHECK-LABEL: func @normalized_rows_wide_matmul(
//       CHECK:   %[[N:.*]] = tgc.kernel "E_4_8"
//       CHECK:     tgc.sub
//       CHECK:   tgc.kernel "r_4_64_8"({{.*}}%[[N]]
//   CHECK-NOT:     tgc.sub
//       CHECK:   return
func.func @normalized_rows_wide_matmul(%x: tensor<4x8xf32>, %m: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<4x8xf32>, %w: tensor<8x64xf32>) -> tensor<4x64xf32> {
  %c = tgc.sub %x, %m : tensor<4x8xf32>
  %n = tgc.mul %c, %r : tensor<4x8xf32>
  %s = tgc.mul %n, %g : tensor<4x8xf32>
  %a = tgc.add %s, %g : tensor<4x8xf32>
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x64x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x64xf32> -> tensor<64x8xf32>
  %w1 = tgc.reshape %wt : tensor<64x8xf32> -> tensor<1x64x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x64x8xf32> -> tensor<4x64x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x64x8xf32>
  %y = tgc.reduce_axis add %p [2] : tensor<4x64x8xf32> -> tensor<4x64x1xf32>
  %o = tgc.reshape %y : tensor<4x64x1xf32> -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// CHECK-LABEL: func @normalized_rows_narrow_matmul(
//       CHECK:   tgc.kernel "r_4_8_8"
//       CHECK:     tgc.sub
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @normalized_rows_narrow_matmul(%x: tensor<4x8xf32>, %m: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c = tgc.sub %x, %m : tensor<4x8xf32>
  %n = tgc.mul %c, %r : tensor<4x8xf32>
  %s = tgc.mul %n, %g : tensor<4x8xf32>
  %a = tgc.add %s, %g : tensor<4x8xf32>
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x8x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  %w1 = tgc.reshape %wt : tensor<8x8xf32> -> tensor<1x8x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x8x8xf32> -> tensor<4x8x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x8x8xf32>
  %y = tgc.reduce_axis add %p [2] : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %o = tgc.reshape %y : tensor<4x8x1xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// One op on the rows is realized too: the rows are the scalar side of
// the register tile, where a Squeeze-and-Excitation scale fused into the
// 1x1 convolution after it ran once per element and column vector.
// CHECK-LABEL: func @scaled_rows_wide_matmul(
//       CHECK:   tgc.kernel "E_4_8"
//       CHECK:     tgc.mul
//       CHECK:   tgc.kernel "r_4_64_8"
//       CHECK:     tgc.mul
//   CHECK-NOT:     tgc.mul
//       CHECK:     tgc.reduce_axis
//   CHECK-NOT:   tgc.kernel
//       CHECK:   return
func.func @scaled_rows_wide_matmul(%x: tensor<4x8xf32>, %s: tensor<1x8xf32>, %w: tensor<8x64xf32>) -> tensor<4x64xf32> {
  %s1 = tgc.expand %s : tensor<1x8xf32> -> tensor<4x8xf32>
  %a = tgc.mul %x, %s1 : tensor<4x8xf32>
  %a1 = tgc.reshape %a : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %a2 = tgc.expand %a1 : tensor<4x1x8xf32> -> tensor<4x64x8xf32>
  %wt = tgc.permute %w [1, 0] : tensor<8x64xf32> -> tensor<64x8xf32>
  %w1 = tgc.reshape %wt : tensor<64x8xf32> -> tensor<1x64x8xf32>
  %w2 = tgc.expand %w1 : tensor<1x64x8xf32> -> tensor<4x64x8xf32>
  %p = tgc.mul %a2, %w2 : tensor<4x64x8xf32>
  %y = tgc.reduce_axis add %p [2] : tensor<4x64x8xf32> -> tensor<4x64x1xf32>
  %o = tgc.reshape %y : tensor<4x64x1xf32> -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}
