// RUN: tgc-opt %s --tgc-optimize='tuning-db=%S/Inputs/tuning-db.json tuning-report tuning-context="target=c;cpu=test-cpu;cpu_model=;isa=;compiler=;cflags=;options="' 2>&1 | FileCheck %s
// RUN: tgc-opt %s --tgc-optimize='tuning-db=%S/Inputs/tuning-db.json tuning-report tuning-context="target=c;cpu=other-cpu;cpu_model=;isa=;compiler=;cflags=;options="' 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not tgc-opt %s --tgc-optimize='tuning-db=%S/Inputs/tuning-db-stale.json tuning-context="target=c;cpu=test-cpu;cpu_model=;isa=;compiler=;cflags=;options="' 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not tgc-opt %s --tgc-optimize='tuning-db=%S/Inputs/tuning-db-bad-key.json' 2>&1 | FileCheck %s --check-prefix=BADKEY
// RUN: not tgc-opt %s --tgc-optimize='tuning-db=%t.missing.json' 2>&1 | FileCheck %s --check-prefix=MISSING
// The optimize stage with a tuning database: a kernel whose key (the hash
// of its lowered IR and of the tuning context) has an entry gets the
// entry's actions instead of the heuristic's; a kernel or a context that
// differs in anything gets another key and the heuristic. (The remark
// prints a kernel's hash and key: how the entry below was made.)

// The kernel of the entry: its actions, not the heuristic's.
//      CHECK: remark: tuning: kernel hash 7558cd74153ad822361e2a68c623ec6f7cd1755ebeb2d79452e10ecf67fc4a84, key 4a7ffc64fb987d830332e12387186500b1e061ab891a0a76db4e4014609084c5: entry applied
//      CHECK: remark: tuning: kernel hash {{[0-9a-f]+}}, key {{[0-9a-f]+}}: no entry
// CHECK-LABEL: func @matmul(
//      CHECK:   opts = ["UPCAST(0,2)", "UNROLL(2,4)"]
// The same kernel with 64 columns: another hash, the heuristic.
// CHECK-LABEL: func @wider_matmul(
//      CHECK:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)"]

// Tuned for another CPU: the key does not match, the heuristic acts.
//      OTHER: remark: tuning: kernel hash 7558cd74153ad822361e2a68c623ec6f7cd1755ebeb2d79452e10ecf67fc4a84, key {{[0-9a-f]+}}: no entry
// OTHER-LABEL: func @matmul(
//      OTHER:   opts = ["UPCAST(1,16)", "UPCAST(1,2)", "UPCAST(0,8)"]

// An entry whose key matches but whose actions do not apply is an error,
// not a silent fallback: the key promised this very kernel.
// STALE: error: 'tgc.kernel' op tuning database {{.*}}tuning-db-stale.json: entry 4a7ffc64fb987d830332e12387186500b1e061ab891a0a76db4e4014609084c5 does not apply: UPCAST(5,2): the kernel has no axis 5

// A key that is not the hash of its kernel and context (an entry edited
// by hand) is refused when the file is read.
// BADKEY: error: tgc-optimize: {{.*}}tuning-db-bad-key.json: entry 0: the key is not the hash of its kernel_hash and context

// MISSING: error: tgc-optimize: {{.*}}.missing.json: cannot read the tuning database

func.func @matmul(%a: tensor<8x4xf32>, %b: tensor<4x32xf32>) -> tensor<8x32xf32> {
  %k = tgc.kernel "r_8_32_4" (%a, %b) : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c32 = tgc.const 32 : index
    %i = tgc.range 8 global id 0
    %j = tgc.range 32 global id 1
    %k = tgc.range 4 reduce id 2
    %ai = tgc.mul %i, %c4 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c32 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c32 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8x32xf32>
}

func.func @wider_matmul(%a: tensor<8x4xf32>, %b: tensor<4x64xf32>) -> tensor<8x64xf32> {
  %k = tgc.kernel "r_8_64_4" (%a, %b) : (tensor<8x4xf32>, tensor<4x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%pa: !tgc.ptr<f32>, %pb: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %c4 = tgc.const 4 : index
    %c64 = tgc.const 64 : index
    %i = tgc.range 8 global id 0
    %j = tgc.range 64 global id 1
    %k = tgc.range 4 reduce id 2
    %ai = tgc.mul %i, %c4 : index
    %ak = tgc.add %ai, %k : index
    %p = tgc.index %pa[%ak] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    %bk = tgc.mul %k, %c64 : index
    %bj = tgc.add %bk, %j : index
    %q = tgc.index %pb[%bj] : !tgc.ptr<f32>
    %y = tgc.load %q : !tgc.ptr<f32> -> f32
    %m = tgc.mul %x, %y : f32
    tgc.end %k
    %s = tgc.reduce add %m over %k : f32
    %oi = tgc.mul %i, %c64 : index
    %oj = tgc.add %oi, %j : index
    %o = tgc.index %out[%oj] : !tgc.ptr<f32>
    tgc.store %o, %s : !tgc.ptr<f32>, f32
    tgc.end %j
    tgc.end %i
    tgc.sink
  }
  return %k : tensor<8x64xf32>
}
