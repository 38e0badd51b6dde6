// The C renderer, op by op: signatures, loops, registers, gated accesses,
// the C spelling of each op's semantics, and the run function. The output
// must also compile cleanly as strict C99 with gcc and clang.
// RUN: tgc-translate --emit-c %s | FileCheck %s
// RUN: tgc-translate --emit-c %s > %t.c
// RUN: gcc -std=c99 -Wall -Wextra -Werror -pedantic -c %t.c -o %t.gcc.o
// RUN: clang -std=c99 -Wall -Wextra -Werror -pedantic -c %t.c -o %t.clang.o
// RUN: tgc-translate --emit-c --emit-c-name=model2 %s | FileCheck %s --check-prefix=NAME

// I/O names become unique C identifiers; macros carry the original name.
// CHECK-LABEL: #define NET_INPUT_1_NAME "input.1"
// CHECK: #define NET_INPUT_1_SHAPE { 2, 4 }
// CHECK: #define NET_T_2D_NAME "2d"
// CHECK: #define NET_INT__NAME "int"
// CHECK: #define NET_INPUT_1_2_NAME "input_1"
// CHECK: #define NET_SCALAR_RANK 0
// CHECK-NOT: NET_SCALAR_SHAPE
// CHECK: #define NET_SCALAR_ELEMS 1
// CHECK-LABEL: typedef struct net_inputs {
// CHECK-NEXT:   const float *input_1; /* "input.1" float32 [2, 4] */
// CHECK-NEXT:   const int64_t *t_2d; /* "2d" int64 [4] */
// CHECK-NEXT:   const uint8_t *int_; /* "int" uint8 [4] */
// CHECK-NEXT: } net_inputs;
// CHECK-LABEL: typedef struct net_outputs {
// CHECK-NEXT:   float *input_1_2; /* "input_1" float32 [2, 4] */
// CHECK: int net_run(const net_inputs *in, net_outputs *out, void *arena);

// Reductions into a register array; loop variables from the range ids; a
// rolled range asks the compiler to keep its loop.
// CHECK: #define TGC_ROLLED _Pragma("GCC unroll 1")
// CHECK-LABEL: static void net_r_2_4(const float *restrict data0, float *restrict data1) {
// CHECK-NEXT:   for (ptrdiff_t ridx0 = 0; ridx0 < 2; ridx0++) {
// CHECK-NEXT:     float acc0[1];
// CHECK-NEXT:     acc0[0] = (-HUGE_VALF);
// CHECK:          TGC_ROLLED
// CHECK-NEXT:     for (ptrdiff_t ridx1 = 0; ridx1 < 4; ridx1++) {
// CHECK:            float val0 = data0[alu1];
// CHECK-NEXT:       float val1 = acc0[0];
// CHECK-NEXT:       float alu2 = (val1 != val1 || val1 > val0) ? val1 : val0;
// CHECK-NEXT:       acc0[0] = alu2;
// CHECK-NEXT:     }
// CHECK-NEXT:     float val2 = acc0[0];
// CHECK-NEXT:     data1[ridx0] = val2;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Float math: exact literals, single-precision functions, mulacc.
// CHECK-LABEL: static void net_E_8(const float *restrict data0, float *restrict data1) {
// CHECK:   float alu0 = tgc_exp2f(val0);
// CHECK-NEXT:   float alu1 = log2f(alu0);
// CHECK-NEXT:   float alu2 = sinf(alu1);
// CHECK-NEXT:   float alu3 = sqrtf(alu2);
// CHECK-NEXT:   float alu4 = 1.0f / alu3;
// CHECK-NEXT:   float alu5 = truncf(alu4);
// CHECK-NEXT:   float alu6 = powf(alu5, 0.1f);
// CHECK-NEXT:   float alu7 = -alu6;
// CHECK-NEXT:   float alu8 = alu7 * 1e+10f + (-2.5f);
// CHECK-NEXT:   float alu9 = alu8 - NAN;
// CHECK-NEXT:   float alu10 = alu9 / 3.0f;
// CHECK-NEXT:   bool alu11 = alu10 != alu10;
// CHECK-NEXT:   bool alu12 = alu10 == 0.0f;
// CHECK-NEXT:   bool alu13 = alu11 ^ alu12;
// CHECK-NEXT:   float alu14 = alu13 ? alu10 : 1e-45f;
// CHECK-NEXT:   data1[ridx0] = alu14;

