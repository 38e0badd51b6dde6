// RUN: tgc-opt %s --tgc-collapse-gather | FileCheck %s
// One-hot gathers become indexed loads: a load from an arange constant is
// its index, and a sum over r of where(a == r, x(r), 0) is x(a), gated by
// 0 <= a < bound(r) with the loads at a clamped index.

// An embedding lookup: 4 tokens in a 10 x 8 table. The loop over the 10
// rows goes, and so does the arange operand.
// CHECK-LABEL: func @embedding(
// CHECK: tgc.kernel "r_4_8_10"(%arg0, %arg1) : (tensor<4xsi64>, tensor<10x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[IDS:.*]]: !tgc.ptr<si64>, %[[TABLE:.*]]: !tgc.ptr<f32>, %[[OUT:.*]]: !tgc.ptr<f32>):
// CHECK-NOT: tgc.range 10
// CHECK: %[[T:.*]] = tgc.range 4 global id 0
// CHECK: %[[C:.*]] = tgc.range 8 global id 1
// CHECK: %[[ID:.*]] = tgc.load
// CHECK: %[[BELOW:.*]] = tgc.cmplt %[[ID]], %[[ZERO:.*]] : si64
// CHECK: %[[INSIDE:.*]] = tgc.cmplt %[[ID]], %[[TEN:.*]] : si64
// CHECK: %[[NOT_BELOW:.*]] = tgc.xor %[[BELOW]], %{{.*}} : i1
// CHECK: %[[VALID:.*]] = tgc.and %[[NOT_BELOW]], %[[INSIDE]] : i1
// CHECK: %[[SAFE:.*]] = tgc.where %[[VALID]], %[[ID]], %{{.*}} : i1, si64
// CHECK: %[[ROW:.*]] = tgc.cast %[[SAFE]] : si64 to index
// CHECK: %[[OFF:.*]] = tgc.mul %[[ROW]], %{{.*}} : index
// CHECK: %[[AT:.*]] = tgc.add %[[OFF]], %[[C]] : index
// CHECK: %[[P:.*]] = tgc.index %[[TABLE]][%[[AT]]]
// CHECK: %[[V:.*]] = tgc.load %[[P]]
// CHECK: %[[PICKED:.*]] = tgc.where %[[VALID]], %[[V]], %{{.*}} : i1, f32
// CHECK-NOT: tgc.reduce
// CHECK: tgc.store %{{.*}}, %[[PICKED]]
// CHECK-NEXT: tgc.end %[[C]]
// CHECK-NEXT: tgc.end %[[T]]
func.func @embedding(%ids: tensor<4xsi64>, %table: tensor<10x8xf32>) -> tensor<4x8xf32> {
  %arange = tgc.const dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]> : tensor<10xsi64>
  %k = tgc.kernel "r_4_8_10" (%ids, %arange, %table) : (tensor<4xsi64>, tensor<10xsi64>, tensor<10x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: !tgc.ptr<si64>, %ar: !tgc.ptr<si64>, %tab: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %zero = tgc.const 0.0 : f32
    %c8 = tgc.const 8 : index
    %t = tgc.range 4 global id 0
    %c = tgc.range 8 global id 1
    %r = tgc.range 10 reduce id 2
    %pi = tgc.index %in[%t] : !tgc.ptr<si64>
    %id = tgc.load %pi : !tgc.ptr<si64> -> si64
    %pa = tgc.index %ar[%r] : !tgc.ptr<si64>
    %a = tgc.load %pa : !tgc.ptr<si64> -> si64
    %hit = tgc.cmpeq %id, %a : si64
    %row = tgc.mul %r, %c8 : index
    %at = tgc.add %row, %c : index
    %pt = tgc.index %tab[%at] : !tgc.ptr<f32>
    %v = tgc.load %pt : !tgc.ptr<f32> -> f32
    %sel = tgc.where %hit, %v, %zero : i1, f32
    tgc.end %r
    %sum = tgc.reduce add %sel over %r : f32
    %ro = tgc.mul %t, %c8 : index
    %o = tgc.add %ro, %c : index
    %po = tgc.index %out[%o] : !tgc.ptr<f32>
    tgc.store %po, %sum : !tgc.ptr<f32>, f32
    tgc.end %c
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<4x8xf32>
}

