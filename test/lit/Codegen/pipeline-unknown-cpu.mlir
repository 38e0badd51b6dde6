// --tgc-pipeline refuses a CPU it does not know, as `tgc compile --cpu`
// does (e2e.errors.unknown_cpu), instead of building for a plain SSE2 one.
// RUN: not tgc-opt %s --tgc-pipeline="cpu=bogus" 2>&1 | FileCheck %s
// RUN: tgc-opt %s --tgc-pipeline="after=import cpu=haswell" | FileCheck %s --check-prefix=KNOWN
// CHECK: for the --cpu option: unknown CPU 'bogus' (an x86 -march name such as haswell or znver4, an AArch64 core such as neoverse-n1, or native)
// KNOWN: tgc.kernel "E_4"
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
