//===- Manifest.cpp - the package's net.json -------------------*- C++ -*-===//
//
// FLOPs are counted the way tinygrad's `flops_mem` does, restricted to
// floating-point arithmetic: every ALU op once per iteration of the loops
// around it, per vector lane, a multiply-add as two. Index arithmetic,
// casts, loads and stores are not FLOPs. A tensor-core product (tgc.wmma)
// is 2*m*n*k FLOPs shared by the warp that runs it: each of its threads is
// counted its share, since the GPU manifest multiplies by threads. Ops
// under a tgc.if on an index interval (tgc-unswitch's copies of a loop)
// count for the interval's share of the index's values.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Manifest.h"
#include "Codegen/CEmitterSupport.h"
#include "Codegen/Symbolic.h"
#include "Codegen/TensorCores.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"
#include <cmath>
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::tgc;
using Json = nlohmann::ordered_json;

/// How many FLOPs one lane of `op` is: 0 for what is not float arithmetic.
static int64_t getOpFlops(Operation *op) {
  if (auto wmma = dyn_cast<WmmaOp>(op)) {
    auto acc = wmma.getAcc().getDefiningOp<DefineAccOp>();
    return 2 * acc.getM() * acc.getN() * wmma.getK() / kTensorCoreThreads;
  }
  if (!isa<Exp2Op, Log2Op, SinOp, SqrtOp, RecipOp, NegOp, TruncOp, AddOp, MulOp,
           SubOp, FdivOp, MaxOp, PowOp, CmpltOp, CmpneOp, CmpeqOp, WhereOp,
           MulaccOp>(op))
    return 0;
  // The value operand decides (a where's first operand is its condition).
  Value operand = op->getOperand(isa<WhereOp>(op) ? 1 : 0);
  if (!isa<FloatType>(getElementTypeOrSelf(operand.getType())))
    return 0;
  return isa<MulaccOp>(op) ? 2 : 1;
}

static int64_t getBufferBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.getNumElements() * getElementBytes(tensor.getElementType());
}

/// The share of an index's values where `cond` holds, for a conjunction
/// of comparisons of that index with constants (`lo - 1 < i`, `i < hi`);
/// 1 for any other condition.
static double getIntervalShare(Value cond) {
  Value subject;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (Value conjunct : conjunctsOf(cond)) {
    std::optional<IndexComparison> cmp =
        matchIndexComparison(conjunct.getDefiningOp());
    if (!cmp || !conjunct.getDefiningOp<CmpltOp>() ||
        (subject && subject != cmp->subject))
      return 1;
    subject = cmp->subject;
    if (cmp->subjectFirst)
      hi = std::min(hi, cmp->constant);
    else
      lo = std::max(lo, cmp->constant + 1);
  }
  std::optional<IndexBounds> bounds =
      subject ? boundsOf(subject) : std::nullopt;
  if (!bounds)
    return 1;
  int64_t inside = std::min(hi, bounds->max + 1) - std::max(lo, bounds->min);
  return std::max<int64_t>(inside, 0) /
         static_cast<double>(bounds->max - bounds->min + 1);
}

KernelCost mlir::tgc::getKernelCost(KernelOp kernel) {
  KernelCost cost;
  // Iterations of the innermost open loop or if, as a double since an if's
  // share need not divide its loop's trips.
  SmallVector<double> trips{1};
  for (Operation &op : kernel.getBlock()) {
    if (auto range = dyn_cast<RangeOp>(op)) {
      trips.push_back(trips.back() * static_cast<double>(range.getBound()));
      continue;
    }
    if (auto guard = dyn_cast<IfOp>(op)) {
      trips.push_back(trips.back() * getIntervalShare(guard.getCond()));
      continue;
    }
    if (isa<EndOp, EndifOp>(op)) {
      if (trips.size() > 1)
        trips.pop_back();
      continue;
    }
    int64_t flops = getOpFlops(&op);
    if (!flops)
      continue;
    int64_t lanes = 1;
    if (op.getNumResults())
      if (auto vector = dyn_cast<VectorType>(op.getResult(0).getType()))
        lanes = vector.getNumElements();
    cost.flops +=
        static_cast<int64_t>(std::llround(flops * lanes * trips.back()));
  }
  llvm::SmallPtrSet<void *, 8> seen;
  for (Value input : kernel.getInputs())
    if (seen.insert(input.getAsOpaquePointer()).second)
      cost.bytes += getBufferBytes(input.getType());
  for (Value result : kernel.getResults())
    cost.bytes += getBufferBytes(result.getType());
  return cost;
}

