// THREAD on an inner axis: the task range still encloses the whole body
// (the renderer runs it as a task index); a kernel that stores outside
// the axis cannot be split, since every task would store.
// RUN: tgc-opt %s --tgc-optimize="actions=THREAD(1,2)" | FileCheck %s
// RUN: not tgc-opt %S/Inputs/thread-store-outside.mlir --tgc-optimize="actions=THREAD(0,2)" 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: cannot apply THREAD(0,2): the kernel stores outside the axis

// CHECK-LABEL: func @inner_axis(
//       CHECK:   opts = ["THREAD(1,2)"]
//       CHECK:   %[[T:.*]] = tgc.range 2 thread id 2
//       CHECK:   %[[I:.*]] = tgc.range 4 global id 0
//       CHECK:   %[[J:.*]] = tgc.range 4 global id 1
//       CHECK:   tgc.mul %[[T]], %{{.*}} : index
//       CHECK:   tgc.end %[[J]]
//  CHECK-NEXT:   tgc.end %[[I]]
//  CHECK-NEXT:   tgc.end %[[T]]
//  CHECK-NEXT:   tgc.sink
func.func @inner_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %k = tgc.kernel "E_4_8" (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c8 = tgc.const 8 : index
    %i = tgc.range 4 global id 0
    %j = tgc.range 8 global id 1
    %r = tgc.mul %i, %c8 : index
    %a = tgc.add %r, %j : index
    %p = tgc.index %in[%a] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    %q = tgc.index %out[%a] : !tgc.ptr<f32>
    tgc.store %q, %v : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<4x8xf32>
}

