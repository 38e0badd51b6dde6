//===- CEmitter.cpp - the C renderer (stage "render") ----------*- C++ -*-===//
//
// Writes the model's source: the helpers its kernels need, the weights (or a
// reference to them), one static function per kernel (CEmitterKernel.cpp)
// and the run function, which checks its arguments and calls the kernels in
// order on pointers into the inputs, outputs, arena and weights.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CEmitter.h"
#include "Codegen/CEmitterHeader.h"
#include "Codegen/CEmitterKernel.h"
#include "Codegen/CEmitterSupport.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tgc;

/// The pragmas around a string literal of weights: C99 only promises 4095
/// characters per literal, and -pedantic says so. An array exactly as long
/// as its string drops the NUL, which C allows and gcc 15's -Wextra points
/// out.
static void emitLiteralPragmas(raw_ostream &os, bool push) {
  if (!push) {
    os << "#if defined(__GNUC__)\n#pragma GCC diagnostic pop\n#endif\n";
    return;
  }
  os << "#if defined(__GNUC__)\n"
        "#pragma GCC diagnostic push\n"
        "#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n"
        "#endif\n"
        "#if defined(__clang__)\n"
        "#if __has_warning(\"-Wunterminated-string-initialization\")\n"
        "#pragma GCC diagnostic ignored "
        "\"-Wunterminated-string-initialization\"\n"
        "#endif\n"
        "#elif defined(__GNUC__) && __GNUC__ >= 15\n"
        "#pragma GCC diagnostic ignored "
        "\"-Wunterminated-string-initialization\"\n"
        "#endif\n";
}

/// Defines `<name>_weights`, 64-byte aligned, with the blob as its string.
static void emitWeightsArray(const ModelLayout &layout, StringRef name,
                             bool isStatic, raw_ostream &os) {
  ArrayRef<char> data = layout.weights.data;
  std::string alignMacro = getMacroPrefix(name) + "_WEIGHTS_ALIGNED";
  // C99 has no _Alignas; every compiler that matters has its own spelling.
  os << "#if defined(__GNUC__)\n#define " << alignMacro
     << " __attribute__((aligned(" << WeightsBlob::kAlign << ")))\n"
     << "#elif defined(_MSC_VER)\n#define " << alignMacro
     << " __declspec(align(" << WeightsBlob::kAlign << "))\n"
     << "#else\n#define " << alignMacro << "\n#endif\n";
  if (data.empty()) {
    // C has no empty arrays; nothing reads this one.
    os << (isStatic ? "static " : "") << alignMacro << " const unsigned char "
       << name << "_weights[1] = {0};\n";
    return;
  }
  emitLiteralPragmas(os, /*push=*/true);
  // The storage class comes first: -Wextra warns otherwise.
  os << (isStatic ? "static " : "") << alignMacro << " const unsigned char "
     << name << "_weights[" << data.size() << "] =\n";
  writeCStringLiteral(data, os);
  os << ";\n";
  emitLiteralPragmas(os, /*push=*/false);
}

namespace {
/// Writes the run function (and, for a weights file, the check function).
class RunWriter {
public:
  RunWriter(const ModelLayout &layout, const CEmitterOptions &options)
      : layout(layout), options(options), m(getMacroPrefix(options.name)) {}

  void emit(raw_ostream &os);

private:
  std::string pointerTo(const BufferRef &ref, Type element, bool isConst);
  /// `in->NAME` or `out->NAME`, advanced to the current image when the run
  /// loops over images.
  std::string imageSlice(StringRef side, const IoTensor &io);
  void emitWeightsCheck(raw_ostream &os);
  /// The kernel calls and output copies of one run (of one image when the
  /// run loops over them). A kernel split into tasks is run by
  /// `forEach(context, tasks, fn, &args)`: the hook, or the serial loop
  /// inside a task of images. With `marks`, each call is followed by the
  /// profiler's hook (emitProfilerHook).
  void emitKernelCalls(raw_ostream &os, StringRef indent, StringRef forEach,
                       StringRef context, bool marks);
  /// The macro a profiler defines to learn when each kernel ends.
  void emitProfilerHook(raw_ostream &os);
  /// The task that computes every parallelImages-th image in a slice of
  /// the arena of its own, and the struct of its arguments.
  void emitImagesTask(raw_ostream &os, bool usesArena, bool usesWeights);

