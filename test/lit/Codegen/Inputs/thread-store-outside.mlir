// Input of opt-thread.mlir: a kernel that stores outside its only axis.
func.func @store_outside(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  %k:2 = tgc.kernel "E_4" (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>, %first: !tgc.ptr<f32>):
    %i = tgc.range 4 global id 0
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%i] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %i
    %f = tgc.load %in : !tgc.ptr<f32> -> f32
    tgc.store %first, %f : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return %k#0, %k#1 : tensor<4xf32>, tensor<1xf32>
}
