//===- CEmitterHeader.cpp - the C API of a model ---------------*- C++ -*-===//
//
// Writes `<name>.h`. The entry point takes two structs of named pointers
// rather than a flat argument list: a model with many inputs stays readable
// at the call site, and adding an output does not reorder arguments.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitterHeader.h"
#include "Codegen/CEmitterSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tgc;

std::string mlir::tgc::getMacroPrefix(StringRef name) { return name.upper(); }

std::string mlir::tgc::getRunSignature(const CEmitterOptions &options) {
  const std::string &n = options.name;
  std::string signature = "int " + n + "_run(const " + n + "_inputs *in, " + n +
                          "_outputs *out, void *arena";
  if (options.weights == WeightsMode::File)
    signature += ", const void *weights";
  return signature + ")";
}

std::string mlir::tgc::getRunParallelSignature(const CEmitterOptions &options) {
  std::string signature = getRunSignature(options);
  signature.pop_back(); // ")"
  size_t name = signature.find("_run(");
  signature.replace(name, 5, "_run_parallel(");
  return signature + ",\n    tgc_parallel_for_fn parallel_for, void *context)";
}

/// The hook through which a model runs its kernels on threads, declared
/// once for every model a program includes.
static const char kParallelFor[] = R"C(/* The parallel-for hook: runs fn(args, task) for every task in
   [0, count), in any order and on any threads, and returns when all have
   finished. `context` is the hook's own (a pool). tgc_pool_parallel_for in
   tgc_pool.c is one; a product can pass its own. */
#ifndef TGC_PARALLEL_FOR_DEFINED
#define TGC_PARALLEL_FOR_DEFINED
typedef void (*tgc_task_fn)(void *args, ptrdiff_t task);
typedef void (*tgc_parallel_for_fn)(void *context, ptrdiff_t count,
                                    tgc_task_fn fn, void *args);
#endif
)C";

int64_t mlir::tgc::getWeightsDataOffset(const ModelLayout &layout) {
  return getSafetensorsHeader(layout.weights, layout.prefix).size();
}

std::string mlir::tgc::describeIoTensor(const IoTensor &io) {
  std::string text = "\"" + sanitizeComment(io.name) + "\" " +
                     getDtypeName(io.type.getElementType()) + " [";
  text +=
      llvm::join(llvm::map_range(io.type.getShape(),
                                 [](int64_t d) { return std::to_string(d); }),
                 ", ");
  return text + "]";
}

void mlir::tgc::emitIoMacros(const IoTensor &io, StringRef kind, unsigned index,
                             StringRef macro, raw_ostream &os) {
  std::string m = (macro + "_" + StringRef(io.cName).upper()).str();
  os << "/* " << kind << " " << index << ": " << describeIoTensor(io)
     << " */\n";
  os << "#define " << m << "_NAME " << quoteCString(io.name) << "\n";
  os << "#define " << m << "_DTYPE \"" << getDtypeName(io.type.getElementType())
     << "\"\n";
  os << "#define " << m << "_RANK " << io.type.getRank() << "\n";
  // An empty initializer is not C: a rank-0 tensor has no shape macro.
  if (io.type.getRank() > 0) {
    os << "#define " << m << "_SHAPE { ";
    llvm::interleave(io.type.getShape(), os, ", ");
    os << " }\n";
  }
  os << "#define " << m << "_ELEMS " << io.getElements() << "\n";
  os << "#define " << m << "_BYTES " << io.getBytes() << "\n";
}

static void emitStruct(ArrayRef<IoTensor> tensors, StringRef name, bool isConst,
                       raw_ostream &os) {
  os << "typedef struct " << name << " {\n";
  for (const IoTensor &io : tensors)
    os << "  " << (isConst ? "const " : "")
       << *getCStorageType(io.type.getElementType()) << " *" << io.cName
       << "; /* " << describeIoTensor(io) << " */\n";
  // C has no empty structs.
  if (tensors.empty())
    os << "  int unused; /* the model has none */\n";
  os << "} " << name << ";\n";
}

void mlir::tgc::emitIoAndArenaChecks(const ModelLayout &layout, StringRef macro,
                                     bool needsArena, raw_ostream &os) {
  SmallVector<std::string> pointers;
  for (const IoTensor &io : layout.inputs)
    pointers.push_back("!in->" + io.cName);
  for (const IoTensor &io : layout.outputs)
    pointers.push_back("!out->" + io.cName);
  os << "  if (!in || !out)\n    return " << macro << "_ERR_NULL;\n";
  if (!pointers.empty())
    os << "  if (" << llvm::join(pointers, " || ") << ")\n    return " << macro
       << "_ERR_NULL;\n";
  if (needsArena)
    os << "  if (!arena)\n    return " << macro << "_ERR_NULL;\n"
       << "  if ((uintptr_t)arena % " << macro
       << "_ARENA_ALIGN != 0)\n    return " << macro << "_ERR_ALIGN;\n";
  else
    os << "  (void)arena; /* the model needs no scratch memory */\n";
}