  const ModelLayout &layout;
  const CEmitterOptions &options;
  std::string m;
};
} // namespace

std::string RunWriter::imageSlice(StringRef side, const IoTensor &io) {
  std::string pointer = (side + io.cName).str();
  if (layout.images == 1)
    return pointer;
  return "(" + pointer + " + image * " +
         std::to_string(io.getImageElements()) + ")";
}

std::string RunWriter::pointerTo(const BufferRef &ref, Type element,
                                 bool isConst) {
  std::string cType = *getCStorageType(element);
  switch (ref.kind) {
  case BufferRef::Kind::Input:
    return imageSlice("in->", layout.inputs[ref.index]);
  case BufferRef::Kind::Output:
    return imageSlice("out->", layout.outputs[ref.index]);
  case BufferRef::Kind::Arena:
    return "(" + std::string(isConst ? "const " : "") + cType + " *)(mem + " +
           std::to_string(ref.index) + ")";
  case BufferRef::Kind::Weight:
    return "(const " + cType + " *)(blob + " +
           std::to_string(layout.weights.tensors[ref.index].offset) + ")";
  }
  llvm_unreachable("unknown buffer kind");
}

void RunWriter::emitWeightsCheck(raw_ostream &os) {
  const std::string &n = options.name;
  os << "/* The length of the safetensors header, little-endian. */\n"
     << "static uint64_t tgc_read_u64le(const unsigned char *bytes) {\n"
     << "  uint64_t value = 0;\n"
     << "  int i;\n"
     << "  for (i = 7; i >= 0; --i)\n"
     << "    value = (value << 8) | bytes[i];\n"
     << "  return value;\n"
     << "}\n\n";
  os << "int " << n << "_weights_check(const void *file, size_t size) {\n"
     << "  const unsigned char *bytes = (const unsigned char *)file;\n"
     << "  uint64_t hash = UINT64_C(14695981039346656037);\n"
     << "  size_t i;\n"
     << "  if (!file)\n"
     << "    return " << m << "_ERR_NULL;\n"
     << "  if (size != " << m << "_WEIGHTS_FILE_BYTES ||\n"
     << "      tgc_read_u64le(bytes) != " << m << "_WEIGHTS_DATA_OFFSET - 8)\n"
     << "    return " << m << "_ERR_WEIGHTS;\n"
     << "  for (i = " << m << "_WEIGHTS_DATA_OFFSET; i < size; ++i) {\n"
     << "    hash ^= bytes[i];\n"
     << "    hash *= UINT64_C(1099511628211);\n"
     << "  }\n"
     << "  return hash == " << m << "_WEIGHTS_FNV1A64 ? " << m << "_OK : " << m
     << "_ERR_WEIGHTS;\n"
     << "}\n\n";
}

