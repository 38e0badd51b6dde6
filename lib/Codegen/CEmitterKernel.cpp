//===- CEmitterKernel.cpp - one linearized kernel as a C function -*- C++ -*-=//
//
// The C++ counterpart of tinygrad's `CStyleLanguage.base_rewrite` table: one
// TypeSwitch case per op, each giving the C for that op from the C of its
// operands. A kernel body is one block in order (tgc.range opens a `for`,
// tgc.end closes it), so one forward walk writes the function.
//
// Values: constants are written in place; every other value is a local
// named after what made it (`alu3`, `val2`, `acc0`, `cast1`; loop variables
// `ridx<id>`), declared where it is computed. The IR verifier guarantees a
// value defined in a loop is only used inside it, so every use is in scope.
// Vectors of f32 and f64 are native: one local of a vector type
// (`tgc_f32x16 alu3`) whose operations are the macros CEmitterHelpers
// defines; ops without a vector form build their result lane by lane
// (`tgc_f32x16_make(exp2f(tgc_f32x16_lane(a, 0)), ...)`). Other vectors
// (index, i1) are rendered lane by lane (`alu3_0`, `alu3_1`, ...). Values
// nobody reads are not rendered: an unused local is a -Wall warning and the
// C builds with -Werror.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterKernel.h"
#include "Codegen/CEmitterMatrix.h"
#include "Codegen/CEmitterRenderer.h"
#include "Codegen/CEmitterSupport.h"
#include "Codegen/PartialVectors.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgc;
using namespace mlir::tgc::cemitter;

//===----------------------------------------------------------------------===//
// Output helpers
//===----------------------------------------------------------------------===//

void KernelRenderer::line(const Twine &text) {
  out.indent(2 * depth) << text << "\n";
}

std::string KernelRenderer::newName(StringRef prefix) {
  return (prefix + Twine(counters[prefix]++)).str();
}

std::string KernelRenderer::offsetIndex(StringRef index, unsigned lane) {
  if (lane == 0)
    return index.str();
  long long constant;
  if (!index.getAsInteger(10, constant))
    return std::to_string(constant + lane);
  return (index + "+" + Twine(lane)).str();
}

std::string KernelRenderer::mathCall(StringRef base, Type element,
                                     ArrayRef<std::string> args) {
  std::string call = base.str();
  if (!element.isF64())
    call += language.floatFunctionSuffix;
  return call + "(" + llvm::join(args, ", ") + ")";
}

/// Integer `lhs op rhs` with two's-complement wrap-around, as ONNX integer
/// arithmetic behaves: signed overflow is undefined in C, and types narrower
/// than int are promoted to a signed int, so the operation runs in the
/// unsigned type of the width (at least 32 bits) and is converted back.
std::string KernelRenderer::wrapInt(Type element, StringRef lhs, StringRef op,
                                    StringRef rhs) {
  unsigned width = element.isIndex() ? 0 : element.getIntOrFloatBitWidth();
  if (element.isIndex() || (element.isUnsignedInteger() && width >= 32))
    return (lhs + " " + op + " " + rhs).str();
  std::string unsignedType = width <= 32 ? "uint32_t" : "uint64_t";
  std::string cType = *getCValueType(element);
  return "(" + cType + ")((" + unsignedType + ")" + lhs.str() + " " + op.str() +
         " (" + unsignedType + ")" + rhs.str() + ")";
}

FailureOr<std::string> KernelRenderer::valueType(Operation *op, Type element) {
  if (element.isIndex())
    return language.indexType;
  FailureOr<std::string> type = getCValueType(element);
  if (failed(type))
    return op->emitOpError("has element type ")
           << element << ", which the C emitter cannot represent";
  return type;
}

LogicalResult KernelRenderer::requireFloat(Operation *op) {
  if (isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType())))
    return success();
  return op->emitOpError("is defined on floating-point values only");
}

LogicalResult KernelRenderer::requireInteger(Operation *op, bool allowBool) {
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  if (isIntegerLike(element) || (allowBool && element.isInteger(1)))
    return success();
  return op->emitOpError("is defined on integer values only");
}

