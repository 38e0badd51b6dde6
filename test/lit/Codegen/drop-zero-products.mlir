// RUN: tgc-opt %s --tgc-drop-zero-products | FileCheck %s
// A zero times a finite weight adds nothing: the add becomes its other
// operand, an accumulator stored back unchanged is not stored, and a loop
// or if left with nothing to write goes.

// The zero product's update goes; the real one stays.
// CHECK-LABEL: func @padding_term(
//       CHECK:   tgc.range 4 reduce id 0
//   CHECK-NOT:   tgc.const dense<0.000000e+00> : vector<4xf32>
//       CHECK:   %[[W:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
//       CHECK:   %[[X:.*]] = tgc.load %{{.*}} : <f32> -> vector<4xf32>
//       CHECK:   %[[P:.*]] = tgc.mul %[[X]], %[[W]] : vector<4xf32>
//       CHECK:   %[[OLD:.*]] = tgc.load %[[SLOT:.*]] : <f32, reg> -> vector<4xf32>
//       CHECK:   %[[NEW:.*]] = tgc.add %[[OLD]], %[[P]] : vector<4xf32>
//       CHECK:   tgc.store %[[SLOT]], %[[NEW]]
//   CHECK-NOT:   tgc.store
//       CHECK:   tgc.end
func.func @padding_term(%xs: tensor<16xf32>) -> tensor<4xf32> {
  %w = tgc.const dense<[1.0, -2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : tensor<16xf32>
  %k = tgc.kernel "r_4_4" (%xs, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wp: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c4 = tgc.const 4 : index
    %zero = tgc.const dense<0.0> : vector<4xf32>
    %acc = tgc.define_reg 4 : !tgc.ptr<f32, reg>
    %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
    %pad = tgc.define_reg 4 : !tgc.ptr<f32, reg>
    %pslot = tgc.index %pad[%c0] : !tgc.ptr<f32, reg>
    tgc.store %slot, %zero : !tgc.ptr<f32, reg>, vector<4xf32>
    tgc.store %pslot, %zero : !tgc.ptr<f32, reg>, vector<4xf32>
    %r = tgc.range 4 reduce id 0
    %a = tgc.mul %r, %c4 : index
    %wi = tgc.index %wp[%a] : !tgc.ptr<f32>
    %wv = tgc.load %wi : !tgc.ptr<f32> -> vector<4xf32>
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> vector<4xf32>
    %zw = tgc.mul %zero, %wv : vector<4xf32>
    %pold = tgc.load %pslot : !tgc.ptr<f32, reg> -> vector<4xf32>
    %pnew = tgc.add %pold, %zw : vector<4xf32>
    tgc.store %pslot, %pnew : !tgc.ptr<f32, reg>, vector<4xf32>
    %xw = tgc.mul %x, %wv : vector<4xf32>
    %old = tgc.load %slot : !tgc.ptr<f32, reg> -> vector<4xf32>
    %new = tgc.add %old, %xw : vector<4xf32>
    tgc.store %slot, %new : !tgc.ptr<f32, reg>, vector<4xf32>
    tgc.end %r
    %s = tgc.load %slot : !tgc.ptr<f32, reg> -> vector<4xf32>
    %t = tgc.load %pslot : !tgc.ptr<f32, reg> -> vector<4xf32>
    %u = tgc.add %s, %t : vector<4xf32>
    tgc.store %out, %u : !tgc.ptr<f32>, vector<4xf32>
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// A copy of a loop under an if where every term is a zero product (the
// rows of a convolution's window above the image), two of them chained
// here, goes whole, its prefetch with it; so does the if.
// CHECK-LABEL: func @idle_copy(
//       CHECK:   tgc.define_reg
//   CHECK-NOT:   tgc.if
//   CHECK-NOT:   tgc.range
//   CHECK-NOT:   tgc.prefetch
//       CHECK:   tgc.load %{{.*}} : <f32, reg> -> f32
//       CHECK:   tgc.sink
func.func @idle_copy() -> tensor<1xf32> {
  %w = tgc.const dense<[0.5, 0.25, -1.0, 2.0]> : tensor<4xf32>
  %k = tgc.kernel "r_4" (%w) : (tensor<4xf32>) -> tensor<1xf32> {
  ^bb0(%wp: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %c2 = tgc.const 2 : index
    %zero = tgc.const 0.0 : f32
    %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
    %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
    tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
    %r0 = tgc.range 2 loop id 0
    %above = tgc.cmplt %r0, %c2 : index
    tgc.if %above
    %r = tgc.range 4 reduce id 1
    %wi = tgc.index %wp[%r] : !tgc.ptr<f32>
    tgc.prefetch %wi : !tgc.ptr<f32>
    %wv = tgc.load %wi : !tgc.ptr<f32> -> f32
    %zw = tgc.mul %wv, %zero : f32
    %zw2 = tgc.mul %zero, %wv : f32
    %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
    %sum = tgc.add %zw, %old : f32
    %new = tgc.add %sum, %zw2 : f32
    tgc.store %slot, %new : !tgc.ptr<f32, reg>, f32
    tgc.end %r
    tgc.endif
    tgc.end %r0
    %s = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
    tgc.store %out, %s : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k : tensor<1xf32>
}

// Kept: a zero times an infinite weight is NaN, and a zero times an input
// may be.
// CHECK-LABEL: func @kept(
// CHECK-COUNT-2: tgc.mul
//         CHECK: tgc.sink
func.func @kept(%xs: tensor<4xf32>) -> tensor<1xf32> {
  %w = tgc.const dense<[0.5, 0x7F800000, -1.0, 2.0]> : tensor<4xf32>
  %k = tgc.kernel "r_4" (%xs, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %wp: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const 0.0 : f32
    %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
    %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
    tgc.store %slot, %zero : !tgc.ptr<f32, reg>, f32
    %r = tgc.range 4 reduce id 0
    %wi = tgc.index %wp[%r] : !tgc.ptr<f32>
    %wv = tgc.load %wi : !tgc.ptr<f32> -> f32
    %xi = tgc.index %in[%r] : !tgc.ptr<f32>
    %xv = tgc.load %xi : !tgc.ptr<f32> -> f32
    %zw = tgc.mul %zero, %wv : f32
    %zx = tgc.mul %zero, %xv : f32
    %old = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
    %s1 = tgc.add %old, %zw : f32
    %s2 = tgc.add %s1, %zx : f32
    tgc.store %slot, %s2 : !tgc.ptr<f32, reg>, f32
    tgc.end %r
    %s = tgc.load %slot : !tgc.ptr<f32, reg> -> f32
    tgc.store %out, %s : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k : tensor<1xf32>
}
