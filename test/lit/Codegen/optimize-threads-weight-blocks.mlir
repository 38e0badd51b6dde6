// A transformer block's 256 -> 256 projection of 128 tokens with AVX2's
// tile, three vectors by 4 rows: its 256 columns are padded to 11 blocks
// of 24, and no task count up to 8 divides 11. Split 8 ways by rows, each
// task walks all 11 blocks of weights (25 KB each) for its 16 rows, and a
// block and those rows (16 KB) no longer share L1; so the blocks split one
// task each and keep their block in L1 for all 128 rows (chooseThreads:
// splitTasks; 1.2x faster on one thread, 1.06x on two). Not where a block
// overflows L1 anyway (1024 -> 256: 96 KB) or shares it with the rows
// (160 -> 256: 15 KB).
// RUN: /usr/bin/python3 %S/Inputs/make_projection.py 128 256 256 > %t.256.mlir
// RUN: tgc-opt %t.256.mlir --tgc-pipeline="after=import cpu=znver3 thread-tasks=8" | tgc-translate --emit-c | FileCheck %s --check-prefix=BLOCKS
// RUN: /usr/bin/python3 %S/Inputs/make_projection.py 128 1024 256 > %t.1024.mlir
// RUN: tgc-opt %t.1024.mlir --tgc-pipeline="after=import cpu=znver3 thread-tasks=8" | tgc-translate --emit-c | FileCheck %s --check-prefix=ROWS
// RUN: /usr/bin/python3 %S/Inputs/make_projection.py 128 160 256 > %t.160.mlir
// RUN: tgc-opt %t.160.mlir --tgc-pipeline="after=import cpu=znver3 thread-tasks=8" | tgc-translate --emit-c | FileCheck %s --check-prefix=ROWS

// BLOCKS: /* opts: PADTO(1,24) PACK(1,24,1) UPCAST(1,8) UPCAST(1,3) UPCAST(0,4) THREAD(1,11) */
// BLOCKS-NEXT: net_r_128_256_256_task(
// BLOCKS: parallel_for(context, 11, net_r_128_256_256,

// ROWS: /* opts: PADTO(1,24) PACK(1,24,1) UPCAST(1,8) UPCAST(1,3) UPCAST(0,4) THREAD(0,8) */