/// The bits of `value` as an unsigned integer of its width.
std::string KernelRenderer::toBits(const std::string &value, Type element) {
  if (element.isF32()) {
    helpers.require(CHelper::FloatBits);
    return "tgc_float_bits(" + value + ")";
  }
  if (element.isF64()) {
    helpers.require(CHelper::DoubleBits);
    return "tgc_double_bits(" + value + ")";
  }
  if (isHalfLike(element))
    return toStorage(value, element);
  return "(uint" + std::to_string(element.getIntOrFloatBitWidth()) + "_t)" +
         value;
}

/// The value of `element` whose bits are the unsigned integer `bits`.
std::string KernelRenderer::fromBits(const std::string &bits, Type element,
                                     StringRef cType) {
  if (element.isF32()) {
    helpers.require(CHelper::BitsFloat);
    return "tgc_bits_float(" + bits + ")";
  }
  if (element.isF64()) {
    helpers.require(CHelper::BitsDouble);
    return "tgc_bits_double(" + bits + ")";
  }
  if (isHalfLike(element))
    return fromStorage(bits, element);
  // `bits` already has the unsigned type of its width.
  if (element.isUnsignedInteger())
    return bits;
  return "(" + cType.str() + ")" + bits;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

LogicalResult KernelRenderer::renderAlu(Operation *op, StringRef prefix,
                                        LaneFn laneExpr, bool exact,
                                        StringRef vectorOp,
                                        ArrayRef<Value> given) {
  Value result = op->getResult(0);
  Type element = getElementTypeOrSelf(result.getType());
  FailureOr<std::string> cType = valueType(op, element);
  if (failed(cType))
    return failure();
  SmallVector<Value, 3> operands(given);
  if (given.empty())
    operands.assign(op->operand_begin(), op->operand_end());
  for (Value operand : operands)
    if (lanes[operand].empty())
      return op->emitOpError("reads a value the renderer has not seen");
  unsigned count = getLaneCount(result.getType());
  std::string name = newName(prefix);
  SmallVector<std::string, 1> &resultLanes = lanes[result];

  if (std::string vector = nativeType(result.getType()); !vector.empty()) {
    helpers.requireVector(element, count);
    bool whole = !vectorOp.empty() &&
                 llvm::all_of(operands, [&](Value v) { return isNative(v); });
    std::string expr;
    if (whole) {
      SmallVector<std::string, 3> args;
      for (Value operand : operands)
        args.push_back(lanes[operand].front());
      expr = vector + "_" + vectorOp.str() + "(" + llvm::join(args, ", ") + ")";
    } else {
      SmallVector<std::string> laneExprs;
      for (unsigned lane = 0; lane < count; ++lane) {
        SmallVector<std::string, 3> args;
        for (Value operand : operands)
          args.push_back(laneOf(operand, lane));
        laneExprs.push_back(laneExpr(args));
      }
      expr = vector + "_make(" + llvm::join(laneExprs, ", ") + ")";
    }
    line(vector + " " + name + " = " + expr + ";");
    resultLanes.assign(1, name);
    return success();
  }

  resultLanes.assign(count, "");
  for (unsigned lane = 0; lane < count; ++lane) {
    if (!isLive(result, lane))
      continue;
    SmallVector<std::string, 3> args;
    for (Value operand : operands)
      args.push_back(laneOf(operand, lane));
    std::string expr = laneExpr(args);
    if (!exact && element.isF16()) {
      helpers.require(CHelper::RoundHalf);
      expr = "tgc_round_half(" + expr + ")";
    } else if (!exact && element.isBF16()) {
      helpers.require(CHelper::RoundBf16);
      expr = "tgc_round_bf16(" + expr + ")";
    }
    std::string laneName =
        count == 1 ? name : name + "_" + std::to_string(lane);
    line(*cType + " " + laneName + " = " + expr + ";");
    resultLanes[lane] = laneName;
  }
  return success();
}

LogicalResult KernelRenderer::renderMax(MaxOp op) {
  auto greater = [](ArrayRef<std::string> a) {
    return a[0] + " > " + a[1] + " ? " + a[0] + " : " + a[1];
  };
  if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
    return renderAlu(op, "alu", greater, /*exact=*/true, "max");
  // tgc.max(a, b) is a where a is NaN or greater, else b. fmaxf returns the
  // number when one operand is NaN, so in general both tests are written:
  // `a != a` is true only for a NaN `a`, and a NaN `b` fails `a > b`. A
  // constant that is a number needs fewer: the clamps of ReLU, Clip and
  // quantization are a test and a select, or one maxps, instead of two
  // tests, an or and a select. (max is Commutative: canonicalization puts
  // a constant on the right.)
  if (isNumberConstant(op.getRhs(), /*nonzero=*/true))
    // max(x, c) is c > x ? c : x for a c that is not a zero: the two differ
    // only where x equals c, which then has c's bits.
    return renderAlu(op, "alu", greater, /*exact=*/true, "max_num",
                     {op.getRhs(), op.getLhs()});
  if (isNumberConstant(op.getRhs(), /*nonzero=*/false))
    // A zero c: where x is the other zero, the result is c's.
    return renderAlu(
        op, "alu",
        [](ArrayRef<std::string> a) {
          return a[1] + " >= " + a[0] + " ? " + a[1] + " : " + a[0];
        },
        /*exact=*/true, "max_by_num");
  return renderAlu(
      op, "alu",
      [](ArrayRef<std::string> a) {
        return "(" + a[0] + " != " + a[0] + " || " + a[0] + " > " + a[1] +
               ") ? " + a[0] + " : " + a[1];
      },
      /*exact=*/true, "max");
}

LogicalResult KernelRenderer::renderNeg(NegOp op) {
  Type element = getElementTypeOrSelf(op.getType());
  // -max(-x, c) = -(c > -x ? c : -x) = -c < x ? -c : x, x86's minps(-c,
  // x) (x where x is NaN): one instruction for what would be three. The
  // inner neg and max are then read by nobody (computeLiveness).
  if (auto min = matchMinOfNumber(op))
    return renderAlu(op, "alu",
                     [](ArrayRef<std::string> a) {
                       // c is a literal: "(-9.02f)" negates to "9.02f".
                       StringRef c = a[0];
                       std::string bound = c.consume_front("(-") &&
                                                   c.consume_back(")") &&
                                                   !c.contains('(')
                                               ? c.str()
                                               : "(-" + a[0] + ")";
                       return bound + " < " + a[1] + " ? " + bound + " : " +
                              a[1];
                     },
                     /*exact=*/true, "min_neg", {min->second, min->first});
  return renderAlu(
      op, "alu",
      [&](ArrayRef<std::string> a) {
        if (isa<FloatType>(element) || element.isIndex())
          return "-" + a[0];
        return wrapInt(element, "0", "-", a[0]);
      },
      /*exact=*/true, "neg");
}

LogicalResult KernelRenderer::renderConst(ConstOp op) {
  Type type = op.getType();
  Type element = getElementTypeOrSelf(type);
  SmallVector<std::string, 1> &resultLanes = lanes[op.getResult()];
  auto addLiteral = [&](Attribute value) -> LogicalResult {
    FailureOr<std::string> literal = renderScalarLiteral(value, element);
    if (failed(literal))
      return op.emitOpError("has a value the C emitter cannot write: ")
             << value;
    resultLanes.push_back(*literal);
    return success();
  };
  if (isa<VectorType>(type)) {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return op.emitOpError("vector constant must be a dense attribute");
    for (Attribute value : dense.getValues<Attribute>())
      if (failed(addLiteral(value)))
        return failure();
    if (std::string vector = nativeType(type); !vector.empty()) {
      // Written in place like any constant, as one vector expression.
      helpers.requireVector(element, resultLanes.size());
      std::string expr =
          dense.isSplat()
              ? vector + "_splat(" + resultLanes.front() + ")"
              : vector + "_make(" + llvm::join(resultLanes, ", ") + ")";
      resultLanes.assign(1, expr);
    }
    return success();
  }
  if (isa<ShapedType>(type))
    return op.emitOpError("a tensor constant cannot appear inside a "
                          "lowered kernel");
  return addLiteral(op.getValue());
}

LogicalResult KernelRenderer::renderRange(RangeOp op) {
  int64_t id = op.getId();
  for (const OpenScope &scope : scopes)
    if (scope.range && scope.id == id)
      return op.emitOpError("reuses the id ")
             << id << " of a range it is nested in";
  std::string var = "ridx" + std::to_string(id);
  lanes[op.getResult()] = {var};
  if (op.getAxis() == AxisType::thread) {
    // The task index of the kernel's function (see render): the pool runs
    // the tasks, so there is no loop here.
    if (!threaded || !scopes.empty())
      return op.emitOpError("splits a kernel across threads, which needs "
                            "the range outside every other loop and a "
                            "target with a thread pool");
    line("{");
    scopes.push_back({op.getResult(), id});
    ++depth;
    line(language.indexType + " " + var + " = task;");
    return success();
  }
  // Every other axis kind is a plain loop on a CPU (upcast and unroll
  // axes were written out as lanes by tgc-expand).
  if (op.getRolled())
    line("TGC_ROLLED");
  line("for (" + language.indexType + " " + var + " = 0; " + var + " < " +
       std::to_string(op.getBound()) + "; " + var + "++) {");
  scopes.push_back({op.getResult(), id});
  ++depth;
  return success();
}

/// Closes the innermost scope: a range for tgc.end (`range` set), an if
/// for tgc.endif.
LogicalResult KernelRenderer::renderClose(Operation *op, Value range) {
  if (scopes.empty() || scopes.back().range != range)
    return op->emitOpError("does not close the innermost open ")
           << (scopes.empty() || scopes.back().range ? "range" : "tgc.if");
  scopes.pop_back();
  --depth;
  line("}");
  return success();
}

std::optional<std::string> KernelRenderer::permuteOf(VectorizeOp op,
                                                     StringRef vector) {
  int64_t width = op.getSrcs().size();
  SmallVector<Value, 2> sources;
  SmallVector<int64_t> indices;
  std::optional<std::string> fill;
  for (Value src : op.getSrcs()) {
    if (src.getDefiningOp<ConstOp>()) {
      const std::string &constant = lanes[src].front();
      if (fill && *fill != constant)
        return std::nullopt;
      fill = constant;
      indices.push_back(-1);
      continue;
    }
    auto gep = src.getDefiningOp<GepOp>();
    if (!gep || nativeType(gep.getSrc().getType()) != vector)
      return std::nullopt;
    auto *known = llvm::find(sources, gep.getSrc());
    if (known == sources.end()) {
      if (sources.size() == 2)
        return std::nullopt;
      sources.push_back(gep.getSrc());
      known = sources.end() - 1;
    }
    indices.push_back((known - sources.begin()) * width + gep.getLane());
  }
  if (sources.empty())
    return std::nullopt;
  std::string first = lanes[sources.front()].front();
  std::string second = sources.size() == 2 ? lanes[sources[1]].front() : first;
  auto permute = [&](StringRef a, StringRef b, ArrayRef<int64_t> from) {
    std::string text = vector.str() + "_permute(" + a.str() + ", " + b.str();
    for (int64_t index : from)
      text += ", " + std::to_string(index);
    return text + ")";
  };
  if (!fill)
    return permute(first, second, indices);
  // The constant lanes come from a splat, the second source of a permute
  // of the gathered lanes.
  SmallVector<int64_t> gathered, placed;
  for (auto [lane, index] : llvm::enumerate(indices)) {
    gathered.push_back(index < 0 ? 0 : index);
    placed.push_back(index < 0 ? width : (int64_t)lane);
  }
  return permute(permute(first, second, gathered),
                 vector.str() + "_splat(" + *fill + ")", placed);
}

LogicalResult KernelRenderer::renderVectorize(VectorizeOp op) {
  SmallVector<std::string, 1> &result = lanes[op.getResult()];
  std::string vector = nativeType(op.getType());
  if (vector.empty()) {
    for (Value src : op.getSrcs())
      result.push_back(lanes[src].front());
    return success();
  }
  Type element = getElementTypeOrSelf(op.getType());
  helpers.requireVector(element, op.getSrcs().size());
  SmallVector<std::string> srcs;
  for (Value src : op.getSrcs())
    srcs.push_back(lanes[src].front());
  // A splat of a constant is written in place; a splat of a variable or a
  // vector made of lanes gets a local.
  bool splat = llvm::all_equal(op.getSrcs());
  std::string expr = splat ? vector + "_splat(" + srcs.front() + ")"
                           : vector + "_make(" + llvm::join(srcs, ", ") + ")";
  if (!splat)
    if (std::optional<std::string> permuted = permuteOf(op, vector))
      expr = *permuted;
  if (splat && op.getSrcs().front().getDefiningOp<ConstOp>()) {
    result.assign(1, expr);
    return success();
  }
  std::string name = newName("vec");
  line(vector + " " + name + " = " + expr + ";");
  result.assign(1, name);
  return success();
}

LogicalResult KernelRenderer::renderCast(CastOp op) {
  Type from = getElementTypeOrSelf(op.getSrc().getType());
  Type to = getElementTypeOrSelf(op.getType());
  FailureOr<std::string> cType = valueType(op, to);
  if (failed(cType))
    return failure();
  bool exact = from == to || !isHalfLike(to);
  return renderAlu(
      op, "cast",
      [&](ArrayRef<std::string> a) -> std::string {
        if (from == to)
          return a[0];
        // C's conversion to an integer truncates toward zero, as tgc.cast
        // does; to bool it is `!= 0`, spelled out for readers.
        if (to.isInteger(1))
          return a[0] + " != 0";
        return "(" + *cType + ")" + a[0];
      },
      exact);
}

LogicalResult KernelRenderer::renderBitcast(BitcastOp op) {
  Type from = getElementTypeOrSelf(op.getSrc().getType());
  Type to = getElementTypeOrSelf(op.getType());
  if (from.isIndex() || to.isIndex())
    return op.emitOpError("cannot reinterpret index values");
  FailureOr<std::string> cType = valueType(op, to);
  if (failed(cType))
    return failure();
  return renderAlu(
      op, "cast",
      [&](ArrayRef<std::string> a) -> std::string {
        if (from == to)
          return a[0];
        return fromBits(toBits(a[0], from), to, *cType);
      },
      /*exact=*/true);
}

LogicalResult KernelRenderer::renderOp(Operation &op) {
  // A value nobody reads is not rendered (see the file comment); structural
  // ops and ops that must fail loudly are always looked at.
  if (op.getNumResults() == 1 && !isAnyLaneLive(op.getResult(0)) &&
      !isa<RangeOp, ReduceOp>(op) && op.getDialect() &&
      isa<TgcDialect>(op.getDialect()) &&
      !isa<TensorType>(op.getResult(0).getType()))
    return success();

  Type element = op.getNumOperands()
                     ? getElementTypeOrSelf(op.getOperand(0).getType())
                     : Type();
  auto binary = [&](StringRef symbol) {
    return [symbol](ArrayRef<std::string> a) {
      return a[0] + " " + symbol.str() + " " + a[1];
    };
  };
  auto wrapping = [&](StringRef symbol) {
    return [this, element, symbol](ArrayRef<std::string> a) {
      if (isa<FloatType>(element))
        return a[0] + " " + symbol.str() + " " + a[1];
      return wrapInt(element, a[0], symbol, a[1]);
    };
  };
  auto math = [&](StringRef base) {
    return [this, element, base](ArrayRef<std::string> a) {
      return mathCall(base, element, a);
    };
  };

  return TypeSwitch<Operation *, LogicalResult>(&op)
      // Defines and constants.
      .Case<ConstOp>([&](ConstOp c) { return renderConst(c); })
      .Case<DefineRegOp>([&](DefineRegOp d) {
        return renderDefine(d, d.getSize(), "acc", "");
      })
      .Case<DefineLocalOp>([&](DefineLocalOp d) -> LogicalResult {
        if (language.localPrefix.empty())
          return d.emitOpError("needs workgroup memory, which this target "
                               "does not have");
        std::string qualifier = language.localPrefix;
        if (!language.matrixTileAlign.empty() &&
            llvm::any_of(d->getUsers(), [](Operation *user) {
              return isa<WmmaOp, StoreAccOp>(user);
            }))
          qualifier += " " + language.matrixTileAlign;
        return renderDefine(d, d.getSize(), "smem", qualifier);
      })
      // Tensor cores (CEmitterMatrix.h).
      .Case<DefineAccOp>([&](DefineAccOp d) -> LogicalResult {
        std::string name = newName("wmma");
        FailureOr<SmallVector<std::string>> lines =
            renderDefineAcc(d, language, name);
        if (failed(lines))
          return failure();
        lanes[d.getResult()] = {name};
        for (const std::string &text : *lines)
          line(text);
        return success();
      })
      .Case<WmmaOp>([&](WmmaOp w) {
        for (const std::string &text :
             renderWmma(w, language, lanes[w.getAcc()].front(),
                        lanes[w.getA()].front(), lanes[w.getB()].front()))
          line(text);
        return success();
      })
      .Case<StoreAccOp>([&](StoreAccOp s) {
        for (const std::string &text :
             renderStoreAcc(s, language, lanes[s.getDst()].front(),
                            lanes[s.getAcc()].front()))
          line(text);
        return success();
      })
      .Case<SpecialOp>([&](SpecialOp s) -> LogicalResult {
        auto it = language.specialIndices.find(s.getName());
        if (it == language.specialIndices.end())
          return s.emitOpError("'")
                 << s.getName() << "' is not an index of this target";
        std::string name = sanitizeIdentifier(s.getName());
        lanes[s.getResult()] = {name};
        line(language.indexType + " " + name + " = " + it->second + ";");
        return success();
      })
      // Vectors.
      .Case<VectorizeOp>([&](VectorizeOp v) { return renderVectorize(v); })
      .Case<GepOp>([&](GepOp g) {
        lanes[g.getResult()] = {laneOf(g.getSrc(), g.getLane())};
        return success();
      })
      // Conversions.
      .Case<CastOp>([&](CastOp c) { return renderCast(c); })
      .Case<BitcastOp>([&](BitcastOp b) { return renderBitcast(b); })
      // Unary math.
      .Case<Exp2Op>([&](Exp2Op o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        if (element.isF64())
          return renderAlu(o, "alu", math("exp2"));
        // Below double, tgc's own exp2, which C compilers can vectorize.
        helpers.require(CHelper::Exp2f);
        return renderAlu(
            o, "alu",
            [](ArrayRef<std::string> a) { return "tgc_exp2f(" + a[0] + ")"; },
            false, "exp2");
      })
      .Case<Log2Op>([&](Log2Op o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("log2"));
      })
      .Case<SinOp>([&](SinOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("sin"));
      })
      .Case<SqrtOp>([&](SqrtOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("sqrt"));
      })
      .Case<RecipOp>([&](RecipOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        std::string one = element.isF64() ? "1.0" : "1.0f";
        return renderAlu(
            o, "alu",
            [&](ArrayRef<std::string> a) { return one + " / " + a[0]; }, false,
            "recip");
      })
      .Case<NegOp>([&](NegOp o) { return renderNeg(o); })
      .Case<TruncOp>([&](TruncOp o) {
        return renderAlu(
            o, "alu",
            [&](ArrayRef<std::string> a) {
              // Integers are already whole.
              if (!isa<FloatType>(element))
                return a[0];
              return mathCall("trunc", element, a);
            },
            /*exact=*/true);
      })
      // Binary arithmetic.
      .Case<AddOp>([&](AddOp o) {
        return renderAlu(o, "alu", wrapping("+"), false, "add");
      })
      .Case<SubOp>([&](SubOp o) {
        return renderAlu(o, "alu", wrapping("-"), false, "sub");
      })
      .Case<MulOp>([&](MulOp o) {
        return renderAlu(o, "alu", wrapping("*"), false, "mul");
      })
      .Case<FdivOp>([&](FdivOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", binary("/"), false, "div");
      })
      .Case<IdivOp>([&](IdivOp o) -> LogicalResult {
        // C's `/` truncates toward zero, as tgc.idiv does.
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        return renderAlu(o, "alu", binary("/"));
      })
      .Case<ModOp>([&](ModOp o) -> LogicalResult {
        // C's `%` takes the sign of the dividend, as tgc.mod does.
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        return renderAlu(o, "alu", binary("%"));
      })
      .Case<MaxOp>([&](MaxOp o) { return renderMax(o); })
      .Case<PowOp>([&](PowOp o) -> LogicalResult {
        if (failed(requireFloat(o)))
          return failure();
        return renderAlu(o, "alu", math("pow"));
      })
      .Case<ShlOp>([&](ShlOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        // Shifting a negative signed value left is undefined in C.
        return renderAlu(o, "alu", [&](ArrayRef<std::string> a) {
          if (element.isIndex())
            return "(" + language.indexType + ")((size_t)" + a[0] + " << " +
                   a[1] + ")";
          return wrapInt(element, a[0], "<<", a[1]);
        });
      })
      .Case<ShrOp>([&](ShrOp o) -> LogicalResult {
        // gcc and clang shift signed values arithmetically, as tgc.shr
        // specifies.
        if (failed(requireInteger(o, /*allowBool=*/false)))
          return failure();
        return renderAlu(o, "alu", binary(">>"));
      })
      // Bitwise logic.
      .Case<XorOp>([&](XorOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/true)))
          return failure();
        return renderAlu(o, "alu", binary("^"));
      })
      .Case<OrOp>([&](OrOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/true)))
          return failure();
        return renderAlu(o, "alu", binary("|"));
      })
      .Case<AndOp>([&](AndOp o) -> LogicalResult {
        if (failed(requireInteger(o, /*allowBool=*/true)))
          return failure();
        return renderAlu(o, "alu", binary("&"));
      })
      // Comparisons: C's `!=` is already true when either side is NaN.
      .Case<CmpltOp>(
          [&](CmpltOp o) { return renderAlu(o, "alu", binary("<")); })
      .Case<CmpneOp>(
          [&](CmpneOp o) { return renderAlu(o, "alu", binary("!=")); })
      .Case<CmpeqOp>(
          [&](CmpeqOp o) { return renderAlu(o, "alu", binary("==")); })
      // Ternary.
      .Case<WhereOp>([&](WhereOp o) {
        return renderAlu(
            o, "alu",
            [](ArrayRef<std::string> a) {
              return a[0] + " ? " + a[1] + " : " + a[2];
            },
            /*exact=*/true);
      })
      .Case<MulaccOp>([&](MulaccOp o) {
        // One expression, which the compiler fuses into an FMA where the
        // target has one (CEmitter.cpp turns contraction on for GCC).
        return renderAlu(
            o, "alu",
            [&](ArrayRef<std::string> a) {
              if (isa<FloatType>(element))
                return a[0] + " * " + a[1] + " + " + a[2];
              return wrapInt(element, wrapInt(element, a[0], "*", a[1]), "+",
                             a[2]);
            },
            false, "fma");
      })
      // Memory.
      .Case<IndexOp>([&](IndexOp i) { return renderIndex(i); })
      .Case<LoadOp>([&](LoadOp l) { return renderLoad(l); })
      .Case<StoreOp>([&](StoreOp s) { return renderStore(s); })
      .Case<PrefetchOp>([&](PrefetchOp p) -> LogicalResult {
        // Gated where the address would pass the buffer's end.
        Address address = addressOf(p.getPtr());
        line((address.gate.empty() ? "" : "if (" + address.gate + ") ") +
             "TGC_PREFETCH(" + address.buffer + " + " + address.index + ");");
        return success();
      })
      // Control flow.
      .Case<RangeOp>([&](RangeOp r) { return renderRange(r); })
      .Case<EndOp>([&](EndOp e) { return renderClose(e, e.getRange()); })
      .Case<IfOp>([&](IfOp i) {
        line("if (" + lanes[i.getCond()].front() + ") {");
        scopes.push_back({Value(), -1});
        ++depth;
        return success();
      })
      .Case<EndifOp>([&](EndifOp e) { return renderClose(e, Value()); })
      .Case<BarrierOp>([&](BarrierOp b) -> LogicalResult {
        if (language.barrier.empty())
          return b.emitOpError("has no meaning on this target");
        line(language.barrier);
        return success();
      })
      .Case<SinkOp>([](SinkOp) { return success(); })
      .Case<ReduceOp>([](ReduceOp r) {
        return r.emitOpError("is still here; tgc-expand turns reductions "
                             "into accumulators before rendering");
      })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be rendered: it is not a "
                                  "kernel-level op");
      });
}

