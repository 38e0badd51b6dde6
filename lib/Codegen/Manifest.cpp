//===- Manifest.cpp - the package's net.json -------------------*- C++ -*-===//
//
// The kernels' FLOPs and bytes come from KernelCost.h.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Manifest.h"
#include "Codegen/CEmitterSupport.h"
#include "Codegen/KernelCost.h"
#include "llvm/Support/Format.h"
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::tgc;
using Json = nlohmann::ordered_json;

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
    KernelCost cost = getUsefulCost(op);
    totalFlops += cost.flops;
    totalBytes += cost.bytes;
    Json kernel = {{"name", op.getName().str()},
                   {"function", call.function},
                   {"flops", cost.flops},
                   {"bytes", cost.bytes}};
    // As the C's comment: none for an empty list (CEmitterKernel.cpp).
    if (auto opts = op.getOpts(); opts && !opts->empty()) {
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