// Integers: wrap-around arithmetic through unsigned types, shifts, literals.
// CHECK-LABEL: static void net_E_4(const int64_t *restrict data0, const uint8_t *restrict data1, int64_t *restrict data2, uint8_t *restrict data3) {
// CHECK:   int64_t alu0 = (int64_t)((uint64_t)val0 * (uint64_t)(-9223372036854775807 - 1));
// CHECK-NEXT:   int64_t alu1 = (int64_t)((uint64_t)alu0 + (uint64_t)val0);
// CHECK-NEXT:   int64_t alu2 = (int64_t)((uint64_t)alu1 << (uint64_t)3);
// CHECK-NEXT:   int64_t alu3 = alu2 >> 1;
// CHECK-NEXT:   int64_t alu4 = (int64_t)((uint64_t)0 - (uint64_t)alu3);
// CHECK-NEXT:   int64_t alu5 = alu4 > val0 ? alu4 : val0;
// CHECK:   uint8_t alu6 = (uint8_t)((uint32_t)val1 * (uint32_t)200u);
// CHECK-NEXT:   uint8_t alu7 = alu6 | 1u;
// CHECK-NEXT:   uint8_t alu8 = (uint8_t)((uint32_t)alu7 - (uint32_t)val1);

// A second kernel with the same name gets a unique function; an input the
// kernel does not read is cast to void; a gated store becomes an if.
// CHECK-LABEL: static void net_E_4_2(const int64_t *restrict data0, const uint8_t *restrict data1, float *restrict data2) {
// CHECK-NEXT:   (void)data0;
// CHECK:   bool alu0 = val0 != 0u;
// CHECK-NEXT:   bool alu1 = val0 < 0u;
// CHECK-NEXT:   bool alu2 = alu0 | alu1;
// CHECK-NEXT:   if (alu2) data2[ridx0] = 1.0f;

// Conversions: truncating casts, bool, bit casts through memcpy helpers,
// double math without the f suffix.
// CHECK-LABEL: static void net_E_4_3(const float *restrict data0, int32_t *restrict data1, uint32_t *restrict data2, double *restrict data3) {
// CHECK:   int32_t cast0 = (int32_t)val0;
// CHECK:   uint32_t cast1 = tgc_float_bits(val0);
// CHECK:   double cast2 = (double)val0;
// CHECK-NEXT:   double alu0 = sqrt(cast2);
// CHECK-NEXT:   double alu1 = 1.0 / alu0;
// CHECK-NEXT:   double alu2 = alu1 + 0.1;

// Vectors of f32 are native vector values; lanes are read with _lane and
// vectors made from lanes with _make; a reciprocal is one vector op, not
// a _make of each lane's. (vectors-run.mlir runs them.)
// CHECK-LABEL: static void net_E_2_4(const float *restrict data0, float *restrict data1) {
// CHECK:   tgc_f32x4 val0 = tgc_f32x4_load(data0 + alu0);
// CHECK-NEXT:   tgc_f32x2 vec0 = tgc_f32x2_make(tgc_f32x4_lane(val0, 1), tgc_f32x4_lane(val0, 3));
// CHECK-NEXT:   tgc_f32x2 alu1 = tgc_f32x2_add(vec0, tgc_f32x2_make(1.0f, 2.0f));
// CHECK-NEXT:   tgc_f32x2 alu2 = tgc_f32x2_recip(alu1);
// CHECK-NEXT:   ptrdiff_t alu3 = ridx0 * 2;
// CHECK:   tgc_f32x2_store(data1 + alu3, vec2);

// tgc.if; a register nothing reads is neither declared nor stored to.
// CHECK-LABEL: static void net_E_1(const float *restrict data0, float *restrict data1) {
// CHECK-NEXT:   float val0 = data0[0];
// CHECK-NEXT:   bool alu0 = val0 < 0.0f;
// CHECK-NEXT:   if (alu0) {
// CHECK-NEXT:     data1[0] = val0;
// CHECK-NEXT:   }

