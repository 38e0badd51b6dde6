//===- MetalHost.cpp - the host glue of a Metal package --------*- C++ -*-===//
//
// `<name>_metal.cpp`, written against metal-cpp (Apple's C++ interface to
// Metal, headers only): the Metal source is compiled once at set-up, as a
// library made from its text with fast math off (tgc's kernels rely on IEEE
// NaN and division), into one pipeline per kernel; a run encodes every
// dispatch into the caller's command buffer in one serial compute encoder,
// so each kernel sees the writes of the ones before it, and the output
// copies into a blit encoder after it.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterSupport.h"
#include "Codegen/GpuHostArgs.h"
#include "Codegen/GpuHostGlue.h"
#include "Codegen/GpuLaunch.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tgc;

/// The MTL::Buffer and the byte offset behind `ref`.
static std::pair<std::string, int64_t> bufferOf(const ModelLayout &layout,
                                                const BufferRef &ref) {
  int64_t offset = getBufferOffset(layout, ref);
  switch (ref.kind) {
  case BufferRef::Kind::Input:
    return {"in->" + layout.inputs[ref.index].cName, offset};
  case BufferRef::Kind::Output:
    return {"out->" + layout.outputs[ref.index].cName, offset};
  case BufferRef::Kind::Arena:
    return {"arena", offset};
  case BufferRef::Kind::Weight:
    return {"weights", offset};
  }
  llvm_unreachable("unknown buffer kind");
}

static std::string sizeOf(const std::array<int64_t, 3> &d) {
  return "MTL::Size(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) +
         ", " + std::to_string(d[2]) + ")";
}

static void emitInit(const ModelLayout &layout, StringRef metalSource,
                     raw_ostream &os) {
  const std::string &n = layout.prefix;
  std::string m = StringRef(n).upper();
  size_t count = std::max<size_t>(1, layout.kernels.size());
  os << "/* " << n << ".metal, compiled by " << n << "_metal_init. */\n"
     << "static const char " << n << "_metal_source[] = R\"tgc_metal("
     << metalSource << ")tgc_metal\";\n\n";
  os << "static const char *const " << n << "_kernel_names[" << count
     << "] = {";
  SmallVector<std::string> names, threads;
  for (const KernelCall &call : layout.kernels) {
    names.push_back("\"" + call.function + "\"");
    threads.push_back(std::to_string(getLaunchDims(call.op).blockThreads()));
  }
  if (names.empty()) {
    names.push_back("0");
    threads.push_back("0");
  }
  os << llvm::join(names, ", ") << "};\n"
     << "/* Threads per threadgroup of each kernel. */\n"
     << "static const NS::UInteger " << n << "_kernel_threads[" << count
     << "] = {" << llvm::join(threads, ", ") << "};\n\n";

  os << "void " << n << "_metal_release(" << n << "_metal *state) {\n"
     << "  if (!state)\n    return;\n"
     << "  for (int i = 0; i < " << count << "; ++i)\n"
     << "    if (state->pipelines[i]) {\n"
     << "      state->pipelines[i]->release();\n"
     << "      state->pipelines[i] = nullptr;\n"
     << "    }\n}\n\n";

  os << "int " << n << "_metal_init(" << n
     << "_metal *state, MTL::Device *device) {\n"
     << "  if (!state || !device)\n    return " << m << "_ERR_NULL;\n"
     << "  for (int i = 0; i < " << count << "; ++i)\n"
     << "    state->pipelines[i] = nullptr;\n"
     << "  MTL::CompileOptions *options = MTL::CompileOptions::alloc()->init();\n"
     << "  options->setFastMathEnabled(false);\n"
     << "  NS::Error *error = nullptr;\n"
     << "  MTL::Library *library = device->newLibrary(\n"
     << "      NS::String::string(" << n
     << "_metal_source, NS::UTF8StringEncoding), options,\n"
     << "      &error);\n"
     << "  options->release();\n"
     << "  if (!library)\n    return " << m << "_ERR_DEVICE;\n"
     << "  int status = " << m << "_OK;\n"
     << "  for (int i = 0; i < " << m << "_NUM_KERNELS && status == " << m
     << "_OK; ++i) {\n"
     << "    MTL::Function *function = library->newFunction(\n"
     << "        NS::String::string(" << n
     << "_kernel_names[i], NS::UTF8StringEncoding));\n"
     << "    if (!function) {\n      status = " << m
     << "_ERR_DEVICE;\n      break;\n    }\n"
     << "    state->pipelines[i] = device->newComputePipelineState(function, "
        "&error);\n"
     << "    function->release();\n"
     << "    /* A kernel that uses many registers may get fewer threads than "
        "its\n       threadgroups have. */\n"
     << "    if (!state->pipelines[i] ||\n"
     << "        state->pipelines[i]->maxTotalThreadsPerThreadgroup() <\n"
     << "            " << n << "_kernel_threads[i])\n"
     << "      status = " << m << "_ERR_DEVICE;\n"
     << "  }\n"
     << "  library->release();\n"
     << "  if (status != " << m << "_OK)\n    " << n
     << "_metal_release(state);\n"
     << "  return status;\n}\n\n";
}