void RunWriter::emit(raw_ostream &os) {
  bool inFile = options.weights == WeightsMode::File;
  if (inFile)
    emitWeightsCheck(os);

  bool threaded = llvm::any_of(layout.kernels, [](const KernelCall &call) {
    return getThreadTasks(call.op).has_value();
  });
  bool parallelImages = layout.parallelImages > 1;
  const std::string &n = options.name;
  if (threaded || parallelImages)
    os << "/* The hook's stand-in when " << n << "_run_parallel gets none. */\n"
       << "static void " << n
       << "_serial_for(void *context, ptrdiff_t count, tgc_task_fn fn,\n"
       << "    void *args) {\n"
       << "  ptrdiff_t task;\n"
       << "  (void)context;\n"
       << "  for (task = 0; task < count; ++task)\n"
       << "    fn(args, task);\n"
       << "}\n\n";
  bool usesArena = usesBufferKind(layout, BufferRef::Kind::Arena);
  bool usesWeights = usesBufferKind(layout, BufferRef::Kind::Weight);
  if (parallelImages)
    emitImagesTask(os, usesArena, usesWeights);
  if (!parallelImages)
    emitProfilerHook(os);
  os << getRunSignature(options) << " {\n"
     << "  return " << n << "_run_parallel(in, out, arena"
     << (inFile ? ", weights" : "") << ", NULL, NULL);\n"
     << "}\n\n";
  os << getRunParallelSignature(options) << " {\n";
  if (layout.images > 1 && !parallelImages)
    os << "  ptrdiff_t image;\n";
  if (usesArena)
    os << "  unsigned char *mem = (unsigned char *)arena;\n";
  if (usesWeights)
    os << "  const unsigned char *blob = "
       << (inFile ? "(const unsigned char *)weights + " + m +
                        "_WEIGHTS_DATA_OFFSET"
                  : options.name + "_weights")
       << ";\n";

  // Every check comes before the first write.
  emitIoAndArenaChecks(layout, m, /*needsArena=*/layout.arenaBytes > 0, os);
  if (inFile)
    os << "  if (!weights)\n    return " << m << "_ERR_NULL;\n"
       << "  if ((uintptr_t)weights % " << m
       << "_WEIGHTS_ALIGN != 0)\n    return " << m << "_ERR_ALIGN;\n"
       << "  if (tgc_read_u64le((const unsigned char *)weights) != " << m
       << "_WEIGHTS_DATA_OFFSET - 8)\n    return " << m << "_ERR_WEIGHTS;\n";

  if (threaded || parallelImages)
    os << "  if (!parallel_for) {\n"
       << "    parallel_for = " << n << "_serial_for;\n"
       << "    context = NULL;\n"
       << "  }\n";
  else
    os << "  (void)parallel_for; /* no kernel is worth splitting */\n"
       << "  (void)context;\n";

  if (parallelImages) {
    os << "  {\n"
       << "    " << n << "_images_args images;\n"
       << "    images.in = in;\n"
       << "    images.out = out;\n";
    if (usesArena)
      os << "    images.mem = mem;\n";
    if (usesWeights)
      os << "    images.blob = blob;\n";
    os << "    parallel_for(context, " << layout.parallelImages << ", " << n
       << "_images, &images);\n"
       << "  }\n"
       << "  return " << m << "_OK;\n}\n";
    return;
  }
  // One image at a time: the kernels compute one, the arena holds one.
  std::string indent = "  ";
  if (layout.images > 1) {
    os << "  /* The batch one image at a time (tgc-image-loop): each image's\n"
       << "     activations stay in cache from kernel to kernel. */\n"
       << "  for (image = 0; image < " << layout.images << "; ++image) {\n";
    indent = "    ";
  }
  emitKernelCalls(os, indent, "parallel_for", "context", /*marks=*/true);
  if (layout.images > 1)
    os << "  }\n";
  os << "  return " << m << "_OK;\n}\n";
}

void RunWriter::emitImagesTask(raw_ostream &os, bool usesArena,
                               bool usesWeights) {
  const std::string &n = options.name;
  int64_t tasks = layout.parallelImages;
  os << "/* --parallel-images " << tasks << ": task t computes images t, t + "
     << tasks << ", ... of the batch\n"
     << "   in the arena's slice t, so that each thread keeps its images' "
        "activations\n"
     << "   in its own core's caches from kernel to kernel. */\n"
     << "typedef struct " << n << "_images_args {\n"
     << "  const " << n << "_inputs *in;\n"
     << "  " << n << "_outputs *out;\n";
  if (usesArena)
    os << "  unsigned char *mem;\n";
  if (usesWeights)
    os << "  const unsigned char *blob;\n";
  os << "} " << n << "_images_args;\n"
     << "static void " << n << "_images(void *task_args, ptrdiff_t task) {\n"
     << "  const " << n << "_images_args *images = (const " << n
     << "_images_args *)task_args;\n"
     << "  const " << n << "_inputs *in = images->in;\n"
     << "  " << n << "_outputs *out = images->out;\n";
  if (usesArena)
    os << "  unsigned char *mem = images->mem + task * "
       << layout.getArenaSliceBytes() << ";\n";
  if (usesWeights)
    os << "  const unsigned char *blob = images->blob;\n";
  os << "  ptrdiff_t image;\n"
     << "  for (image = task; image < " << layout.images
     << "; image += " << tasks << ") {\n";
  // Images run side by side on the pool's threads: no single sequence of
  // kernels for a profiler to mark.
  emitKernelCalls(os, "    ", n + "_serial_for", "NULL", /*marks=*/false);
  os << "  }\n}\n\n";
}

