// PACK of a weight the kernel reads a window of: the third gate's rows of
// a GRU's stacked recurrent weight, at a constant offset. The packed copy
// holds that window only, transposed, and the access loses the offset.
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=PACK(1,2,1)" 2>/dev/null | FileCheck %s
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=PACK(1,2,1)" 2>&1 >/dev/null | FileCheck %s --check-prefix=PAST

// y[i, j] = sum_k x[i, k] * w[4 + j, k]: w's rows 4 and 5 ([12, 13, 14],
// [15, 16, 17]) become [k][j], read at k*2 + j.
// CHECK-LABEL: func @gate_rows(
//       CHECK:   %[[W:.*]] = tgc.const dense<{{\[}}[1.200000e+01, 1.500000e+01], [1.300000e+01, 1.600000e+01], [1.400000e+01, 1.700000e+01]]> : tensor<3x2xf32>
//       CHECK:   tgc.kernel "r_2_2_3"(%{{.*}}, %[[W]]) {opts = ["PACK(1,2,1)"]}
//       CHECK:     %[[J:.*]] = tgc.range 2 global id 1
//       CHECK:     %[[K:.*]] = tgc.range 3 reduce id 2
//       CHECK:     %[[K2:.*]] = tgc.mul %[[K]], %{{.*}} : index
//       CHECK:     %[[A:.*]] = tgc.add %[[K2]], %[[J]] : index
//       CHECK:     tgc.index %{{.*}}[%[[A]]] : <f32>
func.func @gate_rows(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = tgc.const dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0]]> : tensor<6x3xf32>
  %k = tgc.kernel "r_2_2_3" (%x, %w) : (tensor<2x3xf32>, tensor<6x3xf32>) -> tensor<2x2xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c12 = tgc.const 12 : index
    %i = tgc.range 2 global id 0
    %j = tgc.range 2 global id 1
    %k = tgc.range 3 reduce id 2
    %xi = tgc.mul %i, %c3 : index
    %xk = tgc.add %xi, %k : index
    %p = tgc.index %px[%xk] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %wj = tgc.mul %j, %c3 : index
    %wk = tgc.add %wj, %k : index
    %wo = tgc.add %wk, %c12 : index
    %q = tgc.index %pw[%wo] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c2 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2x2xf32>
}

// -----

// Rows 5 and 6 of a weight of 6: the window runs past the weight.
// PAST: cannot apply PACK(1,2,1): a loop walks past a dim of the weight
func.func @past_the_end(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = tgc.const dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0]]> : tensor<6x3xf32>
  %k = tgc.kernel "r_2_2_3" (%x, %w) : (tensor<2x3xf32>, tensor<6x3xf32>) -> tensor<2x2xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c2 = tgc.const 2 : index
    %c3 = tgc.const 3 : index
    %c15 = tgc.const 15 : index
    %i = tgc.range 2 global id 0
    %j = tgc.range 2 global id 1
    %k = tgc.range 3 reduce id 2
    %xi = tgc.mul %i, %c3 : index
    %xk = tgc.add %xi, %k : index
    %p = tgc.index %px[%xk] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %wj = tgc.mul %j, %c3 : index
    %wk = tgc.add %wj, %k : index
    %wo = tgc.add %wk, %c15 : index
    %q = tgc.index %pw[%wo] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c2 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2x2xf32>
}