void mlir::tgc::emitCDeclarations(const ModelLayout &layout,
                                  const CEmitterOptions &options,
                                  raw_ostream &os) {
  const std::string &n = options.name;
  std::string m = getMacroPrefix(n);
  bool inFile = options.weights == WeightsMode::File;

  os << "/* Status codes of " << n << "_run"
     << (inFile ? " and " + n + "_weights_check" : "") << ". */\n";
  os << "#define " << m << "_OK 0\n";
  os << "#define " << m << "_ERR_NULL 1 /* a required pointer is NULL */\n";
  os << "#define " << m << "_ERR_ALIGN 2 /* the arena"
     << (inFile ? " or the weights are" : " is") << " not aligned */\n";
  if (inFile)
    os << "#define " << m
       << "_ERR_WEIGHTS 3 /* not the weights file this code was built "
          "for */\n";

  os << "\n/* The arena: scratch memory the caller provides to every run, "
        "at least\n   "
     << m << "_ARENA_BYTES long (0: none needed, NULL is fine) and aligned "
     << "to\n   " << m << "_ARENA_ALIGN bytes. Its contents need not be "
     << "kept between runs. */\n";
  if (layout.parallelImages > 1)
    os << "/* " << layout.parallelImages << " slices of "
       << layout.getArenaSliceBytes() << " bytes: a run computes "
       << layout.parallelImages << " images at once. */\n";
  os << "#define " << m << "_ARENA_BYTES " << layout.getArenaTotalBytes()
     << "\n";
  os << "#define " << m << "_ARENA_ALIGN " << layout.arenaAlign << "\n";
  os << "\n/* The weights: " << layout.weights.tensors.size()
     << " tensors, 64-byte aligned in one blob";
  if (inFile) {
    int64_t dataOffset = getWeightsDataOffset(layout);
    os << ", shipped as\n   " << n
       << ".safetensors. Load the whole file into memory aligned to\n   " << m
       << "_WEIGHTS_ALIGN bytes (or map it), check it once with\n   " << n
       << "_weights_check and pass it to every run. */\n";
    os << "#define " << m << "_WEIGHTS_BYTES " << layout.weights.data.size()
       << "\n";
    os << "#define " << m << "_WEIGHTS_FILE \"" << n << ".safetensors\"\n";
    os << "#define " << m << "_WEIGHTS_FILE_BYTES "
       << dataOffset + static_cast<int64_t>(layout.weights.data.size()) << "\n";
    os << "#define " << m << "_WEIGHTS_DATA_OFFSET " << dataOffset << "\n";
    os << "#define " << m << "_WEIGHTS_ALIGN " << WeightsBlob::kAlign << "\n";
    os << "#define " << m << "_WEIGHTS_FNV1A64 UINT64_C("
       << llvm::format("0x%016llx",
                       static_cast<unsigned long long>(layout.weights.checksum))
       << ") /* of the data */\n";
  } else {
    os << ", compiled into\n   the library. */\n";
    os << "#define " << m << "_WEIGHTS_BYTES " << layout.weights.data.size()
       << "\n";
  }

  os << "\n/* Inputs and outputs. Buffers are dense, row-major, of the "
        "given dtype\n   (float16 and bfloat16 as their 16 bits in a "
        "uint16_t, bool as one byte). */\n";
  os << "#define " << m << "_NUM_INPUTS " << layout.inputs.size() << "\n";
  os << "#define " << m << "_NUM_OUTPUTS " << layout.outputs.size() << "\n";
  for (auto [i, io] : llvm::enumerate(layout.inputs))
    emitIoMacros(io, "input", i, m, os);
  for (auto [i, io] : llvm::enumerate(layout.outputs))
    emitIoMacros(io, "output", i, m, os);

  os << "\n";
  emitStruct(layout.inputs, n + "_inputs", /*isConst=*/true, os);
  emitStruct(layout.outputs, n + "_outputs", /*isConst=*/false, os);

  os << "\n/* Runs the model: reads the inputs, writes every output. Returns "
     << m
     << "_OK (0),\n   or an error code before touching any buffer. It "
        "allocates nothing and\n   keeps no state, so several threads may "
        "run at once, each with its own\n   arena and outputs. Outputs must "
        "not overlap the inputs or the arena. */\n";
  os << getRunSignature(options) << ";\n";
  os << "\n" << kParallelFor;
  os << "\n/* " << n << "_run with its big kernels split into tasks that "
     << "parallel_for runs\n   (with `context`) on several threads; NULL: "
     << "one thread, as " << n << "_run. */\n";
  os << getRunParallelSignature(options) << ";\n";
  if (inFile)
    os << "\n/* Checks that `file` (`size` bytes) is the weights file this "
          "code was built\n   for: its size, header and checksum. Returns "
       << m << "_OK (0) or " << m << "_ERR_WEIGHTS. */\n"
       << "int " << n << "_weights_check(const void *file, size_t size);\n";
}

void mlir::tgc::emitCHeader(const ModelLayout &layout,
                            const CEmitterOptions &options, raw_ostream &os) {
  const std::string &n = options.name;
  std::string guard = "TGC_" + getMacroPrefix(n) + "_H";
  std::string sources = n + ".c";
  if (options.weights == WeightsMode::SeparateSource)
    sources += " " + n + "_weights.c";
  os << "/* " << n << ".h: the C API of the model"
     << (layout.source.empty() ? std::string()
                               : " " + sanitizeComment(layout.source))
     << ", generated by tgc.\n"
     << " *\n"
     << " * Build: cc -std=c99 -O2 -c " << sources << " (link with -lm),\n"
     << " *        or add_subdirectory() this folder in CMake (library " << n
     << ").\n"
     << " * Use:\n"
     << " *   " << n << "_inputs in;   in.<name> = <input buffer>; ...\n"
     << " *   " << n << "_outputs out; out.<name> = <output buffer>; ...\n"
     << " *   status = " << n << "_run(&in, &out, arena"
     << (options.weights == WeightsMode::File ? ", weights" : "") << ");\n"
     << " */\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include <stddef.h>\n#include <stdint.h>\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  emitCDeclarations(layout, options, os);
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
}