void RunWriter::emitProfilerHook(raw_ostream &os) {
  std::string hook = m + "_KERNEL_DONE";
  os << "/* " << hook << "(index) follows each kernel of a run: nothing, "
     << "unless a profiler\n   defines it before compiling this file (as "
     << "tgc bench --profile does) to\n   read a clock there. index is the "
     << "kernel's place in the manifest's\n   \"kernels\" list. */\n"
     << "#ifndef " << hook << "\n#define " << hook << "(index) ((void)0)\n"
     << "#endif\n\n";
}

void RunWriter::emitKernelCalls(raw_ostream &os, StringRef indent,
                                StringRef forEach, StringRef context,
                                bool marks) {
  for (auto [index, call] : llvm::enumerate(layout.kernels)) {
    std::string mark =
        marks ? (indent + m + "_KERNEL_DONE(" + std::to_string(index) + ");\n")
                    .str()
              : std::string();
    SmallVector<std::string> args;
    KernelOp kernel = call.op;
    unsigned numInputs = kernel.getInputs().size();
    for (auto [i, arg] : llvm::enumerate(call.args)) {
      auto ptr = cast<PtrType>(kernel.getBlock().getArgument(i).getType());
      args.push_back(pointerTo(arg, ptr.getElementType(), i < numInputs));
    }
    std::optional<int64_t> tasks = getThreadTasks(kernel);
    if (!tasks) {
      os << indent << call.function << "(" << llvm::join(args, ", ") << ");\n"
         << mark;
      continue;
    }
    // A task function: its buffers go in a struct on this stack frame.
    os << indent << "{\n"
       << indent << "  " << call.function << "_args args;\n";
    for (auto [i, arg] : llvm::enumerate(args))
      os << indent << "  args.data" << i << " = " << arg << ";\n";
    os << indent << "  " << forEach << "(" << context << ", " << *tasks << ", "
       << call.function << ", &args);\n"
       << indent << "}\n"
       << mark;
  }
  for (const OutputCopy &copy : layout.copies) {
    const IoTensor &io = layout.outputs[copy.output];
    Type element = io.type.getElementType();
    std::string bytes =
        layout.images == 1
            ? m + "_" + StringRef(io.cName).upper() + "_BYTES"
            : std::to_string(io.getImageElements()) + " * sizeof(" +
                  *getCStorageType(element) + ")";
    os << indent << "memcpy(" << imageSlice("out->", io) << ", "
       << pointerTo(copy.from, element, /*isConst=*/true) << ", " << bytes
       << ");\n";
  }
}

