// PADTO records the share of the padded axis's lanes that hold elements,
// old bound / new bound, and each further PADTO multiplies it: 7 rows of 8
// and 6 columns of 8 leave 42 of 64 outputs real. The manifest counts the
// kernel's FLOPs times this share (KernelCost.h), so idle lanes are no work.
// RUN: tgc-opt %s --tgc-optimize="actions=PADTO(0,8)" | FileCheck %s --check-prefix=ONE
// RUN: tgc-opt %s --tgc-optimize="actions=PADTO(0,8);PADTO(1,8)" | FileCheck %s --check-prefix=TWO
// RUN: tgc-opt %s --tgc-optimize="actions=UPCAST(1,2)" | FileCheck %s --check-prefix=NONE

// ONE: tgc.kernel "E_7_6"(%{{.*}}) {opts = ["PADTO(0,8)"], useful_share = 8.750000e-01 : f64}
// TWO: tgc.kernel "E_7_6"(%{{.*}}) {opts = ["PADTO(0,8)", "PADTO(1,8)"], useful_share = 6.562500e-01 : f64}
// NONE: tgc.kernel "E_7_6"(%{{.*}}) {opts = ["UPCAST(1,2)"]} :
func.func @scale(%x: tensor<7x6xf32>) -> tensor<7x6xf32> {
  %k = tgc.kernel "E_7_6" (%x) : (tensor<7x6xf32>) -> tensor<7x6xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c6 = tgc.const 6 : index
    %two = tgc.const 2.0 : f32
    %i = tgc.range 7 global id 0
    %j = tgc.range 6 global id 1
    %row = tgc.mul %i, %c6 : index
    %a = tgc.add %row, %j : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %y = tgc.mul %v, %two : f32
    %o = tgc.index %out[%a] : !tgc.ptr<f32>
    tgc.store %o, %y : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<7x6xf32>
}