// A max over the one-hot is no gather, nor is a sum whose other value is
// not zero: both keep their loop. The arange load still becomes its index.
// CHECK-LABEL: func @not_a_gather(
// CHECK: tgc.kernel "r_4_10"(%arg0) :
// CHECK: %[[R:.*]] = tgc.range 10 reduce id 1
// CHECK: %[[A:.*]] = tgc.cast %[[R]] : index to si64
// CHECK: tgc.cmpeq %{{.*}}, %[[A]] : si64
// CHECK: tgc.reduce max
func.func @not_a_gather(%ids: tensor<4xsi64>) -> tensor<4xf32> {
  %arange = tgc.const dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]> : tensor<10xsi64>
  %k = tgc.kernel "r_4_10" (%ids, %arange) : (tensor<4xsi64>, tensor<10xsi64>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<si64>, %ar: !tgc.ptr<si64>, %out: !tgc.ptr<f32>):
    %zero = tgc.const 0.0 : f32
    %one = tgc.const 1.0 : f32
    %t = tgc.range 4 global id 0
    %r = tgc.range 10 reduce id 1
    %pi = tgc.index %in[%t] : !tgc.ptr<si64>
    %id = tgc.load %pi : !tgc.ptr<si64> -> si64
    %pa = tgc.index %ar[%r] : !tgc.ptr<si64>
    %a = tgc.load %pa : !tgc.ptr<si64> -> si64
    %hit = tgc.cmpeq %id, %a : si64
    %sel = tgc.where %hit, %one, %zero : i1, f32
    tgc.end %r
    %m = tgc.reduce max %sel over %r : f32
    %po = tgc.index %out[%t] : !tgc.ptr<f32>
    tgc.store %po, %m : !tgc.ptr<f32>, f32
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// The gathered index computed inside the gathered loop by a reduce of its
// own (MaxPool's argmax picking from a window): the outer loop goes, so the
// inner reduce runs once per output, and the dead index math the lowering
// left in the loop goes with it.
// CHECK-LABEL: func @index_from_inner_reduce(
// CHECK: %[[T:.*]] = tgc.range 4 global id 0
// CHECK-NOT: tgc.range 6
// CHECK: %[[J:.*]] = tgc.range 3 reduce id 2
// CHECK: tgc.end %[[J]]
// CHECK: %[[BEST:.*]] = tgc.reduce max %{{.*}} over %[[J]] : si64
// CHECK: tgc.cmplt %[[BEST]]
// CHECK-NOT: tgc.reduce
// CHECK: tgc.store
// CHECK-NEXT: tgc.end %[[T]]
func.func @index_from_inner_reduce(%ids: tensor<4x3xsi64>, %table: tensor<6xf32>) -> tensor<4xf32> {
  %arange = tgc.const dense<[0, 1, 2, 3, 4, 5]> : tensor<6xsi64>
  %k = tgc.kernel "r_4_6" (%ids, %arange, %table) : (tensor<4x3xsi64>, tensor<6xsi64>, tensor<6xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<si64>, %ar: !tgc.ptr<si64>, %tab: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %zero = tgc.const 0.0 : f32
    %c3 = tgc.const 3 : index
    %t = tgc.range 4 global id 0
    %r = tgc.range 6 reduce id 1
    %dead = tgc.mul %r, %c3 : index
    %j = tgc.range 3 reduce id 2
    %row = tgc.mul %t, %c3 : index
    %at = tgc.add %row, %j : index
    %pi = tgc.index %in[%at] : !tgc.ptr<si64>
    %cand = tgc.load %pi : !tgc.ptr<si64> -> si64
    tgc.end %j
    %id = tgc.reduce max %cand over %j : si64
    %pa = tgc.index %ar[%r] : !tgc.ptr<si64>
    %a = tgc.load %pa : !tgc.ptr<si64> -> si64
    %hit = tgc.cmpeq %id, %a : si64
    %pt = tgc.index %tab[%r] : !tgc.ptr<f32>
    %v = tgc.load %pt : !tgc.ptr<f32> -> f32
    %sel = tgc.where %hit, %v, %zero : i1, f32
    tgc.end %r
    %sum = tgc.reduce add %sel over %r : f32
    %po = tgc.index %out[%t] : !tgc.ptr<f32>
    tgc.store %po, %sum : !tgc.ptr<f32>, f32
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<4xf32>
}

// The gathered value is also summed over the whole axis: its loop stays,
// and so does the one-hot.
// CHECK-LABEL: func @cone_read_elsewhere(
// CHECK: %[[R:.*]] = tgc.range 6 reduce id 1
// CHECK: tgc.end %[[R]]
// CHECK: tgc.reduce add %{{.*}} over %[[R]] : f32
// CHECK: tgc.reduce add %{{.*}} over %[[R]] : f32
func.func @cone_read_elsewhere(%ids: tensor<4xsi64>, %table: tensor<6xf32>) -> tensor<4xf32> {
  %arange = tgc.const dense<[0, 1, 2, 3, 4, 5]> : tensor<6xsi64>
  %k = tgc.kernel "r_4_6" (%ids, %arange, %table) : (tensor<4xsi64>, tensor<6xsi64>, tensor<6xf32>) -> tensor<4xf32> {
  ^bb0(%in: !tgc.ptr<si64>, %ar: !tgc.ptr<si64>, %tab: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %zero = tgc.const 0.0 : f32
    %t = tgc.range 4 global id 0
    %r = tgc.range 6 reduce id 1
    %pi = tgc.index %in[%t] : !tgc.ptr<si64>
    %id = tgc.load %pi : !tgc.ptr<si64> -> si64
    %pa = tgc.index %ar[%r] : !tgc.ptr<si64>
    %a = tgc.load %pa : !tgc.ptr<si64> -> si64
    %hit = tgc.cmpeq %id, %a : si64
    %pt = tgc.index %tab[%r] : !tgc.ptr<f32>
    %v = tgc.load %pt : !tgc.ptr<f32> -> f32
    %sel = tgc.where %hit, %v, %zero : i1, f32
    tgc.end %r
    %picked = tgc.reduce add %sel over %r : f32
    %total = tgc.reduce add %v over %r : f32
    %both = tgc.add %picked, %total : f32
    %po = tgc.index %out[%t] : !tgc.ptr<f32>
    tgc.store %po, %both : !tgc.ptr<f32>, f32
    tgc.end %t
    tgc.sink
  }
  return %k : tensor<4xf32>
}