void mlir::tgc::emitMetalHost(const ModelLayout &layout, StringRef metalSource,
                              raw_ostream &os) {
  const std::string &n = layout.prefix;
  std::string m = StringRef(n).upper();
  bool usesArena = usesBufferKind(layout, BufferRef::Kind::Arena);
  bool usesWeights = usesBufferKind(layout, BufferRef::Kind::Weight);

  os << "/* " << n << "_metal.cpp: compiles and encodes the kernels of the "
        "model"
     << (layout.source.empty() ? std::string()
                               : "\n   " + sanitizeComment(layout.source))
     << " with metal-cpp, generated by tgc. */\n"
     << "#include \"" << n << ".h\"\n\n"
     << "#include <Metal/Metal.hpp>\n#include <string.h>\n\n"
     << "/* The weights blob, defined in " << n << "_weights.c. */\n"
     << "extern \"C\" const unsigned char " << n << "_weights[];\n\n";
  emitInit(layout, metalSource, os);

  os << "int " << n << "_upload_weights(MTL::Buffer *weights) {\n"
     << "  if (" << m << "_WEIGHTS_BYTES == 0)\n    return " << m << "_OK;\n"
     << "  if (!weights)\n    return " << m << "_ERR_NULL;\n"
     << "  /* Private storage has no CPU address. */\n"
     << "  if (weights->length() < " << m
     << "_WEIGHTS_BYTES || !weights->contents())\n"
     << "    return " << m << "_ERR_DEVICE;\n"
     << "  memcpy(weights->contents(), " << n << "_weights, " << m
     << "_WEIGHTS_BYTES);\n"
     << "  return " << m << "_OK;\n}\n\n";

  os << "int " << n << "_run(const " << n << "_metal *state, const " << n
     << "_inputs *in, " << n << "_outputs *out,\n"
     << std::string(n.size() + 9, ' ')
     << "MTL::Buffer *arena, MTL::Buffer *weights,\n"
     << std::string(n.size() + 9, ' ') << "MTL::CommandBuffer *commands) {\n";
  SmallVector<std::string> pointers = {"!state", "!in", "!out", "!commands"};
  os << "  if (" << llvm::join(pointers, " || ") << ")\n    return " << m
     << "_ERR_NULL;\n";
  pointers.clear();
  for (const IoTensor &io : layout.inputs)
    pointers.push_back("!in->" + io.cName);
  for (const IoTensor &io : layout.outputs)
    pointers.push_back("!out->" + io.cName);
  for (size_t i = 0; i < layout.kernels.size(); ++i)
    pointers.push_back("!state->pipelines[" + std::to_string(i) + "]");
  if (!pointers.empty())
    os << "  if (" << llvm::join(pointers, " || ") << ")\n    return " << m
       << "_ERR_NULL;\n";
  if (usesArena)
    os << "  if (!arena)\n    return " << m << "_ERR_NULL;\n";
  else
    os << "  (void)arena; /* the model needs no scratch memory */\n";
  if (usesWeights)
    os << "  if (!weights)\n    return " << m << "_ERR_NULL;\n";
  else
    os << "  (void)weights; /* the model has no weights */\n";

  if (!layout.kernels.empty()) {
    os << "  MTL::ComputeCommandEncoder *encoder = "
          "commands->computeCommandEncoder();\n"
       << "  if (!encoder)\n    return " << m << "_ERR_DEVICE;\n";
    for (auto [k, call] : llvm::enumerate(layout.kernels)) {
      LaunchDims dims = getLaunchDims(call.op);
      os << "  /* " << call.function << " */\n"
         << "  encoder->setComputePipelineState(state->pipelines[" << k
         << "]);\n";
      for (auto [i, ref] : llvm::enumerate(call.args)) {
        auto [buffer, offset] = bufferOf(layout, ref);
        os << "  encoder->setBuffer(" << buffer << ", " << offset << ", " << i
           << ");\n";
      }
      os << "  encoder->dispatchThreadgroups(" << sizeOf(dims.grid) << ", "
         << sizeOf(dims.block) << ");\n";
    }
    os << "  encoder->endEncoding();\n";
  }
  if (!layout.copies.empty()) {
    os << "  MTL::BlitCommandEncoder *blit = commands->blitCommandEncoder();\n"
       << "  if (!blit)\n    return " << m << "_ERR_DEVICE;\n";
    for (const OutputCopy &copy : layout.copies) {
      const IoTensor &io = layout.outputs[copy.output];
      auto [buffer, offset] = bufferOf(layout, copy.from);
      os << "  blit->copyFromBuffer(" << buffer << ", " << offset << ", out->"
         << io.cName << ", 0, " << m << "_" << StringRef(io.cName).upper()
         << "_BYTES);\n";
    }
    os << "  blit->endEncoding();\n";
  }
  os << "  return " << m << "_OK;\n}\n";
}
