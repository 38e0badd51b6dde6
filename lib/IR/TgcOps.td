//===- TgcOps.td - tgc ops ---------------------------------*- tablegen -*-===//
//
// The op set, in the order and groups of tinygrad's `Ops` enum
// (tinygrad/uop/__init__.py) so the two read side by side. Ops that are not
// tinygrad's (the ONNX import node, the kernel container) are marked so.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_TGCOPS_TD
#define TGC_IR_TGCOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "IR/TgcTypes.td"

//===----------------------------------------------------------------------===//
// Import: one op per ONNX node (not a tinygrad op; tinygrad's nn/onnx.py
// calls Tensor methods directly). `tgc-decompose` replaces every one.
//===----------------------------------------------------------------------===//

def Tgc_OnnxNodeOp : Tgc_Op<"onnx_node"> {
  let summary = "an ONNX node as imported, before decomposition";
  let description = [{
    Carries the ONNX op type, domain, opset and attributes. Absent optional
    inputs are dropped; when any is, `input_slots` gives the ONNX input index
    of each operand.

    Example:
    `%y = tgc.onnx_node "Relu"(%x) {opset = 17 : i64} : (tensor<4xf32>) -> tensor<4xf32>`
  }];
  let arguments = (ins StrAttr:$op_type, Variadic<AnyType>:$inputs,
                       DefaultValuedStrAttr<StrAttr, "">:$domain,
                       I64Attr:$opset,
                       DefaultValuedAttr<DictionaryAttr, "{}">:$attrs,
                       OptionalAttr<DenseI64ArrayAttr>:$input_slots);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    $op_type `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels and realization (tinygrad SINK, CONTIGUOUS, KERNEL)
//===----------------------------------------------------------------------===//

def Tgc_SinkOp : Tgc_Op<"sink", [Pure, Terminator, HasParent<"KernelOp">]> {
  let summary = "the values a kernel writes (tinygrad Ops.SINK)";
  let description = [{
    Ends a kernel body. Before `tgc-lower` it yields the kernel's result
    tensors; after lowering the kernel stores to its output pointers and the
    sink has no operands.

    Example: `tgc.sink %r : tensor<10xf32>`
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let assemblyFormat = "($srcs^ `:` type($srcs))? attr-dict";
}

def Tgc_ContiguousOp : Tgc_Op<"contiguous", [Pure, SameOperandsAndResultType]> {
  let summary = "force a tensor to be realized in memory (tinygrad Ops.CONTIGUOUS)";
  let description = [{
    The scheduler ends a kernel at this value. Example:
    `%b = tgc.contiguous %a : tensor<4x4xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def Tgc_KernelOp : Tgc_Op<"kernel", [IsolatedFromAbove]> {
  let summary = "one kernel of the schedule (tinygrad Ops.KERNEL)";
  let description = [{
    Created by `tgc-schedule`. Its operands are the buffers it reads; its
    results the buffers it writes. Before `tgc-lower` the body computes the
    results from block arguments of the operand types with graph-level ops;
    after, the block arguments are pointers, inputs first and then outputs,
    and the body is kernel-level (ranges, loads, stores). `opts` records the
    kernel optimizations applied to it; `useful_share`, below 1 once PADTO
    padded an axis, the share of that axis's lanes that hold elements (old
    bound / new bound, multiplied per PADTO): the manifest counts the
    kernel's FLOPs times it, so idle lanes are no work; `arena_offset` (one
    per result, set by `tgc-plan`) is the byte offset of each result in the
    arena, or -1 for a model output.

    Example:
    ```
    %r = tgc.kernel "E_4" (%a) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<4xf32>):
      %y = tgc.neg %x : tensor<4xf32>
      tgc.sink %y : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs,
                       OptionalAttr<ArrayAttr>:$opts,
                       OptionalAttr<F64Attr>:$useful_share,
                       OptionalAttr<DenseI64ArrayAttr>:$arena_offset);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True once `tgc-lower` turned the body into loads and stores.
    bool isLowered();
    ::mlir::Block &getBlock() { return getBody().front(); }
  }];
}

//===----------------------------------------------------------------------===//
// Movement ops: only in the tensor graph; scheduling turns them into index
// expressions (tinygrad RESHAPE, PERMUTE, EXPAND, PAD, SHRINK, FLIP).
//===----------------------------------------------------------------------===//

class Tgc_MovementOp<string mnemonic, string tinygradOp, string example>
    : Tgc_Op<mnemonic, [Pure]> {
  let summary = "view a tensor differently (tinygrad Ops." # tinygradOp # ")";
  let description = "No data moves. Example: `" # example # "`";
  let results = (outs AnyRankedTensor:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tgc_ReshapeOp : Tgc_MovementOp<"reshape", "RESHAPE",
    "%r = tgc.reshape %x : tensor<2x6xf32> -> tensor<3x4xf32>"> {
  let arguments = (ins AnyRankedTensor:$src);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tgc_PermuteOp : Tgc_MovementOp<"permute", "PERMUTE",
    "%r = tgc.permute %x [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>"> {
  let arguments = (ins AnyRankedTensor:$src, DenseI64ArrayAttr:$order);
  let assemblyFormat =
      "$src $order attr-dict `:` type($src) `->` type($result)";
}

def Tgc_ExpandOp : Tgc_MovementOp<"expand", "EXPAND",
    "%r = tgc.expand %x : tensor<1x3xf32> -> tensor<4x3xf32>"> {
  let arguments = (ins AnyRankedTensor:$src);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tgc_PadOp : Tgc_MovementOp<"pad", "PAD",
    "%r = tgc.pad %x low [1, 0] high [1, 2] : tensor<2x3xf32> -> tensor<4x5xf32>"> {
  let arguments = (ins AnyRankedTensor:$src, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high);
  let assemblyFormat = [{
    $src `low` $low `high` $high attr-dict `:` type($src) `->` type($result)
  }];
}

def Tgc_ShrinkOp : Tgc_MovementOp<"shrink", "SHRINK",
    "%r = tgc.shrink %x begin [0, 1] end [2, 3] : tensor<2x3xf32> -> tensor<2x2xf32>"> {
  let arguments = (ins AnyRankedTensor:$src, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end);
  let assemblyFormat = [{
    $src `begin` $begin `end` $end attr-dict `:` type($src) `->` type($result)
  }];
}

def Tgc_FlipOp : Tgc_MovementOp<"flip", "FLIP",
    "%r = tgc.flip %x [1] : tensor<2x3xf32> -> tensor<2x3xf32>"> {
  let arguments = (ins AnyRankedTensor:$src, DenseI64ArrayAttr:$axes);
  let assemblyFormat = "$src $axes attr-dict `:` type($src) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Reduce ops (tinygrad REDUCE_AXIS on tensors, REDUCE in kernels)
//===----------------------------------------------------------------------===//

def Tgc_ReduceAxisOp : Tgc_Op<"reduce_axis", [Pure]> {
  let summary = "reduce a tensor over axes, keeping them as size 1 (tinygrad Ops.REDUCE_AXIS)";
  let description = [{
    Example: `%s = tgc.reduce_axis add %x [1] : tensor<4x8xf32> -> tensor<4x1xf32>`
  }];
  let arguments = (ins Tgc_ReduceKindAttr:$kind, AnyRankedTensor:$src,
                       DenseI64ArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$kind $src $axes attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tgc_ReduceOp : Tgc_Op<"reduce", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "reduce a value over closed ranges (tinygrad Ops.REDUCE)";
  let description = [{
    Stands after the `tgc.end` of each of its ranges; its value is the
    reduction of `src` over every iteration of them. `tgc-expand` rewrites
    it into an accumulator register.

    Example: `%s = tgc.reduce add %v over %k : f32`
  }];
  let arguments = (ins Tgc_ReduceKindAttr:$kind, AnyType:$src,
                       Variadic<Index>:$ranges);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$kind $src (`over` $ranges^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Defines (tinygrad DEFINE_REG, DEFINE_LOCAL, SPECIAL, CONST)
//===----------------------------------------------------------------------===//

def Tgc_DefineRegOp : Tgc_Op<"define_reg"> {
  let summary = "an array of registers, e.g. accumulators (tinygrad Ops.DEFINE_REG)";
  let description = [{
    Example: `%acc = tgc.define_reg 4 : !tgc.ptr<f32, reg>`
  }];
  let arguments = (ins I64Attr:$size);
  let results = (outs Tgc_AnyPtr:$result);
  let assemblyFormat = "$size attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tgc_DefineLocalOp : Tgc_Op<"define_local"> {
  let summary = "workgroup-shared memory (tinygrad Ops.DEFINE_LOCAL)";
  let description = [{
    Example: `%smem = tgc.define_local 256 : !tgc.ptr<f32, local>`
  }];
  let arguments = (ins I64Attr:$size);
  let results = (outs Tgc_AnyPtr:$result);
  let assemblyFormat = "$size attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tgc_SpecialOp : Tgc_Op<"special", [Pure]> {
  let summary = "a GPU thread or block index (tinygrad Ops.SPECIAL)";
  let description = [{
    `name` is tinygrad's: `gidx0..2` (block), `lidx0..2` (thread in block).
    Example: `%g = tgc.special "gidx0" 128`
  }];
  let arguments = (ins StrAttr:$name, I64Attr:$bound);
  let results = (outs Index:$result);
  let assemblyFormat = "$name $bound attr-dict";
}

def Tgc_ConstOp : Tgc_Op<"const", [ConstantLike, Pure,
                                   AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant scalar, vector or tensor (tinygrad Ops.CONST)";
  let description = [{
    Weights are tensors backed by a resource blob (`dense_resource<...>`),
    never by element lists in the IR.

    Example: `%c = tgc.const 1.0 : f32`,
    `%w = tgc.const dense_resource<w0> : tensor<512x784xf32>`
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypedAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Vector ops (tinygrad VECTORIZE, GEP)
//===----------------------------------------------------------------------===//

def Tgc_VectorizeOp : Tgc_Op<"vectorize", [Pure]> {
  let summary = "build a vector from scalars (tinygrad Ops.VECTORIZE)";
  let description = [{
    Example: `%v = tgc.vectorize %a, %b : (f32, f32) -> vector<2xf32>`
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let results = (outs AnyVectorOfAnyRank:$result);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $result)";
  let hasVerifier = 1;
}

def Tgc_GepOp : Tgc_Op<"gep", [Pure]> {
  let summary = "one lane of a vector (tinygrad Ops.GEP)";
  let description = [{
    Example: `%x = tgc.gep %v[1] : vector<4xf32> -> f32`
  }];
  let arguments = (ins AnyVectorOfAnyRank:$src, I64Attr:$lane);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$src `[` $lane `]` attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise math (tinygrad CAST, BITCAST, the unary, binary and ternary
// ALU ops). They work on tensors in the graph and on scalars, vectors and
// indices in kernels; broadcasting is always an explicit expand.
//===----------------------------------------------------------------------===//

def Tgc_CastOp : Tgc_Op<"cast", [Pure]> {
  let summary = "convert element type by value (tinygrad Ops.CAST)";
  let description = [{
    Float to integer truncates toward zero; to i1 is `x != 0`.
    Example: `%i = tgc.cast %x : tensor<4xf32> to tensor<4xsi32>`
  }];
  let arguments = (ins AnyType:$src);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tgc_BitcastOp : Tgc_Op<"bitcast", [Pure]> {
  let summary = "reinterpret the bits of each element (tinygrad Ops.BITCAST)";
  let description = [{
    Example: `%i = tgc.bitcast %x : f32 to ui32`
  }];
  let arguments = (ins AnyType:$src);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
}

class Tgc_UnaryOp<string mnemonic, string tinygradOp, string math>
    : Tgc_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = math # " elementwise (tinygrad Ops." # tinygradOp # ")";
  let description = "Example: `%r = tgc." # mnemonic # " %x : tensor<4xf32>`";
  let arguments = (ins AnyType:$src);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tgc_Exp2Op : Tgc_UnaryOp<"exp2", "EXP2", "2^x">;
def Tgc_Log2Op : Tgc_UnaryOp<"log2", "LOG2", "log2(x)">;
def Tgc_SinOp : Tgc_UnaryOp<"sin", "SIN", "sin(x)">;
def Tgc_SqrtOp : Tgc_UnaryOp<"sqrt", "SQRT", "sqrt(x)">;
def Tgc_RecipOp : Tgc_UnaryOp<"recip", "RECIP", "1/x">;
def Tgc_NegOp : Tgc_UnaryOp<"neg", "NEG", "-x">;
def Tgc_TruncOp : Tgc_UnaryOp<"trunc", "TRUNC", "round toward zero">;

class Tgc_BinaryOp<string mnemonic, string tinygradOp, string math,
                   list<Trait> traits = []>
    : Tgc_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType], traits)> {
  let summary = math # " elementwise (tinygrad Ops." # tinygradOp # ")";
  let description =
      "Example: `%r = tgc." # mnemonic # " %a, %b : tensor<4xf32>`";
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tgc_AddOp : Tgc_BinaryOp<"add", "ADD", "a + b", [Commutative]>;
def Tgc_MulOp : Tgc_BinaryOp<"mul", "MUL", "a * b", [Commutative]>;
def Tgc_ShlOp : Tgc_BinaryOp<"shl", "SHL", "a << b (integers)">;
def Tgc_ShrOp : Tgc_BinaryOp<"shr", "SHR", "a >> b (integers; arithmetic if signed)">;
def Tgc_IdivOp : Tgc_BinaryOp<"idiv", "IDIV", "a / b rounded toward zero (integers)">;
def Tgc_MaxOp : Tgc_BinaryOp<"max", "MAX", "max(a, b), NaN if either is", [Commutative]>;
def Tgc_ModOp : Tgc_BinaryOp<"mod", "MOD", "a % b with the sign of a (integers)">;

class Tgc_CmpOp<string mnemonic, string tinygradOp, string math,
                list<Trait> traits = []>
    : Tgc_Op<mnemonic, !listconcat([Pure, SameTypeOperands,
        DeclareOpInterfaceMethods<InferTypeOpInterface>], traits)> {
  let summary = math # " elementwise, giving i1 (tinygrad Ops." # tinygradOp # ")";
  let description =
      "Example: `%r = tgc." # mnemonic # " %a, %b : tensor<4xf32>` (type tensor<4xi1>)";
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasFolder = 1;
}

def Tgc_CmpltOp : Tgc_CmpOp<"cmplt", "CMPLT", "a < b">;
def Tgc_CmpneOp : Tgc_CmpOp<"cmpne", "CMPNE", "a != b (true for NaN)", [Commutative]>;
def Tgc_CmpeqOp : Tgc_CmpOp<"cmpeq", "CMPEQ", "a == b", [Commutative]>;

def Tgc_XorOp : Tgc_BinaryOp<"xor", "XOR", "a ^ b (integers, i1)", [Commutative]>;
def Tgc_OrOp : Tgc_BinaryOp<"or", "OR", "a | b (integers, i1)", [Commutative]>;
def Tgc_AndOp : Tgc_BinaryOp<"and", "AND", "a & b (integers, i1)", [Commutative]>;
def Tgc_SubOp : Tgc_BinaryOp<"sub", "SUB", "a - b">;
def Tgc_FdivOp : Tgc_BinaryOp<"fdiv", "FDIV", "a / b (floats)">;
def Tgc_PowOp : Tgc_BinaryOp<"pow", "POW", "a ^ b (floats)">;

def Tgc_WhereOp : Tgc_Op<"where", [Pure, AllTypesMatch<["x", "y", "result"]>]> {
  let summary = "elementwise select (tinygrad Ops.WHERE)";
  let description = [{
    Example: `%r = tgc.where %c, %a, %b : tensor<4xi1>, tensor<4xf32>`
  }];
  let arguments = (ins AnyType:$cond, AnyType:$x, AnyType:$y);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$cond `,` $x `,` $y attr-dict `:` type($cond) `,` type($result)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Tgc_MulaccOp : Tgc_Op<"mulacc", [Pure, SameOperandsAndResultType]> {
  let summary = "a * b + c elementwise (tinygrad Ops.MULACC)";
  let description = [{
    Example: `%r = tgc.mulacc %a, %b, %c : f32`
  }];
  let arguments = (ins AnyType:$a, AnyType:$b, AnyType:$c);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tensor cores (tinygrad WMMA). tinygrad's WMMA multiplies fragments that
// the expander spreads over a warp's registers; tgc's works on tiles staged
// in workgroup memory, which CUDA's wmma API and Metal's simdgroup matrices
// both load from, so one op renders on both. The accumulator is a tile of
// its own (define_acc), zeroed where it is defined, that the warp keeps in
// registers across the reduce loop.
//===----------------------------------------------------------------------===//

def Tgc_DefineAccOp : Tgc_Op<"define_acc"> {
  let summary = "a warp's zeroed m x n accumulator tile for tgc.wmma (tinygrad Ops.WMMA's accumulator)";
  let description = [{
    Every thread of the warp (CUDA) or simdgroup (Metal) holds its share.
    Example: `%acc = tgc.define_acc 16, 16 : !tgc.ptr<f32, reg>`
  }];
  let arguments = (ins I64Attr:$m, I64Attr:$n);
  let results = (outs Tgc_AnyPtr:$result);
  let assemblyFormat = "$m `,` $n attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tgc_WmmaOp : Tgc_Op<"wmma", [AllTypesMatch<["a", "b"]>]> {
  let summary = "acc += a * b on a warp's tensor cores (tinygrad Ops.WMMA)";
  let description = [{
    `a` is the m x k tile at the start of a workgroup buffer (row-major, k
    elements a row), `b` the k x n tile (row-major, n a row), `acc` a
    tgc.define_acc of m x n. Every thread of the warp runs it with the same
    operands. CUDA renders nvcuda::wmma (tf32, m16n16k8), Metal
    simdgroup_float8x8 (m8n8k8).

    Example: `tgc.wmma %acc, %sa, %sb k 8 : !tgc.ptr<f32, reg>, !tgc.ptr<f32, local>`
  }];
  let arguments = (ins Tgc_AnyPtr:$acc, Tgc_AnyPtr:$a, Tgc_AnyPtr:$b,
                       I64Attr:$k);
  let assemblyFormat =
      "$acc `,` $a `,` $b `k` $k attr-dict `:` type($acc) `,` type($a)";
  let hasVerifier = 1;
}

def Tgc_StoreAccOp : Tgc_Op<"store_acc"> {
  let summary = "write an accumulator tile to workgroup memory, row-major (tinygrad: the WMMA result's stores)";
  let description = [{
    Example: `tgc.store_acc %smem, %acc : !tgc.ptr<f32, local>, !tgc.ptr<f32, reg>`
  }];
  let arguments = (ins Tgc_AnyPtr:$dst, Tgc_AnyPtr:$acc);
  let assemblyFormat = "$dst `,` $acc attr-dict `:` type($dst) `,` type($acc)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory (tinygrad INDEX, LOAD, STORE)
//===----------------------------------------------------------------------===//

def Tgc_IndexOp : Tgc_Op<"index", [Pure, AllTypesMatch<["buf", "result"]>]> {
  let summary = "address of an element, optionally gated (tinygrad Ops.INDEX)";
  let description = [{
    With a gate, a load through the result reads its `alt` value where the
    gate is false and a store through it does nothing.

    `padding` says the gate only masks lanes of an axis padded past its
    bound (PADTO): what a load reads there is never used, so a renderer may
    read any element of the buffer instead of branching (a scalar load of
    `buf[gate ? i : 0]`), which keeps a compiler's register allocation of
    the loop around it intact.

    Example: `%p = tgc.index %buf[%i], %valid : !tgc.ptr<f32>`
  }];
  let arguments = (ins Tgc_AnyPtr:$buf, Index:$idx, Optional<I1>:$gate,
                       UnitAttr:$padding);
  let results = (outs Tgc_AnyPtr:$result);
  let assemblyFormat =
      "$buf `[` $idx `]` (`,` $gate^)? (`padding` $padding^)? attr-dict "
      "`:` type($result)";
}

def Tgc_LoadOp : Tgc_Op<"load", [
    OptionalTypesMatchWith<"alt has the result type", "result", "alt", "$_self">]> {
  let summary = "read an element or a vector of them (tinygrad Ops.LOAD)";
  let description = [{
    `alt` is the value of a load through a gated index whose gate is false.
    Example: `%v = tgc.load %p else %zero : !tgc.ptr<f32> -> f32`
  }];
  let arguments = (ins Tgc_AnyPtr:$ptr, Optional<AnyType>:$alt);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$ptr (`else` $alt^)? attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def Tgc_PrefetchOp : Tgc_Op<"prefetch"> {
  let summary = "hint that the cache line at a pointer is read soon";
  let description = [{
    No tinygrad counterpart: a CPU kernel that streams weights too big for
    its caches asks for the next block of them while it computes on the
    current one (tgc-order-loops). Only a hint: nothing is read or written
    that the program sees. No op depends on it, and it stays where it is.
    Example: `tgc.prefetch %p : !tgc.ptr<f32>`
  }];
  let arguments = (ins Tgc_AnyPtr:$ptr);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr)";
}

def Tgc_StoreOp : Tgc_Op<"store"> {
  let summary = "write an element or a vector of them (tinygrad Ops.STORE)";
  let description = [{
    Example: `tgc.store %p, %v : !tgc.ptr<f32>, f32`
  }];
  let arguments = (ins Tgc_AnyPtr:$ptr, AnyType:$value);
  let assemblyFormat =
      "$ptr `,` $value attr-dict `:` type($ptr) `,` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow (tinygrad BARRIER, RANGE, IF, END, ENDIF). Kernel bodies are
// one block, as tinygrad's linearized programs are: a range opens a loop that
// the matching end closes, and an if is closed by an endif.
//===----------------------------------------------------------------------===//

def Tgc_BarrierOp : Tgc_Op<"barrier"> {
  let summary = "workgroup barrier (tinygrad Ops.BARRIER)";
  let description = "Example: `tgc.barrier`";
  let assemblyFormat = "attr-dict";
}

def Tgc_RangeOp : Tgc_Op<"range"> {
  let summary = "open a loop over [0, bound) (tinygrad Ops.RANGE)";
  let description = [{
    The result is the loop index. `id` numbers the axes of a kernel (the
    name of the C loop variable); `axis` says what the loop is for.
    `rolled` asks the C compiler to keep the loop a loop rather than
    write its steps out (see tgc-keep-rolled).

    Example: `%r = tgc.range 784 reduce id 1`, `tgc.range 3 reduce id 5 rolled`
  }];
  let arguments = (ins I64Attr:$bound, Tgc_AxisTypeAttr:$axis, I64Attr:$id,
                       UnitAttr:$rolled);
  let results = (outs Index:$result);
  let assemblyFormat = "$bound $axis `id` $id (`rolled` $rolled^)? attr-dict";
  let hasVerifier = 1;
}

def Tgc_EndOp : Tgc_Op<"end"> {
  let summary = "close a loop opened by tgc.range (tinygrad Ops.END)";
  let description = "Example: `tgc.end %r`";
  let arguments = (ins Index:$range);
  let assemblyFormat = "$range attr-dict";
  let hasVerifier = 1;
}

def Tgc_IfOp : Tgc_Op<"if"> {
  let summary = "run what follows up to tgc.endif only if cond (tinygrad Ops.IF)";
  let description = "Example: `tgc.if %c`";
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond attr-dict";
}

def Tgc_EndifOp : Tgc_Op<"endif"> {
  let summary = "close a tgc.if (tinygrad Ops.ENDIF)";
  let description = "Example: `tgc.endif`";
  let assemblyFormat = "attr-dict";
}

#endif // TGC_IR_TGCOPS_TD
