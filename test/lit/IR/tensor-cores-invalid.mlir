// RUN: tgc-opt %s -split-input-file -verify-diagnostics
// What the tensor-core ops' verifiers refuse.

func.func @acc_not_reg(%a: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    // expected-error @+1 {{must give an f32 pointer in the reg address space}}
    %acc = tgc.define_acc 16, 16 : !tgc.ptr<f32, local>
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// -----

func.func @wmma_small_tile(%a: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %sa = tgc.define_local 64 : !tgc.ptr<f32, local>
    %sb = tgc.define_local 128 : !tgc.ptr<f32, local>
    %acc = tgc.define_acc 16, 16 : !tgc.ptr<f32, reg>
    // expected-error @+1 {{reads its tiles from f32 workgroup memory of 16x8 and 8x16 elements}}
    tgc.wmma %acc, %sa, %sb k 8 : !tgc.ptr<f32, reg>, !tgc.ptr<f32, local>
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// -----

func.func @wmma_not_acc(%a: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %sa = tgc.define_local 128 : !tgc.ptr<f32, local>
    %reg = tgc.define_reg 1 : !tgc.ptr<f32, reg>
    // expected-error @+1 {{accumulates into a value that is not a tgc.define_acc}}
    tgc.wmma %reg, %sa, %sa k 8 : !tgc.ptr<f32, reg>, !tgc.ptr<f32, local>
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// -----

func.func @store_acc_small(%a: tensor<4xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "E_4" (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %sc = tgc.define_local 64 : !tgc.ptr<f32, local>
    %acc = tgc.define_acc 16, 16 : !tgc.ptr<f32, reg>
    // expected-error @+1 {{writes to f32 workgroup memory of fewer than 256 elements}}
    tgc.store_acc %sc, %acc : !tgc.ptr<f32, local>, !tgc.ptr<f32, reg>
    tgc.sink
  }
  return %k : tensor<4xf32>
}
