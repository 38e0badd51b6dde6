// RUN: tgc-opt %s --split-input-file --tgc-gpu-dims -verify-diagnostics

module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = tgc.kernel "threaded"(%x) {arena_offset = array<i64: -1>} : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      // expected-error @+1 {{is a THREAD axis, which only the C target runs}}
      %t = tgc.range 8 thread id 0
      %p = tgc.index %in[%t] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%t] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %t
      tgc.sink
    }
    return %0 : tensor<8xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = tgc.kernel "lanes"(%x) {arena_offset = array<i64: -1>} : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      // expected-error @+1 {{is a lane axis; tgc-expand writes those out before tgc-gpu-dims}}
      %u = tgc.range 8 upcast id 0
      %p = tgc.index %in[%u] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%u] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %u
      tgc.sink
    }
    return %0 : tensor<8xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<2048xf32>) -> tensor<2048xf32> {
    // expected-error @+1 {{has 2048 threads per block, more than 1024}}
    %0 = tgc.kernel "wide"(%x) {arena_offset = array<i64: -1>} : (tensor<2048xf32>) -> tensor<2048xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c1024 = tgc.const 1024 : index
      %a = tgc.range 2 local id 0
      %b = tgc.range 1024 local id 1
      %s = tgc.mul %a, %c1024 : index
      %i = tgc.add %s, %b : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %b
      tgc.end %a
      tgc.sink
    }
    return %0 : tensor<2048xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
    %0 = tgc.kernel "nothing_reduced"(%x) {arena_offset = array<i64: -1>} : (tensor<16xf32>) -> tensor<16xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      // expected-error @+1 {{is a group_reduce axis that no reduction accumulates over}}
      %g = tgc.range 16 group_reduce id 0
      %p = tgc.index %in[%g] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%g] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %g
      tgc.sink
    }
    return %0 : tensor<16xf32>
  }
}

// -----

// 1024 threads each leaving a vector of 16 partial sums: 64 KiB of
// workgroup memory, twice what Apple GPUs have.
module {
  func.func @main(%x: tensor<16384xf32>) -> tensor<16xf32> {
    // expected-error @+1 {{needs 65536 bytes of workgroup memory, more than 32768}}
    %0 = tgc.kernel "big_smem"(%x) {arena_offset = array<i64: -1>} : (tensor<16384xf32>) -> tensor<16xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      %c16 = tgc.const 16 : index
      %zero = tgc.const dense<0.0> : vector<16xf32>
      %acc = tgc.define_reg 16 : !tgc.ptr<f32, reg>
      %slot = tgc.index %acc[%c0] : !tgc.ptr<f32, reg>
      tgc.store %slot, %zero : !tgc.ptr<f32, reg>, vector<16xf32>
      %g = tgc.range 1024 group_reduce id 0
      %i = tgc.mul %g, %c16 : index
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> vector<16xf32>
      %old = tgc.load %slot : !tgc.ptr<f32, reg> -> vector<16xf32>
      %new = tgc.add %old, %v : vector<16xf32>
      tgc.store %slot, %new : !tgc.ptr<f32, reg>, vector<16xf32>
      tgc.end %g
      %s = tgc.load %slot : !tgc.ptr<f32, reg> -> vector<16xf32>
      %q = tgc.index %out[%c0] : !tgc.ptr<f32>
      tgc.store %q, %s : !tgc.ptr<f32>, vector<16xf32>
      tgc.sink
    }
    return %0 : tensor<16xf32>
  }
}
