// RUN: tgc-opt %s --tgc-simplify | FileCheck %s
// Each rule of tgc-simplify, with a case that must stay as it is.

// x * 1 => x
// CHECK-LABEL: func @mul_one(
//  CHECK-SAME:     %[[X:.*]]: tensor<4xf32>)
//  CHECK-NEXT:   return %[[X]]
func.func @mul_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = tgc.const dense<1.0> : tensor<4xf32>
  %0 = tgc.mul %x, %one : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// 1 * x => x (the constant on the left)
// CHECK-LABEL: func @one_mul(
//  CHECK-SAME:     %[[X:.*]]: tensor<4xf32>)
//  CHECK-NEXT:   return %[[X]]
func.func @one_mul(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = tgc.const dense<1.0> : tensor<4xf32>
  %0 = tgc.mul %one, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// x * 0 stays for floats: NaN * 0 is NaN and -1 * 0 is -0.
// CHECK-LABEL: func @not_mul_zero_float(
//       CHECK:   tgc.mul
func.func @not_mul_zero_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tgc.const dense<0.0> : tensor<4xf32>
  %0 = tgc.mul %x, %zero : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// x * 0 => 0 for integers
// CHECK-LABEL: func @mul_zero_int(
//       CHECK:   %[[Z:.*]] = tgc.const dense<0> : tensor<4xsi32>
//  CHECK-NEXT:   return %[[Z]]
func.func @mul_zero_int(%x: tensor<4xsi32>) -> tensor<4xsi32> {
  %zero = tgc.const dense<0> : tensor<4xsi32>
  %0 = tgc.mul %x, %zero : tensor<4xsi32>
  return %0 : tensor<4xsi32>
}

// x + 0 => x for integers
// CHECK-LABEL: func @add_zero_int(
//  CHECK-SAME:     %[[X:.*]]: tensor<4xsi64>)
//  CHECK-NEXT:   return %[[X]]
func.func @add_zero_int(%x: tensor<4xsi64>) -> tensor<4xsi64> {
  %zero = tgc.const dense<0> : tensor<4xsi64>
  %0 = tgc.add %x, %zero : tensor<4xsi64>
  return %0 : tensor<4xsi64>
}

// x + (-0.0) => x for floats
// CHECK-LABEL: func @add_neg_zero_float(
//  CHECK-SAME:     %[[X:.*]]: tensor<4xf32>)
//  CHECK-NEXT:   return %[[X]]
func.func @add_neg_zero_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tgc.const dense<-0.0> : tensor<4xf32>
  %0 = tgc.add %x, %zero : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// x + 0.0 stays for floats: it turns -0.0 into +0.0.
// CHECK-LABEL: func @not_add_pos_zero_float(
//       CHECK:   tgc.add
func.func @not_add_pos_zero_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tgc.const dense<0.0> : tensor<4xf32>
  %0 = tgc.add %x, %zero : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -(-x) => x
// CHECK-LABEL: func @double_negation(
//  CHECK-SAME:     %[[X:.*]]: tensor<4xf32>)
//  CHECK-NEXT:   return %[[X]]
func.func @double_negation(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.neg %x : tensor<4xf32>
  %1 = tgc.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -(x) alone stays
// CHECK-LABEL: func @not_single_negation(
//       CHECK:   tgc.neg
func.func @not_single_negation(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// log2(exp2(x)) => x (exact on the reals; removes exp2's overflow)
// CHECK-LABEL: func @log2_exp2(
//  CHECK-SAME:     %[[X:.*]]: tensor<4xf32>)
//  CHECK-NEXT:   return %[[X]]
func.func @log2_exp2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.exp2 %x : tensor<4xf32>
  %1 = tgc.log2 %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// exp2(log2(x)) stays: it is NaN for x < 0.
// CHECK-LABEL: func @not_exp2_log2(
//       CHECK:   tgc.log2
//       CHECK:   tgc.exp2
func.func @not_exp2_log2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tgc.log2 %x : tensor<4xf32>
  %1 = tgc.exp2 %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Constant subgraphs fold: sqrt(4) * 3 + 1 => 7
// CHECK-LABEL: func @fold_constants(
//       CHECK:   %[[C:.*]] = tgc.const dense<7.000000e+00> : tensor<2x2xf32>
//  CHECK-NEXT:   return %[[C]]
func.func @fold_constants() -> tensor<2x2xf32> {
  %a = tgc.const dense<4.0> : tensor<2x2xf32>
  %b = tgc.const dense<3.0> : tensor<2x2xf32>
  %c = tgc.const dense<1.0> : tensor<2x2xf32>
  %0 = tgc.sqrt %a : tensor<2x2xf32>
  %1 = tgc.mul %0, %b : tensor<2x2xf32>
  %2 = tgc.add %1, %c : tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}

// Shape arithmetic on small dense tensors folds, movement ops included.
// CHECK-LABEL: func @fold_shape_math(
//       CHECK:   %[[C:.*]] = tgc.const dense<[12, 6]> : tensor<2xsi64>
//  CHECK-NEXT:   return %[[C]]
func.func @fold_shape_math() -> tensor<2xsi64> {
  %shape = tgc.const dense<[2, 3, 4]> : tensor<3xsi64>
  %tail = tgc.shrink %shape begin [1] end [3] : tensor<3xsi64> -> tensor<2xsi64>
  %flip = tgc.flip %tail [0] : tensor<2xsi64> -> tensor<2xsi64>
  %two = tgc.const dense<[3, -2]> : tensor<2xsi64>
  %0 = tgc.mul %flip, %two : tensor<2xsi64>
  %1 = tgc.permute %0 [0] : tensor<2xsi64> -> tensor<2xsi64>
  %m = tgc.const dense<-1> : tensor<2xsi64>
  %lt = tgc.cmplt %1, %m : tensor<2xsi64>
  %neg = tgc.neg %1 : tensor<2xsi64>
  %abs = tgc.where %lt, %neg, %1 : tensor<2xi1>, tensor<2xsi64>
  return %abs : tensor<2xsi64>
}

// A reduce of a small constant folds.
// CHECK-LABEL: func @fold_reduce(
//       CHECK:   %[[C:.*]] = tgc.const dense<{{\[}}[3], [7]]> : tensor<2x1xsi64>
//  CHECK-NEXT:   return %[[C]]
func.func @fold_reduce() -> tensor<2x1xsi64> {
  %c = tgc.const dense<[[1, 2], [3, 4]]> : tensor<2x2xsi64>
  %0 = tgc.reduce_axis add %c [1] : tensor<2x2xsi64> -> tensor<2x1xsi64>
  return %0 : tensor<2x1xsi64>
}

// Float arithmetic on a weight is done now, into a weight of its own (a
// resource stays a resource): [1, 2] * 2.
// CHECK-LABEL: func @fold_weight_arithmetic(
//       CHECK:   %[[W:.*]] = tgc.const dense_resource<[[$W2:w0_folded(_[0-9]+)?]]> : tensor<2xf32>
//  CHECK-NEXT:   return %[[W]]
func.func @fold_weight_arithmetic() -> tensor<2xf32> {
  %w = tgc.const dense_resource<w0> : tensor<2xf32>
  %c = tgc.const dense<2.0> : tensor<2xf32>
  %0 = tgc.mul %w, %c : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// An int8 weight dequantized per row, (q - zp) * scale, becomes one float
// weight: [[1, -2], [3, -128]] with zero points [1, 2] and scales [0.5,
// 0.25] gives [[0, -1.5], [0.25, -32.5]], a resource like q8.
// CHECK-LABEL: func @fold_dequantized_weight(
//       CHECK:   %[[W:.*]] = tgc.const dense_resource<[[$Q:q8_folded(_[0-9]+)?]]> : tensor<2x2xf32>
//  CHECK-NEXT:   return %[[W]]
func.func @fold_dequantized_weight() -> tensor<2x2xf32> {
  %q = tgc.const dense_resource<q8> : tensor<2x2xsi8>
  %zp = tgc.const dense<[1, 2]> : tensor<2xsi8>
  %s = tgc.const dense<[0.5, 0.25]> : tensor<2xf32>
  %0 = tgc.cast %q : tensor<2x2xsi8> to tensor<2x2xf32>
  %z = tgc.reshape %zp : tensor<2xsi8> -> tensor<2x1xsi8>
  %zf = tgc.cast %z : tensor<2x1xsi8> to tensor<2x1xf32>
  %ze = tgc.expand %zf : tensor<2x1xf32> -> tensor<2x2xf32>
  %1 = tgc.sub %0, %ze : tensor<2x2xf32>
  %sr = tgc.reshape %s : tensor<2xf32> -> tensor<2x1xf32>
  %se = tgc.expand %sr : tensor<2x1xf32> -> tensor<2x2xf32>
  %2 = tgc.mul %1, %se : tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}

// A weight broadcast into a bigger tensor stays a view: the arithmetic
// moves before the broadcast, onto the weight.
// CHECK-LABEL: func @fold_before_broadcast(
//       CHECK:   %[[W:.*]] = tgc.const dense_resource<[[$W3:w0_folded(_[0-9]+)?]]> : tensor<1x2xf32>
//       CHECK:   %[[E:.*]] = tgc.expand %[[W]] : tensor<1x2xf32> -> tensor<3x2xf32>
//  CHECK-NEXT:   return %[[E]]
func.func @fold_before_broadcast() -> tensor<3x2xf32> {
  %w = tgc.const dense_resource<w0> : tensor<2xf32>
  %r = tgc.reshape %w : tensor<2xf32> -> tensor<1x2xf32>
  %e = tgc.expand %r : tensor<1x2xf32> -> tensor<3x2xf32>
  %c = tgc.const dense<2.0> : tensor<3x2xf32>
  %0 = tgc.mul %e, %c : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Quantize then dequantize: a float of whole numbers clamped to [0, 255]
// survives the trip through uint8 unchanged, so the casts go.
// CHECK-LABEL: func @fold_integer_round_trip(
//       CHECK:   tgc.trunc
//  CHECK-NEXT:   tgc.max
//  CHECK-NEXT:   tgc.neg
//  CHECK-NEXT:   tgc.max
//  CHECK-NEXT:   %[[Q:.*]] = tgc.neg
//  CHECK-NEXT:   return %[[Q]]
func.func @fold_integer_round_trip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tgc.const dense<0.0> : tensor<4xf32>
  %lo = tgc.const dense<-255.0> : tensor<4xf32>
  %t = tgc.trunc %x : tensor<4xf32>
  %a = tgc.max %t, %zero : tensor<4xf32>
  %n = tgc.neg %a : tensor<4xf32>
  %b = tgc.max %n, %lo : tensor<4xf32>
  %c = tgc.neg %b : tensor<4xf32>
  %q = tgc.cast %c : tensor<4xf32> to tensor<4xui8>
  %d = tgc.cast %q : tensor<4xui8> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// The quantize of a QDQ pair as TensorBuilder writes it: clamped to
// [0 - zp, 255 - zp] with zp = 128, rounded by adding and taking off
// 1.5 * 2^23 (0x4B400000, exact below 2^22), plus the zero point: whole
// numbers in [0, 255], so the casts go. Rounded before the clamp, x could
// be anything and the sum need not be whole: the casts stay.
// CHECK-LABEL: func @fold_round_trip_of_quantize(
//       CHECK:   tgc.sub
//  CHECK-NEXT:   %[[Q:.*]] = tgc.add
//  CHECK-NEXT:   %[[R:.*]] = tgc.add %arg0
//  CHECK-NEXT:   %[[S:.*]] = tgc.sub %[[R]]
//       CHECK:   %[[U:.*]] = tgc.cast %{{.*}} : tensor<4xf32> to tensor<4xui8>
//  CHECK-NEXT:   %[[V:.*]] = tgc.cast %[[U]] : tensor<4xui8> to tensor<4xf32>
//  CHECK-NEXT:   return %[[Q]], %[[V]]
func.func @fold_round_trip_of_quantize(%x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %lo = tgc.const dense<-128.0> : tensor<4xf32>
  %minus_hi = tgc.const dense<-127.0> : tensor<4xf32>
  %magic = tgc.const dense<0x4B400000> : tensor<4xf32>
  %zp = tgc.const dense<128.0> : tensor<4xf32>
  %a = tgc.max %x, %lo : tensor<4xf32>
  %n = tgc.neg %a : tensor<4xf32>
  %b = tgc.max %n, %minus_hi : tensor<4xf32>
  %c = tgc.neg %b : tensor<4xf32>
  %r0 = tgc.add %c, %magic : tensor<4xf32>
  %r = tgc.sub %r0, %magic : tensor<4xf32>
  %q = tgc.add %r, %zp : tensor<4xf32>
  %u = tgc.cast %q : tensor<4xf32> to tensor<4xui8>
  %d = tgc.cast %u : tensor<4xui8> to tensor<4xf32>
  %zero = tgc.const dense<0.0> : tensor<4xf32>
  %minus_top = tgc.const dense<-255.0> : tensor<4xf32>
  %s0 = tgc.add %x, %magic : tensor<4xf32>
  %s = tgc.sub %s0, %magic : tensor<4xf32>
  %sa = tgc.max %s, %zero : tensor<4xf32>
  %sn = tgc.neg %sa : tensor<4xf32>
  %sb = tgc.max %sn, %minus_top : tensor<4xf32>
  %sc = tgc.neg %sb : tensor<4xf32>
  %su = tgc.cast %sc : tensor<4xf32> to tensor<4xui8>
  %sd = tgc.cast %su : tensor<4xui8> to tensor<4xf32>
  return %d, %sd : tensor<4xf32>, tensor<4xf32>
}

// (t + 128) - 128 is t for whole t in [-128, 127] (the zero point a
// quantize adds and its dequantize takes off); for any float it stays.
// CHECK-LABEL: func @fold_whole_add_sub(
//       CHECK:   %[[T:.*]] = tgc.trunc
//       CHECK:   %[[A:.*]] = tgc.add %arg0
//  CHECK-NEXT:   %[[B:.*]] = tgc.sub %[[A]]
//  CHECK-NEXT:   return %[[T]], %[[B]]
func.func @fold_whole_add_sub(%x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %lo = tgc.const dense<-128.0> : tensor<4xf32>
  %minus_hi = tgc.const dense<-127.0> : tensor<4xf32>
  %zp = tgc.const dense<128.0> : tensor<4xf32>
  %a = tgc.max %x, %lo : tensor<4xf32>
  %n = tgc.neg %a : tensor<4xf32>
  %b = tgc.max %n, %minus_hi : tensor<4xf32>
  %c = tgc.neg %b : tensor<4xf32>
  %t = tgc.trunc %c : tensor<4xf32>
  %p = tgc.add %t, %zp : tensor<4xf32>
  %q = tgc.sub %p, %zp : tensor<4xf32>
  %p2 = tgc.add %x, %zp : tensor<4xf32>
  %q2 = tgc.sub %p2, %zp : tensor<4xf32>
  return %q, %q2 : tensor<4xf32>, tensor<4xf32>
}

// The casts stay where the trip could change a value: [0, 255] does not
// fit int8, and a value not known to be whole loses its fraction.
// CHECK-LABEL: func @not_fold_integer_round_trip(
//       CHECK:   tgc.cast {{.*}} to tensor<4xsi8>
//       CHECK:   tgc.cast {{.*}} to tensor<4xf32>
//       CHECK:   tgc.cast {{.*}} to tensor<4xui8>
//       CHECK:   tgc.cast {{.*}} to tensor<4xf32>
func.func @not_fold_integer_round_trip(%x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = tgc.const dense<0.0> : tensor<4xf32>
  %lo = tgc.const dense<-255.0> : tensor<4xf32>
  %t = tgc.trunc %x : tensor<4xf32>
  %a = tgc.max %t, %zero : tensor<4xf32>
  %n = tgc.neg %a : tensor<4xf32>
  %b = tgc.max %n, %lo : tensor<4xf32>
  %c = tgc.neg %b : tensor<4xf32>
  %q = tgc.cast %c : tensor<4xf32> to tensor<4xsi8>
  %d = tgc.cast %q : tensor<4xsi8> to tensor<4xf32>
  %fa = tgc.max %x, %zero : tensor<4xf32>
  %fn = tgc.neg %fa : tensor<4xf32>
  %fb = tgc.max %fn, %lo : tensor<4xf32>
  %fc = tgc.neg %fb : tensor<4xf32>
  %fq = tgc.cast %fc : tensor<4xf32> to tensor<4xui8>
  %fd = tgc.cast %fq : tensor<4xui8> to tensor<4xf32>
  return %d, %fd : tensor<4xf32>, tensor<4xf32>
}

// permute(permute(x)) => permute(x); expand(expand(x)) => expand(x)
// CHECK-LABEL: func @compose_movement(
//  CHECK-SAME:     %[[X:.*]]: tensor<2x3x4xf32>, %[[Y:.*]]: tensor<1x1xf32>)
//       CHECK:   tgc.permute %[[X]] [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
//       CHECK:   tgc.expand %[[Y]] : tensor<1x1xf32> -> tensor<5x6xf32>
func.func @compose_movement(%x: tensor<2x3x4xf32>, %y: tensor<1x1xf32>) -> (tensor<4x2x3xf32>, tensor<5x6xf32>) {
  %0 = tgc.permute %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = tgc.permute %0 [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  %2 = tgc.expand %y : tensor<1x1xf32> -> tensor<5x1xf32>
  %3 = tgc.expand %2 : tensor<5x1xf32> -> tensor<5x6xf32>
  return %1, %3 : tensor<4x2x3xf32>, tensor<5x6xf32>
}

// A permute after a different permute that is not its inverse stays one op.
// CHECK-LABEL: func @identity_permute(
//  CHECK-SAME:     %[[X:.*]]: tensor<2x3xf32>)
//  CHECK-NEXT:   return %[[X]]
func.func @identity_permute(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tgc.permute %x [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = tgc.permute %0 [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// f(reshape(contiguous(x)), y) => reshape(contiguous(f(x, reshape(y)))):
// the ops after a realized value run in the kernel that computes it.
// CHECK-LABEL: func @elementwise_into_contiguous(
//  CHECK-SAME:     %[[X:.*]]: tensor<2x8xf32>, %[[Y:.*]]: tensor<4x4xf32>)
//   CHECK-DAG:   %[[Z:.*]] = tgc.const dense<0.000000e+00> : tensor<2x8xf32>
//   CHECK-DAG:   %[[E:.*]] = tgc.exp2 %[[X]]
//   CHECK-DAG:   %[[R:.*]] = tgc.reshape %[[Y]] : tensor<4x4xf32> -> tensor<2x8xf32>
//       CHECK:   %[[A:.*]] = tgc.add %[[E]], %[[R]] : tensor<2x8xf32>
//       CHECK:   %[[M:.*]] = tgc.max %[[A]], %[[Z]] : tensor<2x8xf32>
//       CHECK:   %[[C:.*]] = tgc.contiguous %[[M]] : tensor<2x8xf32>
//       CHECK:   %[[V:.*]] = tgc.reshape %[[C]] : tensor<2x8xf32> -> tensor<4x4xf32>
//       CHECK:   tgc.reduce_axis add %[[V]]
func.func @elementwise_into_contiguous(%x: tensor<2x8xf32>, %y: tensor<4x4xf32>) -> tensor<4x1xf32> {
  %e = tgc.exp2 %x : tensor<2x8xf32>
  %c = tgc.contiguous %e : tensor<2x8xf32>
  %r = tgc.reshape %c : tensor<2x8xf32> -> tensor<4x4xf32>
  %a = tgc.add %r, %y : tensor<4x4xf32>
  %zero = tgc.const dense<0.0> : tensor<4x4xf32>
  %m = tgc.max %a, %zero : tensor<4x4xf32>
  %s = tgc.reduce_axis add %m [1] : tensor<4x4xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// The ops stay after the contiguous value when something else reads it,
// when another operand would bring a reduce into its kernel, and when they
// make a model output (a view of the contiguous value would be copied).
// CHECK-LABEL: func @not_elementwise_into_contiguous(
//       CHECK:   %[[C:.*]] = tgc.contiguous
//       CHECK:   tgc.add %[[C]]
//       CHECK:   %[[D:.*]] = tgc.contiguous
//       CHECK:   tgc.add %[[D]]
//       CHECK:   %[[F:.*]] = tgc.contiguous
//       CHECK:   tgc.neg %[[F]]
func.func @not_elementwise_into_contiguous(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4x3xf32>) -> (tensor<1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<4xf32>) {
  %c = tgc.contiguous %x : tensor<4xf32>
  %a = tgc.add %c, %y : tensor<4xf32>
  %s = tgc.reduce_axis add %a [0] : tensor<4xf32> -> tensor<1xf32>
  %d = tgc.contiguous %y : tensor<4xf32>
  %r = tgc.reduce_axis add %z [1] : tensor<4x3xf32> -> tensor<4x1xf32>
  %r1 = tgc.reshape %r : tensor<4x1xf32> -> tensor<4xf32>
  %b = tgc.add %d, %r1 : tensor<4xf32>
  %t = tgc.reduce_axis add %b [0] : tensor<4xf32> -> tensor<1xf32>
  %f = tgc.contiguous %x : tensor<4xf32>
  %n = tgc.neg %f : tensor<4xf32>
  return %s, %c, %t, %n : tensor<1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<4xf32>
}

// f(reshape(a), splat) => reshape(f(a, splat)), but not where a is a sum:
// the reshape of a sum (a grouped convolution's [groups, channels per
// group] merged into its channels) is the shape its kernel's loops run
// over.
// CHECK-LABEL: func @reshape_of_sum_stays(
//       CHECK:   %[[S:.*]] = tgc.reduce_axis add %arg0
//  CHECK-NEXT:   %[[R:.*]] = tgc.reshape %[[S]] : tensor<2x3x4x1xf32> -> tensor<6x4xf32>
//  CHECK-NEXT:   tgc.max %[[R]], %{{.*}} : tensor<6x4xf32>
//  CHECK-NEXT:   %[[M:.*]] = tgc.max %arg1, %{{.*}} : tensor<2x3xf32>
//  CHECK-NEXT:   tgc.reshape %[[M]] : tensor<2x3xf32> -> tensor<6xf32>
func.func @reshape_of_sum_stays(%x: tensor<2x3x4x5xf32>, %y: tensor<2x3xf32>) -> (tensor<6x4xf32>, tensor<6xf32>) {
  %s = tgc.reduce_axis add %x [3] : tensor<2x3x4x5xf32> -> tensor<2x3x4x1xf32>
  %r = tgc.reshape %s : tensor<2x3x4x1xf32> -> tensor<6x4xf32>
  %z = tgc.const dense<0.0> : tensor<6x4xf32>
  %m = tgc.max %r, %z : tensor<6x4xf32>
  %ry = tgc.reshape %y : tensor<2x3xf32> -> tensor<6xf32>
  %z1 = tgc.const dense<0.0> : tensor<6xf32>
  %n = tgc.max %ry, %z1 : tensor<6xf32>
  return %m, %n : tensor<6x4xf32>, tensor<6xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F00000040",
      q8: "0x0100000001FE0380"
    }
  }
#-}

// f(permute(a, p), permute(b, p), constant) => permute(f(a, b, c'), p): the
// permute moves past the elementwise ops, where the next permute cancels
// it (a channels-last convolution's output through its Relu and residual
// Add into the next convolution).
// CHECK-LABEL: func @elementwise_before_permute(
//  CHECK-SAME:     %[[A:.*]]: tensor<1x3x4x2xf32>, %[[B:.*]]: tensor<1x3x4x2xf32>)
//   CHECK-DAG:   %[[SUM:.*]] = tgc.add %[[A]], %[[B]] : tensor<1x3x4x2xf32>
//   CHECK-DAG:   %[[C:.*]] = tgc.const {{.*}} : tensor<1x3x4x2xf32>
//       CHECK:   %[[MAX:.*]] = tgc.max %[[SUM]], %[[C]] : tensor<1x3x4x2xf32>
//  CHECK-NEXT:   return %[[MAX]]
func.func @elementwise_before_permute(%a: tensor<1x3x4x2xf32>, %b: tensor<1x3x4x2xf32>) -> tensor<1x3x4x2xf32> {
  %pa = tgc.permute %a [0, 3, 1, 2] : tensor<1x3x4x2xf32> -> tensor<1x2x3x4xf32>
  %pb = tgc.permute %b [0, 3, 1, 2] : tensor<1x3x4x2xf32> -> tensor<1x2x3x4xf32>
  %sum = tgc.add %pa, %pb : tensor<1x2x3x4xf32>
  %w = tgc.const dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>
  %we = tgc.expand %w : tensor<1x2x1x1xf32> -> tensor<1x2x3x4xf32>
  %max = tgc.max %sum, %we : tensor<1x2x3x4xf32>
  %back = tgc.permute %max [0, 2, 3, 1] : tensor<1x2x3x4xf32> -> tensor<1x3x4x2xf32>
  return %back : tensor<1x3x4x2xf32>
}

// A broadcast of a permuted value rides along: expand(permute(s, p)) is
// permute(expand(s), p). A channels-last image times its Squeeze-and-
// Excitation scale is computed channels last, where the next 1x1
// convolution reads it.
// CHECK-LABEL: func @broadcast_before_permute(
//  CHECK-SAME:     %[[X:.*]]: tensor<1x3x4x2xf32>, %[[S:.*]]: tensor<1x1x1x2xf32>)
//       CHECK:   %[[SE:.*]] = tgc.expand %[[S]] : tensor<1x1x1x2xf32> -> tensor<1x3x4x2xf32>
//  CHECK-NEXT:   %[[MUL:.*]] = tgc.mul %[[X]], %[[SE]] : tensor<1x3x4x2xf32>
//  CHECK-NEXT:   return %[[MUL]]
func.func @broadcast_before_permute(%x: tensor<1x3x4x2xf32>, %s: tensor<1x1x1x2xf32>) -> tensor<1x3x4x2xf32> {
  %px = tgc.permute %x [0, 3, 1, 2] : tensor<1x3x4x2xf32> -> tensor<1x2x3x4xf32>
  %ps = tgc.permute %s [0, 3, 1, 2] : tensor<1x1x1x2xf32> -> tensor<1x2x1x1xf32>
  %se = tgc.expand %ps : tensor<1x2x1x1xf32> -> tensor<1x2x3x4xf32>
  %mul = tgc.mul %px, %se : tensor<1x2x3x4xf32>
  %back = tgc.permute %mul [0, 2, 3, 1] : tensor<1x2x3x4xf32> -> tensor<1x3x4x2xf32>
  return %back : tensor<1x3x4x2xf32>
}

// A broadcast of a permute in another order, or alone (no permuted operand
// of the op's own shape to keep the order of), stays.
// CHECK-LABEL: func @not_broadcast_before_permute(
//       CHECK:   %[[PX:.*]] = tgc.permute %{{.*}} [0, 3, 1, 2]
//       CHECK:   %[[SE:.*]] = tgc.expand
//  CHECK-NEXT:   %[[MUL:.*]] = tgc.mul %[[PX]], %[[SE]]
//  CHECK-NEXT:   %[[ADD:.*]] = tgc.add %[[SE]], %{{.*}}
//  CHECK-NEXT:   return %[[MUL]], %[[ADD]]
func.func @not_broadcast_before_permute(%x: tensor<1x3x4x2xf32>, %s: tensor<1x1x2x1xf32>, %y: tensor<1x2x3x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) {
  %px = tgc.permute %x [0, 3, 1, 2] : tensor<1x3x4x2xf32> -> tensor<1x2x3x4xf32>
  %ps = tgc.permute %s [0, 2, 1, 3] : tensor<1x1x2x1xf32> -> tensor<1x2x1x1xf32>
  %se = tgc.expand %ps : tensor<1x2x1x1xf32> -> tensor<1x2x3x4xf32>
  %mul = tgc.mul %px, %se : tensor<1x2x3x4xf32>
  %add = tgc.add %se, %y : tensor<1x2x3x4xf32>
  return %mul, %add : tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>
}

// Permutes of different orders, and a computed operand that is no permute,
// stay where they are.
// CHECK-LABEL: func @not_elementwise_before_permute(
//       CHECK:   tgc.permute
//  CHECK-NEXT:   tgc.add
//  CHECK-NEXT:   tgc.permute
//  CHECK-NEXT:   tgc.mul
//  CHECK-NEXT:   tgc.permute
func.func @not_elementwise_before_permute(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %pa = tgc.permute %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %0 = tgc.add %pa, %b : tensor<3x2xf32>
  %pb = tgc.permute %b [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %1 = tgc.mul %pb, %a : tensor<2x3xf32>
  %2 = tgc.permute %1 [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0, %2 : tensor<3x2xf32>, tensor<3x2xf32>
}

// A slice of a constant that is one run of its bytes (here the second of
// two rows; a resource, which FoldConstantView leaves alone) becomes a
// constant of those bytes: a weight of its own, no bigger. A slice that is
// not one run (a column of both rows) stays a view.
// CHECK-LABEL: func @slab_of_constant(
//   CHECK-DAG:   %[[ROW:.*]] = tgc.const dense_resource<w.slab_slice> : tensor<1x2x2xf32>
//   CHECK-DAG:   %[[W:.*]] = tgc.const dense_resource<w.slab> : tensor<2x2x2xf32>
//   CHECK-DAG:   %[[COLUMN:.*]] = tgc.shrink %[[W]] begin [0, 1, 0] end [2, 2, 2]
//       CHECK:   return %[[ROW]], %[[COLUMN]]
// The folded weights' bytes, after their alignment (16) (the tests above):
//   CHECK-DAG:   [[$W2]]: "0x100000000000004000008040"
//   CHECK-DAG:   [[$Q]]: "0x10000000000000000000C0BF0000803E000002C2"
//   CHECK-DAG:   [[$W3]]: "0x100000000000004000008040"
//       CHECK:   w.slab_slice: "0x{{[0-9A-F]+}}0000A0400000C0400000E04000000041"
func.func @slab_of_constant() -> (tensor<1x2x2xf32>, tensor<2x1x2xf32>) {
  %w = tgc.const dense_resource<w.slab> : tensor<2x2x2xf32>
  %row = tgc.shrink %w begin [1, 0, 0] end [2, 2, 2] : tensor<2x2x2xf32> -> tensor<1x2x2xf32>
  %column = tgc.shrink %w begin [0, 1, 0] end [2, 2, 2] : tensor<2x2x2xf32> -> tensor<2x1x2xf32>
  return %row, %column : tensor<1x2x2xf32>, tensor<2x1x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w.slab: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}
