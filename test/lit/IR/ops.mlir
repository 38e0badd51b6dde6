// RUN: tgc-opt %s | tgc-opt | FileCheck %s
// Every op's printer and parser, graph level then kernel level.

// CHECK-LABEL: func @graph_ops(
func.func @graph_ops(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<2x3xsi32>) -> tensor<2x1xf32> {
  // CHECK: tgc.const dense<2.000000e+00> : tensor<2x3xf32>
  %w = tgc.const dense<2.0> : tensor<2x3xf32>
  // CHECK: tgc.onnx_node "Relu"(%{{.*}}) {opset = 17 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = tgc.onnx_node "Relu"(%a) {opset = 17 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tgc.exp2 %{{.*}} : tensor<2x3xf32>
  %0 = tgc.exp2 %a : tensor<2x3xf32>
  %1 = tgc.log2 %0 : tensor<2x3xf32>
  %2 = tgc.sin %1 : tensor<2x3xf32>
  %3 = tgc.sqrt %2 : tensor<2x3xf32>
  %4 = tgc.recip %3 : tensor<2x3xf32>
  %5 = tgc.neg %4 : tensor<2x3xf32>
  %6 = tgc.trunc %5 : tensor<2x3xf32>
  // CHECK: tgc.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %7 = tgc.add %6, %w : tensor<2x3xf32>
  %8 = tgc.mul %7, %b : tensor<2x3xf32>
  %9 = tgc.max %8, %b : tensor<2x3xf32>
  %10 = tgc.sub %9, %b : tensor<2x3xf32>
  %11 = tgc.fdiv %10, %b : tensor<2x3xf32>
  %12 = tgc.pow %11, %b : tensor<2x3xf32>
  %13 = tgc.mulacc %12, %b, %a : tensor<2x3xf32>
  // CHECK: tgc.idiv %{{.*}}, %{{.*}} : tensor<2x3xsi32>
  %i0 = tgc.idiv %i, %i : tensor<2x3xsi32>
  %i1 = tgc.mod %i0, %i : tensor<2x3xsi32>
  %i2 = tgc.shl %i1, %i : tensor<2x3xsi32>
  %i3 = tgc.shr %i2, %i : tensor<2x3xsi32>
  %i4 = tgc.xor %i3, %i : tensor<2x3xsi32>
  %i5 = tgc.or %i4, %i : tensor<2x3xsi32>
  %i6 = tgc.and %i5, %i : tensor<2x3xsi32>
  // CHECK: tgc.cast %{{.*}} : tensor<2x3xsi32> to tensor<2x3xf32>
  %f = tgc.cast %i6 : tensor<2x3xsi32> to tensor<2x3xf32>
  // CHECK: tgc.bitcast %{{.*}} : tensor<2x3xf32> to tensor<2x3xsi32>
  %bc = tgc.bitcast %f : tensor<2x3xf32> to tensor<2x3xsi32>
  // CHECK: tgc.cmplt %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %c0 = tgc.cmplt %13, %f : tensor<2x3xf32>
  %c1 = tgc.cmpne %13, %f : tensor<2x3xf32>
  %c2 = tgc.cmpeq %13, %f : tensor<2x3xf32>
  // CHECK: tgc.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi1>, tensor<2x3xf32>
  %sel = tgc.where %c0, %13, %f : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK: tgc.reshape %{{.*}} : tensor<2x3xf32> -> tensor<3x2xf32>
  %m0 = tgc.reshape %sel : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK: tgc.permute %{{.*}} [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %m1 = tgc.permute %m0 [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  // CHECK: tgc.pad %{{.*}} low [1, 0] high [0, 2] : tensor<2x3xf32> -> tensor<3x5xf32>
  %m2 = tgc.pad %m1 low [1, 0] high [0, 2] : tensor<2x3xf32> -> tensor<3x5xf32>
  // CHECK: tgc.shrink %{{.*}} begin [1, 0] end [3, 3] : tensor<3x5xf32> -> tensor<2x3xf32>
  %m3 = tgc.shrink %m2 begin [1, 0] end [3, 3] : tensor<3x5xf32> -> tensor<2x3xf32>
  // CHECK: tgc.flip %{{.*}} [1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %m4 = tgc.flip %m3 [1] : tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: tgc.reduce_axis max %{{.*}} [1] : tensor<2x3xf32> -> tensor<2x1xf32>
  %red = tgc.reduce_axis max %m4 [1] : tensor<2x3xf32> -> tensor<2x1xf32>
  // CHECK: tgc.expand %{{.*}} : tensor<2x1xf32> -> tensor<2x3xf32>
  %e = tgc.expand %red : tensor<2x1xf32> -> tensor<2x3xf32>
  // CHECK: tgc.contiguous %{{.*}} : tensor<2x3xf32>
  %ct = tgc.contiguous %e : tensor<2x3xf32>
  // CHECK: tgc.kernel "r_2_3"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x1xf32> {
  %k = tgc.kernel "r_2_3" (%ct) : (tensor<2x3xf32>) -> tensor<2x1xf32> {
  ^bb0(%x: tensor<2x3xf32>):
    %s = tgc.reduce_axis add %x [1] : tensor<2x3xf32> -> tensor<2x1xf32>
    // CHECK: tgc.sink %{{.*}} : tensor<2x1xf32>
    tgc.sink %s : tensor<2x1xf32>
  }
  return %k : tensor<2x1xf32>
}

// CHECK-LABEL: func @kernel_ops(
func.func @kernel_ops(%a: tensor<6xf32>) -> tensor<2xf32> {
  // CHECK: tgc.kernel "r_2_3"(%{{.*}}) {arena_offset = array<i64: -1>, opts = ["UPCAST(0,2)"]}
  %k = tgc.kernel "r_2_3" (%a) {arena_offset = array<i64: -1>, opts = ["UPCAST(0,2)"]} : (tensor<6xf32>) -> tensor<2xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    // CHECK: %[[C3:.*]] = tgc.const 3 : index
    %c3 = tgc.const 3 : index
    %c0 = tgc.const 0 : index
    %zero = tgc.const 0.0 : f32
    // CHECK: %[[G:.*]] = tgc.special "gidx0" 2
    %g = tgc.special "gidx0" 2
    // CHECK: %[[I:.*]] = tgc.range 2 global id 0
    %i = tgc.range 2 global id 0
    // CHECK: tgc.define_reg 1 : <f32, reg>
    %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
    %smem = tgc.define_local 16 : !tgc.ptr<f32, local>
    %a0 = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
    tgc.store %a0, %zero : !tgc.ptr<f32, reg>, f32
    // CHECK: %[[K:.*]] = tgc.range 3 reduce id 1
    %k = tgc.range 3 reduce id 1
    %row = tgc.mul %i, %c3 : index
    %idx = tgc.add %row, %k : index
    %valid = tgc.cmplt %idx, %c3 : index
    // CHECK: tgc.index %{{.*}}[%{{.*}}], %{{.*}} : <f32>
    %p = tgc.index %in[%idx], %valid : !tgc.ptr<f32>
    // CHECK: tgc.load %{{.*}} else %{{.*}} : <f32> -> f32
    %x = tgc.load %p else %zero : !tgc.ptr<f32> -> f32
    %v = tgc.vectorize %x, %x : (f32, f32) -> vector<2xf32>
    %l = tgc.gep %v[1] : vector<2xf32> -> f32
    // CHECK: tgc.end %[[K]]
    tgc.end %k
    // CHECK: tgc.reduce add %{{.*}} over %[[K]] : f32
    %s = tgc.reduce add %l over %k : f32
    tgc.barrier
    %first = tgc.cmpeq %i, %c0 : index
    tgc.if %first
    %o = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.endif
    // CHECK: tgc.end %[[I]]
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2xf32>
}