LogicalResult mlir::tgc::emitCSource(const ModelLayout &layout,
                                     const CEmitterOptions &options,
                                     raw_ostream &os) {
  // Kernels first, into a buffer: they decide which helpers to define.
  CStyleLanguage language = CStyleLanguage::c();
  CHelperSet helpers;
  std::string kernels;
  llvm::raw_string_ostream kernelStream(kernels);
  for (const KernelCall &call : layout.kernels) {
    if (failed(renderKernel(call.op, call.function, language, helpers,
                            kernelStream)))
      return failure();
    kernelStream << "\n";
  }

  std::string fileName = options.header.empty()
                             ? options.name + " (self-contained)"
                             : options.name + ".c";
  os << "/* " << fileName << ": the kernels and schedule of the model"
     << (layout.source.empty() ? std::string()
                               : " " + sanitizeComment(layout.source))
     << ", generated by tgc. */\n";
  if (options.header.empty()) {
    os << "#include <stddef.h>\n#include <stdint.h>\n\n";
    emitCDeclarations(layout, options, os);
    os << "\n";
  } else {
    os << "#include \"" << options.header << "\"\n\n";
  }
  os << "#include <math.h>\n#include <stdbool.h>\n#include <string.h>\n\n";
  // The IR may compare an unsigned value with 0, which is valid and merely
  // always false; gcc's -Wextra would fail the -Werror build over it.
  os << "#if defined(__GNUC__) && !defined(__clang__)\n"
        "#pragma GCC diagnostic ignored \"-Wtype-limits\"\n"
        "#endif\n\n";
  // a * b + c in one expression becomes one fused multiply-add where the
  // CPU has it: clang contracts within an expression by default, GCC in
  // ISO C mode only when told (fp-contract=off is what -std=c99 implies).
  // And no floating-point operation traps (as clang assumes by default;
  // the kernels never read the exception flags): GCC then computes under
  // a gate without a branch, so it vectorizes a loop such as a pad of a
  // Relu's output (x + bias, max(x, 0) under the pad's gate: left scalar
  // with -ftrapping-math, "control flow in loop"; ResNet-18's max pool
  // input: 530 -> 200-260 us on Zen 3).
  os << "#if defined(__GNUC__) && !defined(__clang__)\n"
        "#pragma GCC optimize(\"fp-contract=fast\")\n"
        "#pragma GCC optimize(\"no-trapping-math\")\n"
        "#endif\n";
  // clang splits vectors wider than its preferred width (256 bits even on
  // AVX-512 CPUs) unless a function asks for wider ones.
  os << "#if defined(__clang__)\n"
        "#define TGC_MIN_VECTOR_WIDTH(bits) "
        "__attribute__((min_vector_width(bits)))\n"
        "#else\n"
        "#define TGC_MIN_VECTOR_WIDTH(bits)\n"
        "#endif\n";
  // A task function's body stays a function of its own: inlined into the
  // wrapper that unpacks the argument struct, GCC ran MobileNetV2's 1x1
  // convolution fused with the global pool at half speed.
  os << "#if defined(__GNUC__)\n"
        "#define TGC_NOINLINE __attribute__((noinline))\n"
        "#else\n"
        "#define TGC_NOINLINE\n"
        "#endif\n";
  // A loop tgc-keep-rolled marks stays a loop: written out, its steps
  // share loads the C compiler then keeps live past the register file.
  // Compilers without the pragma (GCC before 8) write it out as before.
  os << "#if (defined(__GNUC__) && __GNUC__ >= 8) || defined(__clang__)\n"
        "#define TGC_ROLLED _Pragma(\"GCC unroll 1\")\n"
        "#else\n"
        "#define TGC_ROLLED\n"
        "#endif\n";
  // A prefetch is only a hint: compilers without the builtin skip it.
  os << "#if defined(__GNUC__)\n"
        "#define TGC_PREFETCH(p) __builtin_prefetch(p)\n"
        "#else\n"
        "#define TGC_PREFETCH(p) ((void)(p))\n"
        "#endif\n\n";
  helpers.print(os);

  bool usesWeights = usesBufferKind(layout, BufferRef::Kind::Weight);
  if (usesWeights && options.weights == WeightsMode::InSource) {
    emitWeightsArray(layout, options.name, /*isStatic=*/true, os);
    os << "\n";
  } else if (usesWeights && options.weights == WeightsMode::SeparateSource) {
    os << "/* Defined in " << options.name << "_weights.c. */\n"
       << "extern const unsigned char " << options.name << "_weights[];\n\n";
  }

  os << kernels;
  RunWriter(layout, options).emit(os);
  return success();
}

void mlir::tgc::emitCWeightsSource(const ModelLayout &layout,
                                   const CEmitterOptions &options,
                                   raw_ostream &os) {
  os << "/* " << options.name << "_weights.c: the weights of the model, "
     << layout.weights.data.size() << " bytes in "
     << layout.weights.tensors.size()
     << " tensors, generated by tgc.\n   One string literal of bytes: it "
        "compiles in a fraction of the time a list\n   of numbers takes. "
        "*/\n";
  for (const WeightTensor &tensor : layout.weights.tensors)
    os << "/* offset " << tensor.offset << ": \""
       << sanitizeComment(tensor.name) << "\" "
       << getDtypeName(tensor.type.getElementType()) << " ["
       << llvm::join(
              llvm::map_range(tensor.type.getShape(),
                              [](int64_t d) { return std::to_string(d); }),
              ", ")
       << "] */\n";
  os << "\n";
  emitWeightsArray(layout, options.name, /*isStatic=*/false, os);
}

LogicalResult mlir::tgc::emitC(ModuleOp module, raw_ostream &os,
                               const CEmitterOptions &options) {
  FailureOr<ModelLayout> layout = analyzeModel(module, options.name);
  if (failed(layout))
    return failure();
  return emitCSource(*layout, options, os);
}