LogicalResult KernelRenderer::render(KernelOp kernel, StringRef functionName,
                                     raw_ostream &os) {
  if (!kernel.isLowered())
    return kernel.emitOpError("is not lowered; run the pipeline up to "
                              "tgc-linearize before rendering");
  Block &block = kernel.getBlock();
  computeLiveness(block);
  findVectorRegisters(block);
  for (Operation &op : block)
    for (Value result : op.getResults())
      if (isNative(result)) {
        auto vector = cast<VectorType>(result.getType());
        widestVector = std::max<int64_t>(
            widestVector, vector.getNumElements() *
                              vector.getElementTypeBitWidth() / 8);
      }

  threaded = getThreadTasks(kernel).has_value();
  if (threaded && !language.threadPool)
    return kernel.emitOpError("is split across threads, which this target "
                              "does not do");
  std::string argsType = functionName.str() + "_args";
  std::string argsStruct = "typedef struct " + argsType + " {\n";

  // Parameters: inputs (read only) then outputs, as the block arguments.
  // A task function unpacks them from its argument struct and passes them
  // to the body.
  SmallVector<std::string> params, taskArgs;
  unsigned numInputs = kernel.getInputs().size();
  for (BlockArgument arg : block.getArguments()) {
    auto ptr = cast<PtrType>(arg.getType());
    FailureOr<std::string> cType = getCStorageType(ptr.getElementType());
    if (failed(cType))
      return kernel.emitOpError("has a buffer of ")
             << ptr.getElementType()
             << ", which the C emitter cannot represent";
    std::string name = "data" + std::to_string(arg.getArgNumber());
    lanes[arg] = {name};
    std::string param = language.bufferPrefix +
                        (arg.getArgNumber() < numInputs ? "const " : "") +
                        *cType + " *" + language.restrictQualifier + " " + name;
    if (language.bufferIndexAttributes)
      param += " [[buffer(" + std::to_string(arg.getArgNumber()) + ")]]";
    params.push_back(param);
    if (threaded) {
      argsStruct += "  " + std::string(arg.getArgNumber() < numInputs
                                           ? "const "
                                           : "") +
                    *cType + " *" + name + ";\n";
      taskArgs.push_back("args->" + name);
    }
    // An optimization may leave a buffer unread; say so to the compiler
    // rather than trip -Wunused-parameter.
    if (!isAnyLaneLive(arg))
      line("(void)" + name + ";");
  }

  llvm::append_range(params, language.extraParams);

  for (Operation &op : block)
    if (failed(renderOp(op)))
      return failure();

  // No comment for an empty list: a kernel a tuning database gives no
  // actions is then the same C as one the heuristic gave none, so a tuned
  // package whose choices all gave way is the heuristic's byte for byte.
  if (auto opts = kernel.getOpts(); opts && !opts->empty()) {
    os << "/* opts:";
    for (Attribute opt : *opts)
      if (auto text = dyn_cast<StringAttr>(opt))
        os << " " << sanitizeComment(text.getValue());
    os << " */\n";
  }
  // A task function takes the buffers as restrict parameters of the body
  // it calls: C compilers trust restrict on parameters, not on locals
  // copied out of the argument struct (GCC left the loops of such a body
  // scalar, or versioned them for aliasing).
  std::string bodyName = functionName.str();
  if (threaded) {
    bodyName += "_task";
    params.push_back(language.indexType + " task");
  }
  os << (threaded ? "static TGC_NOINLINE void" : language.kernelPrefix)
     << " ";
  // clang splits vectors wider than its preferred width (256 bits on
  // AVX-512 CPUs) unless the function asks for them.
  if (widestVector > 32)
    os << "TGC_MIN_VECTOR_WIDTH(" << widestVector * 8 << ") ";
  os << bodyName << "(" << llvm::join(params, ", ") << ") {\n"
     << body << "}\n";
  if (threaded) {
    taskArgs.push_back("task");
    os << argsStruct << "} " << argsType << ";\n"
       << language.kernelPrefix << " " << functionName << "(void *task_args, "
       << language.indexType << " task) {\n"
       << "  const " << argsType << " *args = (const " << argsType
       << " *)task_args;\n"
       << "  " << bodyName << "(" << llvm::join(taskArgs, ", ") << ");\n"
       << "}\n";
  }
  return success();
}

std::optional<int64_t> mlir::tgc::getThreadTasks(KernelOp kernel) {
  for (Operation &op : kernel.getBlock())
    if (auto range = dyn_cast<RangeOp>(op);
        range && range.getAxis() == AxisType::thread)
      return (int64_t)range.getBound();
  return std::nullopt;
}

LogicalResult mlir::tgc::renderKernel(KernelOp kernel,
                                      llvm::StringRef functionName,
                                      const CStyleLanguage &language,
                                      CHelperSet &helpers,
                                      llvm::raw_ostream &os) {
  KernelRenderer renderer(language, helpers);
  return renderer.render(kernel, functionName, os);
}
