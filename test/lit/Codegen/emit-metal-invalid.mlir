// RUN: tgc-translate --emit-metal %s --split-input-file --verify-diagnostics
// RUN: tgc-translate --emit-cuda %s --split-input-file | FileCheck %s --check-prefix=CUDA
// Metal has no 64-bit floats; CUDA does.
// CUDA: double val0 = data0[lidx0];

module attributes {tgc.arena_bytes = 0 : i64, tgc.arena_align = 64 : i64} {
  func.func @main(%x: tensor<8xf64> {tgc.name = "x"}) -> (tensor<8xf64> {tgc.name = "y"}) {
    // expected-error @+1 {{has a buffer of 64-bit floats, which Metal does not have}}
    %0 = tgc.kernel "E_8"(%x) {arena_offset = array<i64: -1>} : (tensor<8xf64>) -> tensor<8xf64> {
    ^bb0(%in: !tgc.ptr<f64>, %out: !tgc.ptr<f64>):
      %l = tgc.special "lidx0" 8
      %p = tgc.index %in[%l] : !tgc.ptr<f64>
      %v = tgc.load %p : !tgc.ptr<f64> -> f64
      %q = tgc.index %out[%l] : !tgc.ptr<f64>
      tgc.store %q, %v : !tgc.ptr<f64>, f64
      tgc.sink
    }
    return %0 : tensor<8xf64>
  }
}

// -----

module attributes {tgc.arena_bytes = 0 : i64, tgc.arena_align = 64 : i64} {
  func.func @main(%x: tensor<8xf32> {tgc.name = "x"}) -> (tensor<8xf32> {tgc.name = "y"}) {
    %0 = tgc.kernel "E_8"(%x) {arena_offset = array<i64: -1>} : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %l = tgc.special "lidx0" 8
      %p = tgc.index %in[%l] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      // expected-error @+1 {{computes with 64-bit floats, which Metal does not have}}
      %d = tgc.cast %v : f32 to f64
      %f = tgc.cast %d : f64 to f32
      %q = tgc.index %out[%l] : !tgc.ptr<f32>
      tgc.store %q, %f : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %0 : tensor<8xf32>
  }
}
