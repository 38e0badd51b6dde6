// RUN: tgc-opt %s --tgc-expand | FileCheck %s
// An upcast range becomes lanes: dependent ops repeat per lane, the rest is
// shared.

// CHECK-LABEL: func @lanes(
//   CHECK-NOT:     upcast
//       CHECK:     %[[K:.*]] = tgc.range 8 reduce id 1
//       CHECK:     %[[X:.*]] = tgc.load
//   CHECK-NOT:     tgc.load %{{.*}} : !tgc.ptr<f32> -> f32
//       CHECK:     %[[M0:.*]] = tgc.mul %[[X]], %{{.*}} : f32
//       CHECK:     %[[M1:.*]] = tgc.mul %[[X]], %{{.*}} : f32
//       CHECK:     tgc.end %[[K]]
//       CHECK:     tgc.reduce add %[[M0]] over %[[K]] : f32
//       CHECK:     tgc.reduce add %[[M1]] over %[[K]] : f32
//       CHECK-COUNT-2: tgc.store
//       CHECK:     tgc.end
//  CHECK-NEXT:     tgc.sink
func.func @lanes(%x: tensor<8xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "r_4_8" (%x) : (tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %o = tgc.range 2 global id 0
    %u = tgc.range 2 upcast id 2
    %os = tgc.mul %o, %c2 : index
    %i = tgc.add %os, %u : index
    %k = tgc.range 8 reduce id 1
    %p = tgc.index %in[%k] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %f = tgc.cast %i : index to f32
    %m = tgc.mul %v, %f : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %q = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %q, %s : !tgc.ptr<f32>, f32
    tgc.end %u
    tgc.end %o
    tgc.sink
  }
  return %k : tensor<4xf32>
}
