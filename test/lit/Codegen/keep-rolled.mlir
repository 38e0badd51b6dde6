// RUN: tgc-opt %s --tgc-keep-rolled | FileCheck %s
// RUN: tgc-opt %s --tgc-keep-rolled=vector-registers=32 | FileCheck %s --check-prefix=WIDE
// A short reduce loop along which the broadcast loads of at least 4 pixels
// of a register tile slide over one line of input, beside at least 2
// loaded vectors, or beside one where the values alive at one tap, the
// accumulators and the vector outnumber the registers, is marked to stay a
// loop in C (16 vector registers only; emit-c.mlir renders the mark).
// WIDE-NOT: rolled
// A kernel's ROLL actions (a tuning database's) decide their loops instead,
// the rule still decides the others: ROLL(1,0) leaves row_of_four's loop
// to the compiler, ROLL(1,1) keeps row_of_three's.
// RUN: sed -e 's/"r_row_of_four" (%%a, %%w)/& {opts = ["ROLL(1,0)"]}/' \
// RUN:     -e 's/"r_row_of_three" (%%a, %%w)/& {opts = ["ROLL(1,1)"]}/' %s \
// RUN:   | tgc-opt --tgc-keep-rolled \
// RUN:   | FileCheck %s --check-prefix=DECIDED
// DECIDED-LABEL: func @row_of_four(
//   DECIDED-NOT:   rolled
//       DECIDED:   opts = ["ROLL(1,0)"]
//   DECIDED-NOT:   rolled
// DECIDED-LABEL: func @stride_two(
//       DECIDED:   tgc.range 3 reduce id 1 rolled
// DECIDED-LABEL: func @row_of_three(
//       DECIDED:   opts = ["ROLL(1,1)"]
//       DECIDED:   tgc.range 3 reduce id 1 rolled
// DECIDED-LABEL: func @one_vector(
//   DECIDED-NOT:   rolled
// DECIDED-LABEL: func @one_vector_stride_two(
//       DECIDED:   tgc.range 3 reduce id 1 rolled

// A 3x3 convolution's row of 4 pixels by 2 vectors: pixel p reads
// x[p + k] at tap k.
// CHECK-LABEL: func @row_of_four(
//       CHECK:   tgc.range 3 reduce id 1 rolled
func.func @row_of_four(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %k = tgc.kernel "r_row_of_four" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c8 = tgc.const 8 : index
    %c16 = tgc.const 16 : index
    %acc0_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_0 = tgc.index %acc0_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc0_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_1 = tgc.index %acc0_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_0 = tgc.index %acc1_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_1 = tgc.index %acc1_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_0 = tgc.index %acc2_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_1 = tgc.index %acc2_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_0 = tgc.index %acc3_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_1 = tgc.index %acc3_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c16 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %wi1 = tgc.add %wr, %c8 : index
    %pw1 = tgc.index %pw[%wi1] : !tgc.ptr<f32>
    %w1 = tgc.load %pw1 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_0 = tgc.mulacc %b0, %w0, %old0_0 : vector<8xf32>
    tgc.store %s0_0, %new0_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_1 = tgc.mulacc %b0, %w1, %old0_1 : vector<8xf32>
    tgc.store %s0_1, %new0_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %c1 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_0 = tgc.mulacc %b1, %w0, %old1_0 : vector<8xf32>
    tgc.store %s1_0, %new1_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_1 = tgc.mulacc %b1, %w1, %old1_1 : vector<8xf32>
    tgc.store %s1_1, %new1_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %c2 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_0 = tgc.mulacc %b2, %w0, %old2_0 : vector<8xf32>
    tgc.store %s2_0, %new2_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_1 = tgc.mulacc %b2, %w1, %old2_1 : vector<8xf32>
    tgc.store %s2_1, %new2_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %r, %c3 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_0 = tgc.mulacc %b3, %w0, %old3_0 : vector<8xf32>
    tgc.store %s3_0, %new3_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old3_1 = tgc.load %s3_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_1 = tgc.mulacc %b3, %w1, %old3_1 : vector<8xf32>
    tgc.store %s3_1, %new3_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0_0i = tgc.const 0 : index
    %o0_0 = tgc.index %out[%o0_0i] : !tgc.ptr<f32>
    %v0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_0, %v0_0 : !tgc.ptr<f32>, vector<8xf32>
    %o0_1i = tgc.const 8 : index
    %o0_1 = tgc.index %out[%o0_1i] : !tgc.ptr<f32>
    %v0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_1, %v0_1 : !tgc.ptr<f32>, vector<8xf32>
    %o1_0i = tgc.const 16 : index
    %o1_0 = tgc.index %out[%o1_0i] : !tgc.ptr<f32>
    %v1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_0, %v1_0 : !tgc.ptr<f32>, vector<8xf32>
    %o1_1i = tgc.const 24 : index
    %o1_1 = tgc.index %out[%o1_1i] : !tgc.ptr<f32>
    %v1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_1, %v1_1 : !tgc.ptr<f32>, vector<8xf32>
    %o2_0i = tgc.const 32 : index
    %o2_0 = tgc.index %out[%o2_0i] : !tgc.ptr<f32>
    %v2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_0, %v2_0 : !tgc.ptr<f32>, vector<8xf32>
    %o2_1i = tgc.const 40 : index
    %o2_1 = tgc.index %out[%o2_1i] : !tgc.ptr<f32>
    %v2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_1, %v2_1 : !tgc.ptr<f32>, vector<8xf32>
    %o3_0i = tgc.const 48 : index
    %o3_0 = tgc.index %out[%o3_0i] : !tgc.ptr<f32>
    %v3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_0, %v3_0 : !tgc.ptr<f32>, vector<8xf32>
    %o3_1i = tgc.const 56 : index
    %o3_1 = tgc.index %out[%o3_1i] : !tgc.ptr<f32>
    %v3_1 = tgc.load %s3_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_1, %v3_1 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<64xf32>
}

