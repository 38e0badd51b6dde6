// RUN: tgc-opt %s -split-input-file | tgc-opt -split-input-file | FileCheck %s
// The tensor-core ops round-trip; invalid uses are in tensor-cores-invalid.mlir.

// CHECK-LABEL: func @tile_ops(
//       CHECK:   %[[ACC:.*]] = tgc.define_acc 16, 16 : <f32, reg>
//       CHECK:   tgc.wmma %[[ACC]], %{{.*}}, %{{.*}} k 8 : <f32, reg>, <f32, local>
//       CHECK:   tgc.store_acc %{{.*}}, %[[ACC]] : <f32, local>, <f32, reg>

func.func @tile_ops(%a: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %sa = tgc.define_local 128 : !tgc.ptr<f32, local>
    %sb = tgc.define_local 128 : !tgc.ptr<f32, local>
    %sc = tgc.define_local 256 : !tgc.ptr<f32, local>
    %acc = tgc.define_acc 16, 16 : !tgc.ptr<f32, reg>
    tgc.wmma %acc, %sa, %sb k 8 : !tgc.ptr<f32, reg>, !tgc.ptr<f32, local>
    tgc.store_acc %sc, %acc : !tgc.ptr<f32, local>, !tgc.ptr<f32, reg>
    tgc.sink
  }
  return %k : tensor<4xf32>
}