static Json describe(const IoTensor &io) {
  return {{"name", io.name},
          {"c_name", io.cName},
          {"dtype", getDtypeName(io.type.getElementType())},
          {"onnx_dtype", getOnnxDtype(io.type.getElementType())},
          {"shape", std::vector<int64_t>(io.type.getShape())},
          {"elems", io.getElements()},
          {"bytes", io.getBytes()}};
}

static std::string hex64(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format("0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

void mlir::tgc::writeManifest(const ModelLayout &layout,
                              const PackageOptions &options,
                              const PackageFiles &files, raw_ostream &os) {
  Json manifest;
  manifest["format"] = "tgc-package";
  manifest["version"] = 1;
  manifest["name"] = layout.prefix;
  manifest["target"] = options.target;
  manifest["source"] = layout.source;
  manifest["files"] = {
      {"header", files.header},
      {"sources", files.sources},
      {"weights", files.weights.empty() ? Json(nullptr) : Json(files.weights)},
      {"runtime", files.runtime},
      {"cmake", "CMakeLists.txt"}};

  Json inputs = Json::array(), outputs = Json::array();
  for (const IoTensor &io : layout.inputs)
    inputs.push_back(describe(io));
  for (const IoTensor &io : layout.outputs)
    outputs.push_back(describe(io));
  manifest["inputs"] = inputs;
  manifest["outputs"] = outputs;

  // The kernels compute one image and run once per image (tgc-image-loop).
  manifest["images"] = layout.images;
  // ... this many of them at once, each in a slice of the arena.
  manifest["parallel_images"] = layout.parallelImages;
  manifest["arena_bytes"] = layout.getArenaTotalBytes();
  manifest["arena_align"] = layout.arenaAlign;
  // The planner's waste: what the arena (an image's slice of it) holds
  // beyond the largest set of buffers alive at one time, the least any plan
  // could use.
  if (layout.peakBytes) {
    manifest["peak_bytes"] = *layout.peakBytes;
    manifest["arena_waste_bytes"] = layout.arenaBytes - *layout.peakBytes;
  } else {
    manifest["peak_bytes"] = nullptr;
    manifest["arena_waste_bytes"] = nullptr;
  }

  manifest["weights_mode"] = options.weightsInFile ? "file" : "embed";
  manifest["weights_bytes"] = layout.weights.data.size();
  manifest["weights_fnv1a64"] = hex64(layout.weights.checksum);
  Json weights = Json::array();
  for (const WeightTensor &tensor : layout.weights.tensors)
    weights.push_back({{"name", tensor.name},
                       {"dtype", getDtypeName(tensor.type.getElementType())},
                       {"shape", std::vector<int64_t>(tensor.type.getShape())},
                       {"offset", tensor.offset},
                       {"bytes", tensor.bytes}});
  manifest["weights"] = weights;

  Json kernels = Json::array();
  int64_t totalFlops = 0, totalBytes = 0;
  for (const KernelCall &call : layout.kernels) {
    KernelOp op = call.op;
    KernelCost cost = getKernelCost(op);
    totalFlops += cost.flops;
    totalBytes += cost.bytes;
    Json kernel = {{"name", op.getName().str()},
                   {"function", call.function},
                   {"flops", cost.flops},
                   {"bytes", cost.bytes}};
    if (auto opts = op.getOpts()) {
      Json list = Json::array();
      for (Attribute opt : *opts)
        if (auto text = dyn_cast<StringAttr>(opt))
          list.push_back(text.getValue().str());
      kernel["opts"] = list;
    }
    kernels.push_back(kernel);
  }
  manifest["kernels"] = kernels;
  // Kernel entries are per call; the totals are per run.
  manifest["total_flops"] = totalFlops * layout.images;
  manifest["total_bytes"] = totalBytes * layout.images;

  // Names come from the model and need not be valid UTF-8; replace rather
  // than abort.
  os << manifest.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}
