// RUN: tgc-opt %s --tgc-symbolic="distribute-products=1" | FileCheck %s
// RUN: tgc-opt %s --tgc-symbolic | FileCheck %s --check-prefix=OFF
// (x + c1) * c2 => x*c2 + c1*c2 on indices, one x*c2 shared: the copies of
// an upcast axis then address rows from one base by constant offsets.

// Two copies of a row of 32, (r + 1) * 32 and (r + 2) * 32: one r * 32,
// right after r, and offsets 32 and 64.
// CHECK-LABEL: func @copies_share_base(
//       CHECK:     %[[R:.*]] = tgc.range 4 global id 0
//  CHECK-NEXT:     %[[BASE:.*]] = tgc.mul %[[R]], %{{.*}} : index
//   CHECK-NOT:     tgc.mul
//       CHECK:     tgc.add %[[BASE]], %{{.*}} : index
//   CHECK-NOT:     tgc.mul
//       CHECK:     tgc.add %[[BASE]], %{{.*}} : index
// OFF-LABEL: func @copies_share_base(
//       OFF:     tgc.mul
//       OFF:     tgc.mul
func.func @copies_share_base(%x: tensor<320xf32>) -> tensor<4x2xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<320xf32>) -> tensor<4x2xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c2 = tgc.const 2 : index
    %c32 = tgc.const 32 : index
    %r = tgc.range 4 global id 0
    %a1 = tgc.add %r, %c1 : index
    %m1 = tgc.mul %a1, %c32 : index
    %p1 = tgc.index %in[%m1] : !tgc.ptr<f32>
    %v1 = tgc.load %p1 : !tgc.ptr<f32> -> f32
    %a2 = tgc.add %c2, %r : index
    %m2 = tgc.mul %c32, %a2 : index
    %p2 = tgc.index %in[%m2] : !tgc.ptr<f32>
    %v2 = tgc.load %p2 : !tgc.ptr<f32> -> f32
    %s = tgc.add %v1, %v2 : f32
    %o = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<4x2xf32>
}

// r * 32 computed inside the loop over c is not read after that loop ends:
// (r + 1) * 32 after it gets its own r * 32, right after r.
// CHECK-LABEL: func @not_from_an_inner_loop(
//       CHECK:     %[[R:.*]] = tgc.range 4 global id 0
//  CHECK-NEXT:     %[[BASE:.*]] = tgc.mul %[[R]], %{{.*}} : index
//       CHECK:     tgc.range 32 reduce id 1
//       CHECK:     tgc.end
//       CHECK:     tgc.add %[[BASE]], %{{.*}} : index
func.func @not_from_an_inner_loop(%x: tensor<160xf32>) -> tensor<4xf32> {
  %k = tgc.kernel "k" (%x) : (tensor<160xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c1 = tgc.const 1 : index
    %c32 = tgc.const 32 : index
    %r = tgc.range 4 global id 0
    %c = tgc.range 32 reduce id 1
    %row = tgc.mul %r, %c32 : index
    %at = tgc.add %row, %c : index
    %p = tgc.index %in[%at] : !tgc.ptr<f32>
    %v = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %c
    %sum = tgc.reduce add %v over %c : f32
    %next = tgc.add %r, %c1 : index
    %far = tgc.mul %next, %c32 : index
    %q = tgc.index %in[%far] : !tgc.ptr<f32>
    %w = tgc.load %q : !tgc.ptr<f32> -> f32
    %s = tgc.add %sum, %w : f32
    %o = tgc.index %out[%r] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %r
    tgc.sink
  }
  return %k : tensor<4xf32>
}