// The run function checks every pointer, then calls the kernels in order;
// outputs no kernel writes in place are copied.
// CHECK-LABEL: int net_run(const net_inputs *in, net_outputs *out, void *arena) {
// CHECK-NEXT:   return net_run_parallel(in, out, arena, NULL, NULL);
// CHECK-NEXT: }
// CHECK-LABEL: int net_run_parallel(const net_inputs *in, net_outputs *out, void *arena,
// CHECK-NEXT:     tgc_parallel_for_fn parallel_for, void *context) {
// CHECK-NEXT:   unsigned char *mem = (unsigned char *)arena;
// CHECK-NEXT:   const unsigned char *blob = net_weights;
// CHECK-NEXT:   if (!in || !out)
// CHECK-NEXT:     return NET_ERR_NULL;
// CHECK-NEXT:   if (!in->input_1 || !in->t_2d || !in->int_ || !out->input_1_2 || !out->reduced || !out->again || !out->ints || !out->bytes || !out->gated || !out->casts || !out->bits || !out->doubles || !out->vec || !out->scalar)
// CHECK-NEXT:     return NET_ERR_NULL;
// CHECK-NEXT:   if (!arena)
// CHECK-NEXT:     return NET_ERR_NULL;
// CHECK-NEXT:   if ((uintptr_t)arena % NET_ARENA_ALIGN != 0)
// CHECK-NEXT:     return NET_ERR_ALIGN;
// CHECK-NEXT:   (void)parallel_for; /* no kernel is worth splitting */
// CHECK-NEXT:   (void)context;
// CHECK-NEXT:   net_r_2_4(in->input_1, (float *)(mem + 64));
// CHECK-NEXT:   NET_KERNEL_DONE(0);
// CHECK-NEXT:   net_E_8(in->input_1, out->reduced);
// CHECK-NEXT:   NET_KERNEL_DONE(1);
// CHECK-NEXT:   net_E_4(in->t_2d, in->int_, out->ints, out->bytes);
// CHECK-NEXT:   NET_KERNEL_DONE(2);
// CHECK-NEXT:   net_E_4_2(in->t_2d, in->int_, out->gated);
// CHECK-NEXT:   NET_KERNEL_DONE(3);
// CHECK-NEXT:   net_E_4_3((const float *)(mem + 64), out->casts, out->bits, out->doubles);
// CHECK-NEXT:   NET_KERNEL_DONE(4);
// CHECK-NEXT:   net_E_2_4((const float *)(blob + 0), out->vec);
// CHECK-NEXT:   NET_KERNEL_DONE(5);
// CHECK-NEXT:   net_E_1(in->input_1, out->scalar);
// CHECK-NEXT:   NET_KERNEL_DONE(6);
// CHECK-NEXT:   memcpy(out->input_1_2, in->input_1, NET_INPUT_1_2_BYTES);
// CHECK-NEXT:   memcpy(out->again, out->reduced, NET_AGAIN_BYTES);
// CHECK-NEXT:   return NET_OK;
// CHECK-NEXT: }

// NAME: #define MODEL2_ARENA_BYTES 128
// NAME: typedef struct model2_inputs {
// NAME: static void model2_r_2_4(
// NAME: #define MODEL2_KERNEL_DONE(index) ((void)0)
// NAME: int model2_run(const model2_inputs *in, model2_outputs *out, void *arena) {

module attributes {tgc.arena_bytes = 128 : i64, tgc.arena_align = 64 : i64, tgc.peak_bytes = 32 : i64} {
  func.func @main(%x: tensor<2x4xf32> {tgc.name = "input.1"}, %l: tensor<4xsi64> {tgc.name = "2d"},
                  %u: tensor<4xui8> {tgc.name = "int"})
      -> (tensor<2x4xf32> {tgc.name = "input_1"}, tensor<8xf32> {tgc.name = "reduced"},
          tensor<8xf32> {tgc.name = "again"}, tensor<4xsi64> {tgc.name = "ints"},
          tensor<4xui8> {tgc.name = "bytes"}, tensor<4xf32> {tgc.name = "gated"},
          tensor<2xsi32> {tgc.name = "casts"}, tensor<2xui32> {tgc.name = "bits"},
          tensor<2xf64> {tgc.name = "doubles"}, tensor<4xf32> {tgc.name = "vec"},
          tensor<f32> {tgc.name = "scalar"}) {
    %w = tgc.const dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>

    %rmax = tgc.kernel "r_2_4" (%x) {arena_offset = array<i64: 64>} : (tensor<2x4xf32>) -> tensor<2xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c4 = tgc.const 4 : index
      %ninf = tgc.const 0xFF800000 : f32
      %i = tgc.range 2 global id 0
      %acc = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      %a0 = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      tgc.store %a0, %ninf : !tgc.ptr<f32, reg>, f32
      %row = tgc.mul %i, %c4 : index
      %k = tgc.range 4 reduce id 1 rolled
      %idx = tgc.add %row, %k : index
      %p = tgc.index %in[%idx] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %old = tgc.load %a0 : !tgc.ptr<f32, reg> -> f32
      %new = tgc.max %old, %v : f32
      tgc.store %a0, %new : !tgc.ptr<f32, reg>, f32
      tgc.end %k
      %s = tgc.load %a0 : !tgc.ptr<f32, reg> -> f32
      %o = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %o, %s : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }

    %math = tgc.kernel "E_8" (%x) {arena_offset = array<i64: -1>} : (tensor<2x4xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %tenth = tgc.const 0.1 : f32
      %big = tgc.const 1.0e10 : f32
      %neg = tgc.const -2.5 : f32
      %nan = tgc.const 0x7FC00000 : f32
      %three = tgc.const 3.0 : f32
      %zero = tgc.const 0.0 : f32
      %tiny = tgc.const 1.40129846e-45 : f32
      %i = tgc.range 8 global id 0
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %a = tgc.exp2 %v : f32
      %b = tgc.log2 %a : f32
      %c = tgc.sin %b : f32
      %d = tgc.sqrt %c : f32
      %e = tgc.recip %d : f32
      %f = tgc.trunc %e : f32
      %g = tgc.pow %f, %tenth : f32
      %h = tgc.neg %g : f32
      %m = tgc.mulacc %h, %big, %neg : f32
      %n = tgc.sub %m, %nan : f32
      %q = tgc.fdiv %n, %three : f32
      %isnan = tgc.cmpne %q, %q : f32
      %iszero = tgc.cmpeq %q, %zero : f32
      %either = tgc.xor %isnan, %iszero : i1
      %r = tgc.where %either, %q, %tiny : i1, f32
      %o = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %o, %r : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }

    %ints:2 = tgc.kernel "E_4" (%l, %u) {arena_offset = array<i64: -1, -1>} : (tensor<4xsi64>, tensor<4xui8>) -> (tensor<4xsi64>, tensor<4xui8>) {
    ^bb0(%a: !tgc.ptr<si64>, %b: !tgc.ptr<ui8>, %out: !tgc.ptr<si64>, %out2: !tgc.ptr<ui8>):
      %min = tgc.const -9223372036854775808 : si64
      %three = tgc.const 3 : si64
      %one = tgc.const 1 : si64
      %c200 = tgc.const 200 : ui8
      %c1u = tgc.const 1 : ui8
      %i = tgc.range 4 global id 0
      %p = tgc.index %a[%i] : !tgc.ptr<si64>
      %v = tgc.load %p : !tgc.ptr<si64> -> si64
      %m = tgc.mul %v, %min : si64
      %s = tgc.add %m, %v : si64
      %sh = tgc.shl %s, %three : si64
      %sr = tgc.shr %sh, %one : si64
      %n = tgc.neg %sr : si64
      %mx = tgc.max %n, %v : si64
      %o = tgc.index %out[%i] : !tgc.ptr<si64>
      tgc.store %o, %mx : !tgc.ptr<si64>, si64
      %pb = tgc.index %b[%i] : !tgc.ptr<ui8>
      %vb = tgc.load %pb : !tgc.ptr<ui8> -> ui8
      %mb = tgc.mul %vb, %c200 : ui8
      %ob = tgc.or %mb, %c1u : ui8
      %db = tgc.sub %ob, %vb : ui8
      %o2 = tgc.index %out2[%i] : !tgc.ptr<ui8>
      tgc.store %o2, %db : !tgc.ptr<ui8>, ui8
      tgc.end %i
      tgc.sink
    }

    %gated = tgc.kernel "E_4" (%l, %u) {arena_offset = array<i64: -1>} : (tensor<4xsi64>, tensor<4xui8>) -> tensor<4xf32> {
    ^bb0(%a: !tgc.ptr<si64>, %b: !tgc.ptr<ui8>, %out: !tgc.ptr<f32>):
      %zero = tgc.const 0 : ui8
      %one = tgc.const 1.0 : f32
      %i = tgc.range 4 global id 0
      %pb = tgc.index %b[%i] : !tgc.ptr<ui8>
      %vb = tgc.load %pb : !tgc.ptr<ui8> -> ui8
      %nz = tgc.cmpne %vb, %zero : ui8
      %never = tgc.cmplt %vb, %zero : ui8
      %store = tgc.or %nz, %never : i1
      %o = tgc.index %out[%i], %store : !tgc.ptr<f32>
      tgc.store %o, %one : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }

    %conv:3 = tgc.kernel "E_4" (%rmax) {arena_offset = array<i64: -1, -1, -1>} : (tensor<2xf32>) -> (tensor<2xsi32>, tensor<2xui32>, tensor<2xf64>) {
    ^bb0(%in: !tgc.ptr<f32>, %o1: !tgc.ptr<si32>, %o2: !tgc.ptr<ui32>, %o3: !tgc.ptr<f64>):
      %tenth = tgc.const 0.1 : f64
      %i = tgc.range 2 global id 0
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %t = tgc.cast %v : f32 to si32
      %q1 = tgc.index %o1[%i] : !tgc.ptr<si32>
      tgc.store %q1, %t : !tgc.ptr<si32>, si32
      %bits = tgc.bitcast %v : f32 to ui32
      %q2 = tgc.index %o2[%i] : !tgc.ptr<ui32>
      tgc.store %q2, %bits : !tgc.ptr<ui32>, ui32
      %d = tgc.cast %v : f32 to f64
      %s = tgc.sqrt %d : f64
      %r = tgc.recip %s : f64
      %a = tgc.add %r, %tenth : f64
      %q3 = tgc.index %o3[%i] : !tgc.ptr<f64>
      tgc.store %q3, %a : !tgc.ptr<f64>, f64
      tgc.end %i
      tgc.sink
    }

    %vec = tgc.kernel "E_2_4" (%w) {arena_offset = array<i64: -1>, opts = ["UPCAST(0,4)"]} : (tensor<8xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c2 = tgc.const 2 : index
      %c4 = tgc.const 4 : index
      %inc = tgc.const dense<[1.0, 2.0]> : vector<2xf32>
      %i = tgc.range 2 global id 0
      %base = tgc.mul %i, %c4 : index
      %p = tgc.index %in[%base] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> vector<4xf32>
      %l1 = tgc.gep %v[1] : vector<4xf32> -> f32
      %l3 = tgc.gep %v[3] : vector<4xf32> -> f32
      %odd = tgc.vectorize %l1, %l3 : (f32, f32) -> vector<2xf32>
      %sum = tgc.add %odd, %inc : vector<2xf32>
      %inv = tgc.recip %sum : vector<2xf32>
      %obase = tgc.mul %i, %c2 : index
      %o = tgc.index %out[%obase] : !tgc.ptr<f32>
      %s0 = tgc.gep %inv[0] : vector<2xf32> -> f32
      %s1 = tgc.gep %inv[1] : vector<2xf32> -> f32
      %pair = tgc.vectorize %s0, %s1 : (f32, f32) -> vector<2xf32>
      %spread = tgc.vectorize %s0, %s1, %s0, %s1 : (f32, f32, f32, f32) -> vector<4xf32>
      %g0 = tgc.gep %spread[0] : vector<4xf32> -> f32
      %g3 = tgc.gep %spread[3] : vector<4xf32> -> f32
      %two = tgc.vectorize %g0, %g3 : (f32, f32) -> vector<2xf32>
      tgc.store %o, %two : !tgc.ptr<f32>, vector<2xf32>
      tgc.end %i
      tgc.sink
    }

    %scalar = tgc.kernel "E_1" (%x) {arena_offset = array<i64: -1>} : (tensor<2x4xf32>) -> tensor<f32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %zero = tgc.const 0.0 : f32
      %v = tgc.load %in : !tgc.ptr<f32> -> f32
      %unread = tgc.define_reg 1 : !tgc.ptr<f32, reg>
      tgc.store %unread, %v : !tgc.ptr<f32, reg>, f32
      %neg = tgc.cmplt %v, %zero : f32
      tgc.if %neg
      tgc.store %out, %v : !tgc.ptr<f32>, f32
      tgc.endif
      tgc.sink
    }

    return %x, %math, %math, %ints#0, %ints#1, %gated, %conv#0, %conv#1, %conv#2, %vec, %scalar
        : tensor<2x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xsi64>, tensor<4xui8>, tensor<4xf32>,
          tensor<2xsi32>, tensor<2xui32>, tensor<2xf64>, tensor<4xf32>, tensor<f32>
  }
}