// Stride 2 (a stem): pixel p reads x[2p + k]; 2 taps apart, within the
// window of 3.
// CHECK-LABEL: func @stride_two(
//       CHECK:   tgc.range 3 reduce id 1 rolled
func.func @stride_two(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %k = tgc.kernel "r_stride_two" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c2 = tgc.const 2 : index
    %c4 = tgc.const 4 : index
    %c6 = tgc.const 6 : index
    %c8 = tgc.const 8 : index
    %c16 = tgc.const 16 : index
    %acc0_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_0 = tgc.index %acc0_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc0_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_1 = tgc.index %acc0_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_0 = tgc.index %acc1_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_1 = tgc.index %acc1_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_0 = tgc.index %acc2_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_1 = tgc.index %acc2_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_0 = tgc.index %acc3_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_1 = tgc.index %acc3_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c16 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %wi1 = tgc.add %wr, %c8 : index
    %pw1 = tgc.index %pw[%wi1] : !tgc.ptr<f32>
    %w1 = tgc.load %pw1 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_0 = tgc.mulacc %b0, %w0, %old0_0 : vector<8xf32>
    tgc.store %s0_0, %new0_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_1 = tgc.mulacc %b0, %w1, %old0_1 : vector<8xf32>
    tgc.store %s0_1, %new0_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %c2 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_0 = tgc.mulacc %b1, %w0, %old1_0 : vector<8xf32>
    tgc.store %s1_0, %new1_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_1 = tgc.mulacc %b1, %w1, %old1_1 : vector<8xf32>
    tgc.store %s1_1, %new1_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %c4 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_0 = tgc.mulacc %b2, %w0, %old2_0 : vector<8xf32>
    tgc.store %s2_0, %new2_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_1 = tgc.mulacc %b2, %w1, %old2_1 : vector<8xf32>
    tgc.store %s2_1, %new2_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %r, %c6 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_0 = tgc.mulacc %b3, %w0, %old3_0 : vector<8xf32>
    tgc.store %s3_0, %new3_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old3_1 = tgc.load %s3_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_1 = tgc.mulacc %b3, %w1, %old3_1 : vector<8xf32>
    tgc.store %s3_1, %new3_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0_0i = tgc.const 0 : index
    %o0_0 = tgc.index %out[%o0_0i] : !tgc.ptr<f32>
    %v0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_0, %v0_0 : !tgc.ptr<f32>, vector<8xf32>
    %o0_1i = tgc.const 8 : index
    %o0_1 = tgc.index %out[%o0_1i] : !tgc.ptr<f32>
    %v0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_1, %v0_1 : !tgc.ptr<f32>, vector<8xf32>
    %o1_0i = tgc.const 16 : index
    %o1_0 = tgc.index %out[%o1_0i] : !tgc.ptr<f32>
    %v1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_0, %v1_0 : !tgc.ptr<f32>, vector<8xf32>
    %o1_1i = tgc.const 24 : index
    %o1_1 = tgc.index %out[%o1_1i] : !tgc.ptr<f32>
    %v1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_1, %v1_1 : !tgc.ptr<f32>, vector<8xf32>
    %o2_0i = tgc.const 32 : index
    %o2_0 = tgc.index %out[%o2_0i] : !tgc.ptr<f32>
    %v2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_0, %v2_0 : !tgc.ptr<f32>, vector<8xf32>
    %o2_1i = tgc.const 40 : index
    %o2_1 = tgc.index %out[%o2_1i] : !tgc.ptr<f32>
    %v2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_1, %v2_1 : !tgc.ptr<f32>, vector<8xf32>
    %o3_0i = tgc.const 48 : index
    %o3_0 = tgc.index %out[%o3_0i] : !tgc.ptr<f32>
    %v3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_0, %v3_0 : !tgc.ptr<f32>, vector<8xf32>
    %o3_1i = tgc.const 56 : index
    %o3_1 = tgc.index %out[%o3_1i] : !tgc.ptr<f32>
    %v3_1 = tgc.load %s3_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_1, %v3_1 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<64xf32>
}

