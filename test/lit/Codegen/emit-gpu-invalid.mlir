// RUN: tgc-translate --emit-cuda %s --split-input-file --verify-diagnostics
// RUN: tgc-translate --emit-metal %s --split-input-file --verify-diagnostics
// The GPU renderers refuse what a GPU cannot run.

module attributes {tgc.arena_bytes = 0 : i64, tgc.arena_align = 64 : i64} {
  func.func @main(%x: tensor<8xf32> {tgc.name = "x"}) -> (tensor<8xf32> {tgc.name = "y"}) {
    // expected-error @+1 {{runs its output axes as loops; tgc-gpu-dims maps them to GPU threads before rendering}}
    %0 = tgc.kernel "E_8"(%x) {arena_offset = array<i64: -1>} : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
      %i = tgc.range 8 global id 0
      %p = tgc.index %in[%i] : !tgc.ptr<f32>
      %v = tgc.load %p : !tgc.ptr<f32> -> f32
      %q = tgc.index %out[%i] : !tgc.ptr<f32>
      tgc.store %q, %v : !tgc.ptr<f32>, f32
      tgc.end %i
      tgc.sink
    }
    return %0 : tensor<8xf32>
  }
}
