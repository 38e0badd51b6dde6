//===- ConstantArithmeticTest.cpp - tests for IR/ConstantArithmetic -*- C++
//-*-===//
//
// foldWeightArithmetic: float arithmetic on a weight computed at compile
// time must give the bits the kernels would: float16 and bfloat16 read
// exactly, integers rounded once to float32, max as the kernels take it
// (b when the two are equal, NaN from either side), and no fold where a
// double cannot hold the source or nothing is of the result's size.
//
//===----------------------------------------------------------------------===//

#include "IR/ConstantArithmetic.h"
#include "IR/ConstantData.h"
#include "IR/TgcOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// Each function returns one op of a weight; the resources are the weights.
const char *kWeights = R"mlir(
func.func @half() -> tensor<4xf32> {
  %w = tgc.const dense_resource<h> : tensor<4xf16>
  %0 = tgc.cast %w : tensor<4xf16> to tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @bfloat() -> tensor<2xf32> {
  %w = tgc.const dense_resource<b> : tensor<2xbf16>
  %0 = tgc.cast %w : tensor<2xbf16> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @wide_unsigned() -> tensor<2xf32> {
  %w = tgc.const dense_resource<u> : tensor<2xui32>
  %0 = tgc.cast %w : tensor<2xui32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @max_of_zeros() -> tensor<4xf32> {
  %w = tgc.const dense_resource<z> : tensor<4xf32>
  %c = tgc.const dense<0.0> : tensor<4xf32>
  %0 = tgc.max %w, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @double_to_float() -> tensor<1xf32> {
  %w = tgc.const dense_resource<d> : tensor<1xf64>
  %0 = tgc.cast %w : tensor<1xf64> to tensor<1xf32>
  return %0 : tensor<1xf32>
}
func.func @int64() -> tensor<1xf32> {
  %w = tgc.const dense_resource<l> : tensor<1xsi64>
  %0 = tgc.cast %w : tensor<1xsi64> to tensor<1xf32>
  return %0 : tensor<1xf32>
}
func.func @broadcast_only() -> tensor<2x4xf32> {
  %w = tgc.const dense_resource<z> : tensor<4xf32>
  %r = tgc.reshape %w : tensor<4xf32> -> tensor<1x4xf32>
  %e = tgc.expand %r : tensor<1x4xf32> -> tensor<2x4xf32>
  %c = tgc.const dense<2.0> : tensor<2x4xf32>
  %0 = tgc.mul %e, %c : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      h: "0x02000000003C00C1FF7B0100",
      b: "0x02000000803F00BF",
      u: "0x0400000001000001FFFFFFFF",
      z: "0x040000000000000000000080FFFFFF7F0000803F",
      d: "0x080000009A9999999999B93F",
      l: "0x080000000100000000000001"
    }
  }
#-}
)mlir";

/// The folded value of the op that @name returns, as float32 bits read
/// back; empty if it does not fold.
std::vector<float> foldReturned(ModuleOp module, StringRef name) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  REQUIRE(func);
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  ElementsAttr folded = foldWeightArithmetic(ret.getOperand(0).getDefiningOp());
  if (!folded)
    return {};
  OpBuilder builder(module.getContext());
  builder.setInsertionPoint(ret);
  auto constant =
      builder.create<ConstOp>(ret.getLoc(), cast<TypedAttr>(folded));
  ArrayRef<char> bytes = getConstantBytes(constant);
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  constant.erase();
  return values;
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

} // namespace

TEST_CASE("weight arithmetic folds to the kernels' bits", "[weights]") {
  MLIRContext context;
  context.loadDialect<func::FuncDialect, TgcDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kWeights, &context);
  REQUIRE(module);

  // float16 1, -2.5, 65504 (the largest) and 2^-24 (the smallest subnormal).
  CHECK(foldReturned(*module, "half") ==
        std::vector<float>{1.0f, -2.5f, 65504.0f, std::ldexp(1.0f, -24)});
  CHECK(foldReturned(*module, "bfloat") == std::vector<float>{1.0f, -0.5f});
  // 2^24 + 1 and 2^32 - 1 round once, to even.
  CHECK(foldReturned(*module, "wide_unsigned") ==
        std::vector<float>{16777216.0f, 4294967296.0f});
  // max(+0, 0) and max(-0, 0) are +0 (the second operand when equal), NaN
  // stays NaN, 1 stays 1.
  std::vector<float> max = foldReturned(*module, "max_of_zeros");
  REQUIRE(max.size() == 4);
  CHECK(bitsOf(max[0]) == 0);
  CHECK(bitsOf(max[1]) == 0);
  CHECK(std::isnan(max[2]));
  CHECK(max[3] == 1.0f);
  CHECK(foldReturned(*module, "double_to_float") ==
        std::vector<float>{static_cast<float>(0.1)});
  // No double holds every int64; nothing of the result's size.
  CHECK(foldReturned(*module, "int64").empty());
  CHECK(foldReturned(*module, "broadcast_only").empty());
}

TEST_CASE("a big weight folded from an attribute is a blob", "[weights]") {
  // ONNX int8 initializers are imported as attributes; their float weight
  // becomes a resource blob past 4096 elements (a reshape of an attribute
  // folds into it, and the kernel would not read the weight's own layout).
  MLIRContext context;
  context.loadDialect<func::FuncDialect, TgcDialect>();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  for (int64_t count : {4096, 4097}) {
    std::vector<int8_t> values(count);
    for (int64_t i = 0; i < count; ++i)
      values[i] = static_cast<int8_t>(i % 251 - 125);
    auto i8 = RankedTensorType::get(
        {count}, IntegerType::get(&context, 8, IntegerType::Signed));
    auto weight = builder.create<ConstOp>(
        loc, DenseElementsAttr::get(i8, ArrayRef<int8_t>(values)));
    auto toFloat =
        builder.create<CastOp>(loc, i8.clone(builder.getF32Type()), weight);
    ElementsAttr folded = foldWeightArithmetic(toFloat);
    REQUIRE(folded);
    CHECK(isa<DenseResourceElementsAttr>(folded) == (count > 4096));
    auto constant = builder.create<ConstOp>(loc, cast<TypedAttr>(folded));
    ArrayRef<char> bytes = getConstantBytes(constant);
    REQUIRE(bytes.size() == static_cast<size_t>(count) * 4);
    float last;
    std::memcpy(&last, bytes.data() + (count - 1) * 4, 4);
    CHECK(last == static_cast<float>(values.back()));
  }
}
