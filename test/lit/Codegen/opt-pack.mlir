// PACK: a weight transposed at compile time so that the dim the chosen axis
// walks comes last, in blocks; every access follows.
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=PACK(1,4,1)" | FileCheck %s
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=PACK(1,2,1)" | FileCheck %s --check-prefix=BLOCKS
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=PACK(1,4,0)" 2>&1 | FileCheck %s --check-prefix=NOTWEIGHT
// RUN: not tgc-opt %s --split-input-file --tgc-optimize="actions=PACK(0,2,1)" 2>&1 | FileCheck %s --check-prefix=NOTDIM
// RUN: tgc-opt %s --split-input-file --tgc-optimize="actions=PADTO(1,8);PACK(1,8,1)" | FileCheck %s --check-prefix=PADDED

// y[i, j] = sum_k x[i, k] * w[j, k] (Gemm with transB): packed on j, w
// becomes [k][j], read at k*4 + j.
// CHECK-LABEL: func @gemm_transb(
//       CHECK:   %[[W:.*]] = tgc.const dense<{{\[}}[0.000000e+00, 3.000000e+00, 6.000000e+00, 9.000000e+00], [1.000000e+00, 4.000000e+00, 7.000000e+00, 1.000000e+01], [2.000000e+00, 5.000000e+00, 8.000000e+00, 1.100000e+01]]> : tensor<3x4xf32>
//   CHECK-NOT:   tensor<4x3xf32>>
//       CHECK:   tgc.kernel "r_2_4_3"(%{{.*}}, %[[W]]) {opts = ["PACK(1,4,1)"]}
//       CHECK:     %[[J:.*]] = tgc.range 4 global id 1
//       CHECK:     %[[K:.*]] = tgc.range 3 reduce id 2
//       CHECK:     %[[K4:.*]] = tgc.mul %[[K]], %{{.*}} : index
//       CHECK:     %[[A:.*]] = tgc.add %[[K4]], %[[J]] : index
//       CHECK:     tgc.index %{{.*}}[%[[A]]] : <f32>
// In blocks of 2 columns: [j / 2][k][j % 2].
// BLOCKS-LABEL: func @gemm_transb(
//       BLOCKS:   tgc.const dense<{{\[}}[{{\[}}0.000000e+00, 3.000000e+00], [1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00]], {{\[}}[6.000000e+00, 9.000000e+00], [7.000000e+00, 1.000000e+01], [8.000000e+00, 1.100000e+01]]]> : tensor<2x3x2xf32>
//       BLOCKS:     tgc.idiv %{{.*}}, %{{.*}} : index
//       BLOCKS:     tgc.mod %{{.*}}, %{{.*}} : index
// On j padded to 8 (PADTO gates every access by j < 4): w becomes [k][8],
// its columns 4 to 7 zeros, and its access loses the gate (a whole vector
// load); the store keeps it.
// PADDED-LABEL: func @gemm_transb(
//       PADDED:   %[[W:.*]] = tgc.const dense<{{\[}}[0.000000e+00, 3.000000e+00, 6.000000e+00, 9.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, {{.*}}]]> : tensor<3x8xf32>
//       PADDED:   %[[J:.*]] = tgc.range 8 global id 1
//       PADDED:   %[[VALID:.*]] = tgc.cmplt %[[J]], %{{.*}} : index
//       PADDED:   %[[K:.*]] = tgc.range 3 reduce id 2
//       PADDED:   %[[K8:.*]] = tgc.mul %[[K]], %{{.*}} : index
//       PADDED:   %[[A:.*]] = tgc.add %[[K8]], %[[J]] : index
//       PADDED:   tgc.index %{{.*}}[%[[A]]] : <f32>
//       PADDED:   tgc.index %{{.*}}[%{{.*}}], %[[VALID]] : <f32>
//       PADDED:   tgc.store
// NOTWEIGHT: cannot apply PACK(1,4,0): the input is not a constant weight
// NOTDIM: cannot apply PACK(0,2,1): the axis walks no dim of the weight
func.func @gemm_transb(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %w = tgc.const dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %k = tgc.kernel "r_2_4_3" (%x, %w) : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32> {
  ^bb0(%px: !tgc.ptr<f32>, %pw: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c3 = tgc.const 3 : index
    %c4 = tgc.const 4 : index
    %i = tgc.range 2 global id 0
    %j = tgc.range 4 global id 1
    %k = tgc.range 3 reduce id 2
    %xi = tgc.mul %i, %c3 : index
    %xk = tgc.add %xi, %k : index
    %p = tgc.index %px[%xk] : !tgc.ptr<f32>
    %a = tgc.load %p : !tgc.ptr<f32> -> f32
    %wj = tgc.mul %j, %c3 : index
    %wk = tgc.add %wj, %k : index
    %q = tgc.index %pw[%wk] : !tgc.ptr<f32>
    %b = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %a, %b : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c4 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<2x4xf32>
}
