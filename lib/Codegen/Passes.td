//===- Passes.td - kernel-level passes of tgc --------------*- tablegen -*-===//
//
// lower, symbolic, optimize, expand and linearize: from kernels of tensor
// ops to ordered loop programs ready to render.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_PASSES_TD
#define TGC_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TgcLower : Pass<"tgc-lower", "::mlir::ModuleOp"> {
  let summary = "Turn kernel bodies into loops, loads and stores (tinygrad: rangeify)";
  let description = [{
    Each tgc.kernel whose body still works on tensors becomes a flat loop
    program over pointers: a `global` tgc.range per output dim of size > 1,
    the value of every op computed per element from index expressions.
    Movement ops turn into index arithmetic (reshape: flatten and split
    within groups of dims of equal size; permute, expand, shrink, flip:
    per-dim maps; pad: an offset and a validity mask that gates the loads
    under it); a reduce_axis opens `reduce` ranges around its source and
    closes them with a tgc.reduce. Ops are emitted where they are needed,
    naively; tgc-linearize places them.
  }];
}

def TgcSymbolic : Pass<"tgc-symbolic", "::mlir::ModuleOp"> {
  let summary = "Simplify index arithmetic by value ranges (tinygrad: symbolic)";
  let description = [{
    Rewrites integer index expressions of lowered kernels using the bounds
    of each value (ranges run over [0, bound)):
      x // c => 0 and x % c => x             if 0 <= x < c
      (a*c + b) // c => a + b // c            if a*c >= 0 and b >= 0,
                                              splitting coefficients too
      (a*c + b) % c => b % c                  if a*c >= 0 and b >= 0
      (x // a) // b => x // (a*b)             if x >= 0
      x < y => true / false                   if the bounds decide it
    which removes the div/mod that reshapes introduce and the masks of pads
    that can never be false, together with every op's folder.
  }];
}

def TgcOptimize : Pass<"tgc-optimize", "::mlir::ModuleOp"> {
  let summary = "Apply kernel optimization actions chosen by a heuristic (tinygrad: opt)";
  let description = [{
    Chooses opt actions for each lowered kernel and applies them to its
    ranges, recording each in the kernel's `opts` attribute as
    "ACTION(axis id, amount)". The heuristic today, for a kernel that
    reduces: UPCAST the innermost output axis by up to `upcast` (the largest
    power of two that divides it) and the outermost other output axis by up
    to 4, each only if some input of the kernel does not depend on it, so
    that one load feeds several accumulators (a register tile). UPCAST(axis,
    n) splits range r of bound N into r' of bound N/n and an `upcast` range u
    of bound n, with r = r'*n + u; tgc-expand turns u into lanes.
  }];
  let options = [
    Option<"upcast", "upcast", "int64_t", "16",
           "most lanes of the innermost output axis (1: no actions)">
  ];
}

def TgcExpand : Pass<"tgc-expand", "::mlir::ModuleOp"> {
  let summary = "Expand upcast ranges into lanes (tinygrad: expander)";
  let description = [{
    Every op between an `upcast` (or `unroll`) tgc.range and its tgc.end
    that depends on the range is repeated once per lane with the range
    replaced by the lane number; ops that do not depend on it are shared by
    all lanes. Reduces repeated this way accumulate side by side in the
    same loop.
  }];
}

def TgcLinearize : Pass<"tgc-linearize", "::mlir::ModuleOp"> {
  let summary = "Place every op in the outermost loop it needs and order the program (tinygrad: linearize)";
  let description = [{
    Computes, for each op of a lowered kernel, the ranges it depends on and
    places it in the innermost of them, so loop-invariant work (index
    arithmetic, and whole reductions whose result does not depend on an
    outer loop) moves out of loops. Global ranges nest in id order; the
    ranges of a reduce nest inside the loop where its result is needed.
    Identical pure ops in one loop are merged (a scope-safe CSE). Each
    tgc.reduce becomes an accumulator: a tgc.define_reg initialized with the
    identity of its operator before its loops, updated inside the innermost
    of them and read after them.
  }];
}

#endif // TGC_CODEGEN_PASSES_TD
