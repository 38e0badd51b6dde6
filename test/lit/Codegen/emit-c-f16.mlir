// f16 and bf16: buffers hold the 16 bits, values are computed in float and
// rounded back after every op. Expected bits from numpy (float16) and torch
// (bfloat16).
// RUN: tgc-translate --emit-c %s | FileCheck %s --check-prefix=C
// RUN: tgc-translate --emit-c %s > %t.c
// RUN: gcc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/emit-c-f16-main.c -o %t.gcc -lm
// RUN: %t.gcc | FileCheck %s
// RUN: clang -std=c99 -O2 -Wall -Wextra -Werror -pedantic -include %t.c %S/Inputs/emit-c-f16-main.c -o %t.clang -lm
// RUN: %t.clang | FileCheck %s

// C-LABEL: static void net_E_8(const uint16_t *restrict data0, const float *restrict data1, uint16_t *restrict data2, uint16_t *restrict data3, float *restrict data4, uint16_t *restrict data5, int16_t *restrict data6) {
// C:      float val0 = tgc_half_to_float(data0[ridx0]);
// C-NEXT: float alu0 = tgc_round_half(val0 + val0);
// C-NEXT: float alu1 = tgc_round_half(alu0 * 0.099975586f);
// C-NEXT: data3[ridx0] = tgc_float_to_half(alu1);
// C:      float cast0 = tgc_round_half((float)val1);
// C-NEXT: data2[ridx0] = tgc_float_to_half(cast0);
// C:      float cast2 = tgc_round_bf16((float)val1);
// C-NEXT: data5[ridx0] = tgc_float_to_bf16(cast2);
// C-NEXT: int16_t cast3 = (int16_t)tgc_float_to_half(val0);

// f = [1, 65504, 65520, 3e-8, 2^-25, 0.1, -inf, 1 + 2^-11]
// CHECK: to_half: 3c00 7bff 7c00 0001 0000 2e66 fc00 3c00
// h = [65504, 2^-24, 1, -0, nan, 0x3555, 0x03ff, -4]; (h + h) * 0.1 in f16
// CHECK-NEXT: half_ops: 7c00 0000 3266 8000 7e00 2c44 00cd ba66
// CHECK-NEXT: to_float: 65504 5.96046448e-08 1 -0 nan 0.333251953 6.09755516e-05 -4
// CHECK-NEXT: bf16: 3f80 4780 4780 3301 3300 3dcd ff80 3f80
// CHECK-NEXT: bits16: 7bff 0001 3c00 8000 7e00 3555 03ff c400

module attributes {tgc.arena_bytes = 0 : i64, tgc.arena_align = 64 : i64, tgc.peak_bytes = 0 : i64} {
  func.func @main(%h: tensor<8xf16> {tgc.name = "h"}, %f: tensor<8xf32> {tgc.name = "f"})
      -> (tensor<8xf16> {tgc.name = "to_half"}, tensor<8xf16> {tgc.name = "half_ops"},
          tensor<8xf32> {tgc.name = "to_float"}, tensor<8xbf16> {tgc.name = "bf16"},
          tensor<8xsi16> {tgc.name = "bits16"}) {
    %r:5 = tgc.kernel "E_8" (%h, %f) {arena_offset = array<i64: -1, -1, -1, -1, -1>}
        : (tensor<8xf16>, tensor<8xf32>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf32>, tensor<8xbf16>, tensor<8xsi16>) {
    ^bb0(%hp: !tgc.ptr<f16>, %fp: !tgc.ptr<f32>, %o0: !tgc.ptr<f16>, %o1: !tgc.ptr<f16>,
         %o2: !tgc.ptr<f32>, %o3: !tgc.ptr<bf16>, %o4: !tgc.ptr<si16>):
      %tenth = tgc.const 0.1 : f16
      %i = tgc.range 8 global id 0
      %ph = tgc.index %hp[%i] : !tgc.ptr<f16>
      %vh = tgc.load %ph : !tgc.ptr<f16> -> f16
      %twice = tgc.add %vh, %vh : f16
      %ops = tgc.mul %twice, %tenth : f16
      %q1 = tgc.index %o1[%i] : !tgc.ptr<f16>
      tgc.store %q1, %ops : !tgc.ptr<f16>, f16
      %pf = tgc.index %fp[%i] : !tgc.ptr<f32>
      %vf = tgc.load %pf : !tgc.ptr<f32> -> f32
      %half = tgc.cast %vf : f32 to f16
      %q0 = tgc.index %o0[%i] : !tgc.ptr<f16>
      tgc.store %q0, %half : !tgc.ptr<f16>, f16
      %wide = tgc.cast %vh : f16 to f32
      %q2 = tgc.index %o2[%i] : !tgc.ptr<f32>
      tgc.store %q2, %wide : !tgc.ptr<f32>, f32
      %b = tgc.cast %vf : f32 to bf16
      %q3 = tgc.index %o3[%i] : !tgc.ptr<bf16>
      tgc.store %q3, %b : !tgc.ptr<bf16>, bf16
      %bits = tgc.bitcast %vh : f16 to si16
      %q4 = tgc.index %o4[%i] : !tgc.ptr<si16>
      tgc.store %q4, %bits : !tgc.ptr<si16>, si16
      tgc.end %i
      tgc.sink
    }
    return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<8xf16>, tensor<8xf16>, tensor<8xf32>, tensor<8xbf16>, tensor<8xsi16>
  }
}
