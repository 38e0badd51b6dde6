// What the C renderer refuses, each with a diagnostic on the op at fault.
// RUN: tgc-translate --emit-c %s -split-input-file -verify-diagnostics
// RUN: not tgc-translate --emit-c --emit-c-name=1net %s -split-input-file 2>&1 | FileCheck %s --check-prefix=NAME

// NAME: the name '1net' is not a C identifier

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{is not lowered; run the pipeline up to tgc-linearize first}}
    %k = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      %n = tgc.neg %a : tensor<4xf32>
      tgc.sink %n : tensor<4xf32>
    }
    return %k : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{has no arena_offset; run tgc-plan first}}
    %k = tgc.kernel "E_4" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}

// -----

module attributes {tgc.arena_bytes = 8 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{result at arena offset 0 (16 bytes) lies outside the arena of 8 bytes}}
    %t = tgc.kernel "E_4" (%x) {arena_offset = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      tgc.sink
    }
    return %t : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{writes into the arena, but the module has no tgc.arena_bytes; run tgc-plan}}
    %t = tgc.kernel "E_4" (%x) {arena_offset = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      tgc.sink
    }
    return %t : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{has a result with arena_offset -1 that is not a model output}}
    %t = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      tgc.sink
    }
    return %x : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{cannot stand in @main at the render stage}}
    %n = tgc.neg %x : tensor<4xf32>
    return %n : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{expected a 'func.func @main' with a body}}
module {
  func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
    %k = tgc.kernel "r_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<f32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %r = tgc.range 4 reduce id 0
      %p = tgc.index %in[%r] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      tgc.end %r
      // expected-error @+1 {{is still here; tgc-expand turns reductions into accumulators before rendering}}
      %s = tgc.reduce add %v over %r : f32
      tgc.store %out, %s : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %k : tensor<f32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %k = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      // expected-error @+1 {{'gidx0' is not an index of this target}}
      %g = tgc.special "gidx0" 4
      %p = tgc.index %in[%g] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %o = tgc.index %out[%g] : !tgc.ptr<f32>
      tgc.store %o, %v : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %k = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %c0 = tgc.const 0 : index
      // expected-error @+1 {{needs workgroup memory, which this target does not have}}
      %smem = tgc.define_local 4 : !tgc.ptr<f32, local>
      %v = tgc.load %in : !tgc.ptr<f32> -> f32
      %s = tgc.index %smem[%c0] : !tgc.ptr<f32, local>
      tgc.store %s, %v : !tgc.ptr<f32, local>, f32
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %k = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      // expected-error @+1 {{has no meaning on this target}}
      tgc.barrier
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xsi32>) -> tensor<4xsi32> {
    %k = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xsi32>) -> tensor<4xsi32> {
    ^bb0(%in: !tgc.ptr<si32>, %out: !tgc.ptr<si32>):
      %v = tgc.load %in : !tgc.ptr<si32> -> si32
      // expected-error @+1 {{is defined on floating-point values only}}
      %q = tgc.fdiv %v, %v : si32
      tgc.store %out, %q : !tgc.ptr<si32>, si32
      tgc.sink
    }
    return %k : tensor<4xsi32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{refers to the resource 'missing', whose data is missing}}
    %w = tgc.const dense_resource<missing> : tensor<4xf32>
    %k = tgc.kernel "E_4" (%w) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %v = tgc.load %in : !tgc.ptr<f32> -> f32
      tgc.store %out, %v : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{resource 'short' holds 8 bytes; the type needs 16}}
    %w = tgc.const dense_resource<short> : tensor<4xf32>
    %k = tgc.kernel "E_4" (%w) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %v = tgc.load %in : !tgc.ptr<f32> -> f32
      tgc.store %out, %v : !tgc.ptr<f32>, f32
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Tensor cores (the TC action) are for CUDA and Metal.
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %k = tgc.kernel "E_4" (%x) {arena_offset = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      // expected-error @+1 {{needs tensor cores, which this target does not have}}
      %acc = tgc.define_acc 16, 16 : !tgc.ptr<f32, reg>
      %tile = tgc.define_local 256 : !tgc.ptr<f32, local>
      tgc.store_acc %tile, %acc : !tgc.ptr<f32, local>, !tgc.ptr<f32, reg>
      tgc.sink
    }
    return %k : tensor<4xf32>
  }
}