// Three pixels: the merged loads fit.
// CHECK-LABEL: func @row_of_three(
//   CHECK-NOT:   rolled
//       CHECK:   return
func.func @row_of_three(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<48xf32> {
  %k = tgc.kernel "r_row_of_three" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<48xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c8 = tgc.const 8 : index
    %c16 = tgc.const 16 : index
    %acc0_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_0 = tgc.index %acc0_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc0_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_1 = tgc.index %acc0_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_0 = tgc.index %acc1_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_1 = tgc.index %acc1_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_0 = tgc.index %acc2_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_1 = tgc.index %acc2_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c16 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %wi1 = tgc.add %wr, %c8 : index
    %pw1 = tgc.index %pw[%wi1] : !tgc.ptr<f32>
    %w1 = tgc.load %pw1 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_0 = tgc.mulacc %b0, %w0, %old0_0 : vector<8xf32>
    tgc.store %s0_0, %new0_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_1 = tgc.mulacc %b0, %w1, %old0_1 : vector<8xf32>
    tgc.store %s0_1, %new0_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %c1 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_0 = tgc.mulacc %b1, %w0, %old1_0 : vector<8xf32>
    tgc.store %s1_0, %new1_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_1 = tgc.mulacc %b1, %w1, %old1_1 : vector<8xf32>
    tgc.store %s1_1, %new1_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %c2 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_0 = tgc.mulacc %b2, %w0, %old2_0 : vector<8xf32>
    tgc.store %s2_0, %new2_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_1 = tgc.mulacc %b2, %w1, %old2_1 : vector<8xf32>
    tgc.store %s2_1, %new2_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0_0i = tgc.const 0 : index
    %o0_0 = tgc.index %out[%o0_0i] : !tgc.ptr<f32>
    %v0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_0, %v0_0 : !tgc.ptr<f32>, vector<8xf32>
    %o0_1i = tgc.const 8 : index
    %o0_1 = tgc.index %out[%o0_1i] : !tgc.ptr<f32>
    %v0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_1, %v0_1 : !tgc.ptr<f32>, vector<8xf32>
    %o1_0i = tgc.const 16 : index
    %o1_0 = tgc.index %out[%o1_0i] : !tgc.ptr<f32>
    %v1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_0, %v1_0 : !tgc.ptr<f32>, vector<8xf32>
    %o1_1i = tgc.const 24 : index
    %o1_1 = tgc.index %out[%o1_1i] : !tgc.ptr<f32>
    %v1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_1, %v1_1 : !tgc.ptr<f32>, vector<8xf32>
    %o2_0i = tgc.const 32 : index
    %o2_0 = tgc.index %out[%o2_0i] : !tgc.ptr<f32>
    %v2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_0, %v2_0 : !tgc.ptr<f32>, vector<8xf32>
    %o2_1i = tgc.const 40 : index
    %o2_1 = tgc.index %out[%o2_1i] : !tgc.ptr<f32>
    %v2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_1, %v2_1 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<48xf32>
}

// One vector by 4 pixels: 4 values alive, 9 registers: left to the
// compiler.
// CHECK-LABEL: func @one_vector(
//   CHECK-NOT:   rolled
//       CHECK:   return
func.func @one_vector(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<32xf32> {
  %k = tgc.kernel "r_one_vector" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c8 = tgc.const 8 : index
    %acc0_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_0 = tgc.index %acc0_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_0 = tgc.index %acc1_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_0 = tgc.index %acc2_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_0 = tgc.index %acc3_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c8 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_0 = tgc.mulacc %b0, %w0, %old0_0 : vector<8xf32>
    tgc.store %s0_0, %new0_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %c1 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_0 = tgc.mulacc %b1, %w0, %old1_0 : vector<8xf32>
    tgc.store %s1_0, %new1_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %c2 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_0 = tgc.mulacc %b2, %w0, %old2_0 : vector<8xf32>
    tgc.store %s2_0, %new2_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %r, %c3 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_0 = tgc.mulacc %b3, %w0, %old3_0 : vector<8xf32>
    tgc.store %s3_0, %new3_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0_0i = tgc.const 0 : index
    %o0_0 = tgc.index %out[%o0_0i] : !tgc.ptr<f32>
    %v0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_0, %v0_0 : !tgc.ptr<f32>, vector<8xf32>
    %o1_0i = tgc.const 8 : index
    %o1_0 = tgc.index %out[%o1_0i] : !tgc.ptr<f32>
    %v1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_0, %v1_0 : !tgc.ptr<f32>, vector<8xf32>
    %o2_0i = tgc.const 16 : index
    %o2_0 = tgc.index %out[%o2_0i] : !tgc.ptr<f32>
    %v2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_0, %v2_0 : !tgc.ptr<f32>, vector<8xf32>
    %o3_0i = tgc.const 24 : index
    %o3_0 = tgc.index %out[%o3_0i] : !tgc.ptr<f32>
    %v3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_0, %v3_0 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<32xf32>
}

// Pixels a whole window apart share no load.
// CHECK-LABEL: func @apart(
//   CHECK-NOT:   rolled
//       CHECK:   return
func.func @apart(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %k = tgc.kernel "r_apart" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c3 = tgc.const 3 : index
    %c6 = tgc.const 6 : index
    %c8 = tgc.const 8 : index
    %c9 = tgc.const 9 : index
    %c16 = tgc.const 16 : index
    %acc0_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_0 = tgc.index %acc0_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc0_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0_1 = tgc.index %acc0_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_0 = tgc.index %acc1_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1_1 = tgc.index %acc1_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_0 = tgc.index %acc2_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2_1 = tgc.index %acc2_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_0 = tgc.index %acc3_0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3_1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3_1 = tgc.index %acc3_1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3_1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c16 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %wi1 = tgc.add %wr, %c8 : index
    %pw1 = tgc.index %pw[%wi1] : !tgc.ptr<f32>
    %w1 = tgc.load %pw1 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_0 = tgc.mulacc %b0, %w0, %old0_0 : vector<8xf32>
    tgc.store %s0_0, %new0_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0_1 = tgc.mulacc %b0, %w1, %old0_1 : vector<8xf32>
    tgc.store %s0_1, %new0_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %c3 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_0 = tgc.mulacc %b1, %w0, %old1_0 : vector<8xf32>
    tgc.store %s1_0, %new1_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1_1 = tgc.mulacc %b1, %w1, %old1_1 : vector<8xf32>
    tgc.store %s1_1, %new1_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %c6 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_0 = tgc.mulacc %b2, %w0, %old2_0 : vector<8xf32>
    tgc.store %s2_0, %new2_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2_1 = tgc.mulacc %b2, %w1, %old2_1 : vector<8xf32>
    tgc.store %s2_1, %new2_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %r, %c9 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_0 = tgc.mulacc %b3, %w0, %old3_0 : vector<8xf32>
    tgc.store %s3_0, %new3_0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %old3_1 = tgc.load %s3_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3_1 = tgc.mulacc %b3, %w1, %old3_1 : vector<8xf32>
    tgc.store %s3_1, %new3_1 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0_0i = tgc.const 0 : index
    %o0_0 = tgc.index %out[%o0_0i] : !tgc.ptr<f32>
    %v0_0 = tgc.load %s0_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_0, %v0_0 : !tgc.ptr<f32>, vector<8xf32>
    %o0_1i = tgc.const 8 : index
    %o0_1 = tgc.index %out[%o0_1i] : !tgc.ptr<f32>
    %v0_1 = tgc.load %s0_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0_1, %v0_1 : !tgc.ptr<f32>, vector<8xf32>
    %o1_0i = tgc.const 16 : index
    %o1_0 = tgc.index %out[%o1_0i] : !tgc.ptr<f32>
    %v1_0 = tgc.load %s1_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_0, %v1_0 : !tgc.ptr<f32>, vector<8xf32>
    %o1_1i = tgc.const 24 : index
    %o1_1 = tgc.index %out[%o1_1i] : !tgc.ptr<f32>
    %v1_1 = tgc.load %s1_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1_1, %v1_1 : !tgc.ptr<f32>, vector<8xf32>
    %o2_0i = tgc.const 32 : index
    %o2_0 = tgc.index %out[%o2_0i] : !tgc.ptr<f32>
    %v2_0 = tgc.load %s2_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_0, %v2_0 : !tgc.ptr<f32>, vector<8xf32>
    %o2_1i = tgc.const 40 : index
    %o2_1 = tgc.index %out[%o2_1i] : !tgc.ptr<f32>
    %v2_1 = tgc.load %s2_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2_1, %v2_1 : !tgc.ptr<f32>, vector<8xf32>
    %o3_0i = tgc.const 48 : index
    %o3_0 = tgc.index %out[%o3_0i] : !tgc.ptr<f32>
    %v3_0 = tgc.load %s3_0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_0, %v3_0 : !tgc.ptr<f32>, vector<8xf32>
    %o3_1i = tgc.const 56 : index
    %o3_1 = tgc.index %out[%o3_1i] : !tgc.ptr<f32>
    %v3_1 = tgc.load %s3_1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3_1, %v3_1 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<64xf32>
}

// One vector by 7 pixels at stride 2: the middle tap reads 7 values of its
// own while the 6 the other two share stay alive; with 7 accumulators and
// the weight vector, 21 of 16 registers.
// CHECK-LABEL: func @one_vector_stride_two(
//       CHECK:   tgc.range 3 reduce id 1 rolled
func.func @one_vector_stride_two(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<56xf32> {
  %k = tgc.kernel "r_one_vector_stride_two" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<56xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c8 = tgc.const 8 : index
    %k2 = tgc.const 2 : index
    %k4 = tgc.const 4 : index
    %k6 = tgc.const 6 : index
    %k8 = tgc.const 8 : index
    %k10 = tgc.const 10 : index
    %k12 = tgc.const 12 : index
    %acc0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0 = tgc.index %acc0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1 = tgc.index %acc1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2 = tgc.index %acc2[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3 = tgc.index %acc3[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc4 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s4 = tgc.index %acc4[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s4, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc5 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s5 = tgc.index %acc5[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s5, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc6 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s6 = tgc.index %acc6[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s6, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c8 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0 = tgc.mulacc %b0, %w0, %old0 : vector<8xf32>
    tgc.store %s0, %new0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %k2 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1 = tgc.mulacc %b1, %w0, %old1 : vector<8xf32>
    tgc.store %s1, %new1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %k4 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2 = tgc.load %s2 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2 = tgc.mulacc %b2, %w0, %old2 : vector<8xf32>
    tgc.store %s2, %new2 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %r, %k6 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3 = tgc.load %s3 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3 = tgc.mulacc %b3, %w0, %old3 : vector<8xf32>
    tgc.store %s3, %new3 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i4 = tgc.add %r, %k8 : index
    %pa4 = tgc.index %pa[%i4] : !tgc.ptr<f32>
    %x4 = tgc.load %pa4 : !tgc.ptr<f32> -> f32
    %b4 = tgc.vectorize %x4, %x4, %x4, %x4, %x4, %x4, %x4, %x4 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old4 = tgc.load %s4 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new4 = tgc.mulacc %b4, %w0, %old4 : vector<8xf32>
    tgc.store %s4, %new4 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i5 = tgc.add %r, %k10 : index
    %pa5 = tgc.index %pa[%i5] : !tgc.ptr<f32>
    %x5 = tgc.load %pa5 : !tgc.ptr<f32> -> f32
    %b5 = tgc.vectorize %x5, %x5, %x5, %x5, %x5, %x5, %x5, %x5 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old5 = tgc.load %s5 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new5 = tgc.mulacc %b5, %w0, %old5 : vector<8xf32>
    tgc.store %s5, %new5 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i6 = tgc.add %r, %k12 : index
    %pa6 = tgc.index %pa[%i6] : !tgc.ptr<f32>
    %x6 = tgc.load %pa6 : !tgc.ptr<f32> -> f32
    %b6 = tgc.vectorize %x6, %x6, %x6, %x6, %x6, %x6, %x6, %x6 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old6 = tgc.load %s6 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new6 = tgc.mulacc %b6, %w0, %old6 : vector<8xf32>
    tgc.store %s6, %new6 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0i = tgc.const 0 : index
    %o0 = tgc.index %out[%o0i] : !tgc.ptr<f32>
    %v0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0, %v0 : !tgc.ptr<f32>, vector<8xf32>
    %o1i = tgc.const 8 : index
    %o1 = tgc.index %out[%o1i] : !tgc.ptr<f32>
    %v1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1, %v1 : !tgc.ptr<f32>, vector<8xf32>
    %o2i = tgc.const 16 : index
    %o2 = tgc.index %out[%o2i] : !tgc.ptr<f32>
    %v2 = tgc.load %s2 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2, %v2 : !tgc.ptr<f32>, vector<8xf32>
    %o3i = tgc.const 24 : index
    %o3 = tgc.index %out[%o3i] : !tgc.ptr<f32>
    %v3 = tgc.load %s3 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3, %v3 : !tgc.ptr<f32>, vector<8xf32>
    %o4i = tgc.const 32 : index
    %o4 = tgc.index %out[%o4i] : !tgc.ptr<f32>
    %v4 = tgc.load %s4 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o4, %v4 : !tgc.ptr<f32>, vector<8xf32>
    %o5i = tgc.const 40 : index
    %o5 = tgc.index %out[%o5i] : !tgc.ptr<f32>
    %v5 = tgc.load %s5 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o5, %v5 : !tgc.ptr<f32>, vector<8xf32>
    %o6i = tgc.const 48 : index
    %o6 = tgc.index %out[%o6i] : !tgc.ptr<f32>
    %v6 = tgc.load %s6 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o6, %v6 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<56xf32>
}

// At stride 1 a tap reads one value more than the one before kept: 7
// alive, 15 registers in all.
// CHECK-LABEL: func @one_vector_stride_one(
//   CHECK-NOT:   rolled
//       CHECK:   return
func.func @one_vector_stride_one(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<56xf32> {
  %k = tgc.kernel "r_one_vector_stride_one" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<56xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c8 = tgc.const 8 : index
    %k1 = tgc.const 1 : index
    %k2 = tgc.const 2 : index
    %k3 = tgc.const 3 : index
    %k4 = tgc.const 4 : index
    %k5 = tgc.const 5 : index
    %k6 = tgc.const 6 : index
    %acc0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0 = tgc.index %acc0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1 = tgc.index %acc1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2 = tgc.index %acc2[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3 = tgc.index %acc3[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc4 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s4 = tgc.index %acc4[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s4, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc5 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s5 = tgc.index %acc5[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s5, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc6 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s6 = tgc.index %acc6[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s6, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c8 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %pa0 = tgc.index %pa[%r] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0 = tgc.mulacc %b0, %w0, %old0 : vector<8xf32>
    tgc.store %s0, %new0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %r, %k1 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1 = tgc.mulacc %b1, %w0, %old1 : vector<8xf32>
    tgc.store %s1, %new1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %r, %k2 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2 = tgc.load %s2 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2 = tgc.mulacc %b2, %w0, %old2 : vector<8xf32>
    tgc.store %s2, %new2 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %r, %k3 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3 = tgc.load %s3 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3 = tgc.mulacc %b3, %w0, %old3 : vector<8xf32>
    tgc.store %s3, %new3 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i4 = tgc.add %r, %k4 : index
    %pa4 = tgc.index %pa[%i4] : !tgc.ptr<f32>
    %x4 = tgc.load %pa4 : !tgc.ptr<f32> -> f32
    %b4 = tgc.vectorize %x4, %x4, %x4, %x4, %x4, %x4, %x4, %x4 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old4 = tgc.load %s4 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new4 = tgc.mulacc %b4, %w0, %old4 : vector<8xf32>
    tgc.store %s4, %new4 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i5 = tgc.add %r, %k5 : index
    %pa5 = tgc.index %pa[%i5] : !tgc.ptr<f32>
    %x5 = tgc.load %pa5 : !tgc.ptr<f32> -> f32
    %b5 = tgc.vectorize %x5, %x5, %x5, %x5, %x5, %x5, %x5, %x5 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old5 = tgc.load %s5 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new5 = tgc.mulacc %b5, %w0, %old5 : vector<8xf32>
    tgc.store %s5, %new5 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i6 = tgc.add %r, %k6 : index
    %pa6 = tgc.index %pa[%i6] : !tgc.ptr<f32>
    %x6 = tgc.load %pa6 : !tgc.ptr<f32> -> f32
    %b6 = tgc.vectorize %x6, %x6, %x6, %x6, %x6, %x6, %x6, %x6 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old6 = tgc.load %s6 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new6 = tgc.mulacc %b6, %w0, %old6 : vector<8xf32>
    tgc.store %s6, %new6 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    %o0i = tgc.const 0 : index
    %o0 = tgc.index %out[%o0i] : !tgc.ptr<f32>
    %v0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0, %v0 : !tgc.ptr<f32>, vector<8xf32>
    %o1i = tgc.const 8 : index
    %o1 = tgc.index %out[%o1i] : !tgc.ptr<f32>
    %v1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1, %v1 : !tgc.ptr<f32>, vector<8xf32>
    %o2i = tgc.const 16 : index
    %o2 = tgc.index %out[%o2i] : !tgc.ptr<f32>
    %v2 = tgc.load %s2 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2, %v2 : !tgc.ptr<f32>, vector<8xf32>
    %o3i = tgc.const 24 : index
    %o3 = tgc.index %out[%o3i] : !tgc.ptr<f32>
    %v3 = tgc.load %s3 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3, %v3 : !tgc.ptr<f32>, vector<8xf32>
    %o4i = tgc.const 32 : index
    %o4 = tgc.index %out[%o4i] : !tgc.ptr<f32>
    %v4 = tgc.load %s4 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o4, %v4 : !tgc.ptr<f32>, vector<8xf32>
    %o5i = tgc.const 40 : index
    %o5 = tgc.index %out[%o5i] : !tgc.ptr<f32>
    %v5 = tgc.load %s5 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o5, %v5 : !tgc.ptr<f32>, vector<8xf32>
    %o6i = tgc.const 48 : index
    %o6 = tgc.index %out[%o6i] : !tgc.ptr<f32>
    %v6 = tgc.load %s6 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o6, %v6 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<56xf32>
}

// A convolution fused with its max pool: the pool's taps move along the
// same line (measured slower kept a loop).
// CHECK-LABEL: func @one_vector_pooled(
//   CHECK-NOT:   rolled
//       CHECK:   return
func.func @one_vector_pooled(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<56xf32> {
  %k = tgc.kernel "r_one_vector_pooled" (%a, %w) : (tensor<64xf32>, tensor<64xf32>) -> tensor<56xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c0 = tgc.const 0 : index
    %zero = tgc.const dense<0.0> : vector<8xf32>
    %c8 = tgc.const 8 : index
    %k2 = tgc.const 2 : index
    %k4 = tgc.const 4 : index
    %k6 = tgc.const 6 : index
    %k8 = tgc.const 8 : index
    %k10 = tgc.const 10 : index
    %k12 = tgc.const 12 : index
    %acc0 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s0 = tgc.index %acc0[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s0, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc1 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s1 = tgc.index %acc1[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s1, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc2 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s2 = tgc.index %acc2[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s2, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc3 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s3 = tgc.index %acc3[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s3, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc4 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s4 = tgc.index %acc4[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s4, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc5 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s5 = tgc.index %acc5[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s5, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %acc6 = tgc.define_reg 8 : !tgc.ptr<f32, reg>
    %s6 = tgc.index %acc6[%c0] : !tgc.ptr<f32, reg>
    tgc.store %s6, %zero : !tgc.ptr<f32, reg>, vector<8xf32>
    %q = tgc.range 2 reduce id 2
    %r = tgc.range 3 reduce id 1
    %wr = tgc.mul %r, %c8 : index
    %pw0 = tgc.index %pw[%wr] : !tgc.ptr<f32>
    %w0 = tgc.load %pw0 : !tgc.ptr<f32> -> vector<8xf32>
    %rq = tgc.add %r, %q : index
    %pa0 = tgc.index %pa[%rq] : !tgc.ptr<f32>
    %x0 = tgc.load %pa0 : !tgc.ptr<f32> -> f32
    %b0 = tgc.vectorize %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new0 = tgc.mulacc %b0, %w0, %old0 : vector<8xf32>
    tgc.store %s0, %new0 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i1 = tgc.add %rq, %k2 : index
    %pa1 = tgc.index %pa[%i1] : !tgc.ptr<f32>
    %x1 = tgc.load %pa1 : !tgc.ptr<f32> -> f32
    %b1 = tgc.vectorize %x1, %x1, %x1, %x1, %x1, %x1, %x1, %x1 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new1 = tgc.mulacc %b1, %w0, %old1 : vector<8xf32>
    tgc.store %s1, %new1 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i2 = tgc.add %rq, %k4 : index
    %pa2 = tgc.index %pa[%i2] : !tgc.ptr<f32>
    %x2 = tgc.load %pa2 : !tgc.ptr<f32> -> f32
    %b2 = tgc.vectorize %x2, %x2, %x2, %x2, %x2, %x2, %x2, %x2 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old2 = tgc.load %s2 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new2 = tgc.mulacc %b2, %w0, %old2 : vector<8xf32>
    tgc.store %s2, %new2 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i3 = tgc.add %rq, %k6 : index
    %pa3 = tgc.index %pa[%i3] : !tgc.ptr<f32>
    %x3 = tgc.load %pa3 : !tgc.ptr<f32> -> f32
    %b3 = tgc.vectorize %x3, %x3, %x3, %x3, %x3, %x3, %x3, %x3 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old3 = tgc.load %s3 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new3 = tgc.mulacc %b3, %w0, %old3 : vector<8xf32>
    tgc.store %s3, %new3 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i4 = tgc.add %rq, %k8 : index
    %pa4 = tgc.index %pa[%i4] : !tgc.ptr<f32>
    %x4 = tgc.load %pa4 : !tgc.ptr<f32> -> f32
    %b4 = tgc.vectorize %x4, %x4, %x4, %x4, %x4, %x4, %x4, %x4 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old4 = tgc.load %s4 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new4 = tgc.mulacc %b4, %w0, %old4 : vector<8xf32>
    tgc.store %s4, %new4 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i5 = tgc.add %rq, %k10 : index
    %pa5 = tgc.index %pa[%i5] : !tgc.ptr<f32>
    %x5 = tgc.load %pa5 : !tgc.ptr<f32> -> f32
    %b5 = tgc.vectorize %x5, %x5, %x5, %x5, %x5, %x5, %x5, %x5 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old5 = tgc.load %s5 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new5 = tgc.mulacc %b5, %w0, %old5 : vector<8xf32>
    tgc.store %s5, %new5 : !tgc.ptr<f32, reg>, vector<8xf32>
    %i6 = tgc.add %rq, %k12 : index
    %pa6 = tgc.index %pa[%i6] : !tgc.ptr<f32>
    %x6 = tgc.load %pa6 : !tgc.ptr<f32> -> f32
    %b6 = tgc.vectorize %x6, %x6, %x6, %x6, %x6, %x6, %x6, %x6 : (f32, f32, f32, f32, f32, f32, f32, f32) -> vector<8xf32>
    %old6 = tgc.load %s6 : !tgc.ptr<f32, reg> -> vector<8xf32>
    %new6 = tgc.mulacc %b6, %w0, %old6 : vector<8xf32>
    tgc.store %s6, %new6 : !tgc.ptr<f32, reg>, vector<8xf32>
    tgc.end %r
    tgc.end %q
    %o0i = tgc.const 0 : index
    %o0 = tgc.index %out[%o0i] : !tgc.ptr<f32>
    %v0 = tgc.load %s0 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o0, %v0 : !tgc.ptr<f32>, vector<8xf32>
    %o1i = tgc.const 8 : index
    %o1 = tgc.index %out[%o1i] : !tgc.ptr<f32>
    %v1 = tgc.load %s1 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o1, %v1 : !tgc.ptr<f32>, vector<8xf32>
    %o2i = tgc.const 16 : index
    %o2 = tgc.index %out[%o2i] : !tgc.ptr<f32>
    %v2 = tgc.load %s2 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o2, %v2 : !tgc.ptr<f32>, vector<8xf32>
    %o3i = tgc.const 24 : index
    %o3 = tgc.index %out[%o3i] : !tgc.ptr<f32>
    %v3 = tgc.load %s3 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o3, %v3 : !tgc.ptr<f32>, vector<8xf32>
    %o4i = tgc.const 32 : index
    %o4 = tgc.index %out[%o4i] : !tgc.ptr<f32>
    %v4 = tgc.load %s4 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o4, %v4 : !tgc.ptr<f32>, vector<8xf32>
    %o5i = tgc.const 40 : index
    %o5 = tgc.index %out[%o5i] : !tgc.ptr<f32>
    %v5 = tgc.load %s5 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o5, %v5 : !tgc.ptr<f32>, vector<8xf32>
    %o6i = tgc.const 48 : index
    %o6 = tgc.index %out[%o6i] : !tgc.ptr<f32>
    %v6 = tgc.load %s6 : !tgc.ptr<f32, reg> -> vector<8xf32>
    tgc.store %o6, %v6 : !tgc.ptr<f32>, vector<8xf32>
    tgc.sink
  }
  return %k : tensor<56xf32>
}
