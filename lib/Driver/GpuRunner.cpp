//===- GpuRunner.cpp - build a CUDA or Metal package to run it -*- C++ -*-===//
//
// Emulated builds compile the package's own files unchanged, as C++, next
// to the emulation (lib/Runtime/gpu_emu, compiled into tgc): the kernels
// with the emulated kernel language, the host glue against the emulated
// CUDA runtime or metal-cpp. The emulation's own objects are built once per
// compiler and kept in the temporary folder, so a conformance run of a
// thousand packages compiles them once.
//
//===----------------------------------------------------------------------===//

#include "Driver/GpuRunner.h"

#include "Driver/Subprocess.h"
#include "Runtime/gpu_emu/GpuEmuFiles.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace mlir::tgc {
namespace {

/// The words of $`variable` (a command that may carry flags), or
/// `fallback`.
std::vector<std::string> commandFrom(const char *variable, StringRef fallback) {
  const char *value = std::getenv(variable);
  StringRef command = value && *value ? StringRef(value) : fallback;
  SmallVector<StringRef> words;
  command.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return std::vector<std::string>(words.begin(), words.end());
}

/// Runs a compiler; an error with its output at `loc` if it fails.
LogicalResult compile(Location loc, ArrayRef<std::string> args, StringRef log,
                      bool verbose) {
  if (verbose)
    errs() << "tgc: " << join(args, " ") << "\n";
  std::string error;
  int status = runProgram(args, log, log, error);
  if (status == -1)
    return emitError(loc) << "cannot run '" << args.front() << "': " << error;
  if (status != 0)
    return emitError(loc) << "'" << args.front()
                          << "' failed on the generated code (exit status "
                          << status << "):\n"
                          << readFileTail(log);
  return success();
}

std::optional<std::string> findNvcc() {
  if (ErrorOr<std::string> onPath = sys::findProgramByName("nvcc"))
    return *onPath;
  if (sys::fs::can_execute("/usr/local/cuda/bin/nvcc"))
    return std::string("/usr/local/cuda/bin/nvcc");
  return std::nullopt;
}

/// True if `nvidia-smi -L` lists a GPU.
bool hasNvidiaGpu() {
  ErrorOr<std::string> smi = sys::findProgramByName("nvidia-smi");
  if (!smi)
    return false;
  SmallString<128> log;
  if (sys::fs::createTemporaryFile("tgc-nvidia-smi", "txt", log))
    return false;
  std::string error;
  int status = runProgram({*smi, "-L"}, log, log, error);
  std::string listed = readFileTail(log);
  sys::fs::remove(log);
  return status == 0 && StringRef(listed).contains("GPU ");
}

/// Flags of every emulated compile: the emulation needs C++17; Metal's
/// attributes ([[buffer(0)]]) mean nothing to a C++ compiler.
const char *const kEmulationFlags[] = {"-std=c++17", "-O1", "-pthread",
                                       "-Wno-attributes"};

/// The header each emulated translation unit of `target` starts with, and
/// that getEmulation precompiles: the emulated CUDA runtime, or metal-cpp
/// with the kernel registry. It is most of what a package's build parses.
StringRef preludeHeader(StringRef target) {
  return target == "cuda" ? "cuda_runtime.h" : "tgc_metal_registry.h";
}

/// True if `cxx` is GCC, whose precompiled headers `-include` finds next
/// to the header (X.gch); other compilers go without.
bool isGcc(ArrayRef<std::string> cxx, StringRef dir) {
  std::string log = joinPath(dir, "version.txt"), error;
  std::vector<std::string> args(cxx.begin(), cxx.end());
  args.push_back("--version");
  if (runProgram(args, log, log, error) != 0)
    return false;
  std::string version = readFileTail(log);
  sys::fs::remove(log);
  return StringRef(version).contains("Free Software Foundation") &&
         !StringRef(version).contains("clang");
}

/// The emulation's headers and objects for the compiler `cxx`, built once
/// into the temporary folder, with the prelude headers precompiled where
/// the compiler is GCC; returns the folder.
FailureOr<std::string> getEmulation(Location loc, ArrayRef<std::string> cxx,
                                    bool verbose) {
  // FNV-1a of the compiler and the files: the same in every process.
  uint64_t hash = 14695981039346656037ull;
  auto mix = [&](StringRef text) {
    for (char c : text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
    hash ^= 0xff; // a separator no text ends with
    hash *= 1099511628211ull;
  };
  mix("with precompiled preludes");
  for (const std::string &word : cxx)
    mix(word);
  for (const GpuEmuFile &file : getGpuEmuFiles()) {
    mix(file.path);
    mix(file.contents);
  }
  SmallString<256> temp;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, temp);
  std::string dir = joinPath(
      temp, formatv("tgc-gpu-emu-{0:x-}", hash).str());
  if (sys::fs::exists(joinPath(dir, "ready")))
    return dir;

  // Built aside and renamed into place, so that tgc processes running at
  // once never see a half-built folder.
  SmallString<256> building;
  if (std::error_code ec =
          sys::fs::createUniqueDirectory(dir + "-build", building))
    return emitError(loc) << dir << ": " << ec.message();
  for (const GpuEmuFile &file : getGpuEmuFiles()) {
    std::string path = joinPath(building, file.path);
    sys::fs::create_directories(sys::path::parent_path(path));
    if (failed(writeFile(*loc.getContext(), path, file.contents)))
      return failure();
  }
  for (StringRef source : {"tgc_gpu_emu", "cuda_emu", "metal_emu"}) {
    std::vector<std::string> args(cxx.begin(), cxx.end());
    args.insert(args.end(), std::begin(kEmulationFlags),
                std::end(kEmulationFlags));
    args.insert(args.end(),
                {"-I" + std::string(building), "-c",
                 joinPath(building, source + Twine(".cpp")), "-o",
                 joinPath(building, source + Twine(".o"))});
    if (failed(compile(loc, args, joinPath(building, "build.log"), verbose)))
      return failure();
  }
  // A precompiled header saves each package build most of its parsing; a
  // build without it is only slower, so a failure here is no error.
  if (isGcc(cxx, building)) {
    for (StringRef target : {"cuda", "metal"}) {
      std::string header = joinPath(building, preludeHeader(target));
      std::vector<std::string> args(cxx.begin(), cxx.end());
      args.insert(args.end(), std::begin(kEmulationFlags),
                  std::end(kEmulationFlags));
      args.insert(args.end(), {"-I" + std::string(building), "-x",
                               "c++-header", header, "-o", header + ".gch"});
      if (verbose)
        errs() << "tgc: " << join(args, " ") << "\n";
      std::string error;
      std::string log = joinPath(building, "pch.log");
      if (runProgram(args, log, log, error) != 0)
        sys::fs::remove(header + ".gch");
    }
  }
  if (failed(writeFile(*loc.getContext(), joinPath(building, "ready"), "")))
    return failure();
  if (sys::fs::rename(building, dir) && !sys::fs::exists(joinPath(dir, "ready")))
    return emitError(loc) << dir << ": cannot create the emulation folder";
  sys::fs::remove_directories(building); // another process was first
  return dir;
}

/// The kernel functions of the package, from its manifest.
FailureOr<std::vector<std::string>> readKernelNames(Location loc,
                                                    StringRef manifest) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> text =
      MemoryBuffer::getFile(manifest);
  if (!text)
    return emitError(loc) << manifest << ": cannot read";
  Expected<json::Value> parsed = json::parse((*text)->getBuffer());
  if (!parsed) {
    consumeError(parsed.takeError());
    return emitError(loc) << manifest << ": not JSON";
  }
  std::vector<std::string> names;
  const json::Object *root = parsed->getAsObject();
  const json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels)
    return emitError(loc) << manifest << ": no kernel list";
  for (const json::Value &kernel : *kernels) {
    const json::Object *object = kernel.getAsObject();
    std::optional<StringRef> function =
        object ? object->getString("function") : std::nullopt;
    if (!function)
      return emitError(loc) << manifest << ": a kernel without a function";
    names.push_back(function->str());
  }
  return names;
}

} // namespace

GpuRunMode getGpuRunMode(StringRef target) {
  if (target == "cuda" && findNvcc() && hasNvidiaGpu())
    return GpuRunMode::Device;
  return GpuRunMode::Emulation;
}

LogicalResult buildGpuHarness(Location loc, StringRef packageDir,
                              StringRef workDir, StringRef name,
                              StringRef target, GpuRunMode mode,
                              const ModelSignature &signature, bool verbose,
                              std::string &executable) {
  return buildGpuProgram(loc, packageDir, workDir, name, target, mode,
                         generateGpuHarness(signature, name, target), verbose,
                         executable);
}

LogicalResult buildGpuProgram(Location loc, StringRef packageDir,
                              StringRef workDir, StringRef name,
                              StringRef target, GpuRunMode mode,
                              StringRef harnessSource, bool verbose,
                              std::string &executable,
                              std::string *compileLine) {
  bool cuda = target == "cuda";
  std::string harness = joinPath(workDir, cuda ? "harness.cu" : "harness.cpp");
  if (failed(writeFile(*loc.getContext(), harness, harnessSource)))
    return failure();
  std::string host = joinPath(packageDir, name + (cuda ? ".cu" : "_metal.cpp"));
  std::string weights = joinPath(packageDir, name + "_weights.c");
  executable = joinPath(workDir, "harness");
  std::string log = joinPath(workDir, "build.log");

  if (mode == GpuRunMode::Device) {
    std::optional<std::string> nvcc = findNvcc();
    if (!cuda || !nvcc)
      return emitError(loc) << "no compiler for the " << target << " GPU";
    std::vector<std::string> args = {*nvcc,         "-O3", "-std=c++17",
                                     "-arch=native", "-I" + packageDir.str(),
                                     harness,        host,  weights,
                                     "-o",           executable};
    if (compileLine)
      *compileLine = join(args, " ");
    return compile(loc, args, log, verbose);
  }

  std::vector<std::string> cxx = commandFrom("CXX", "c++");
  FailureOr<std::string> emulation = getEmulation(loc, cxx, verbose);
  if (failed(emulation))
    return failure();
  // The weights are plain C, as the package's CMakeLists builds them.
  std::string weightsObject = joinPath(workDir, "weights.o");
  std::vector<std::string> cc = commandFrom("CC", "cc");
  cc.insert(cc.end(), {"-std=c99", "-c", weights, "-o", weightsObject});
  if (failed(compile(loc, cc, log, verbose)))
    return failure();

  std::vector<std::string> args = cxx;
  args.insert(args.end(), std::begin(kEmulationFlags),
              std::end(kEmulationFlags));
  args.insert(args.end(), {"-I" + *emulation, "-I" + packageDir.str()});
  std::string prelude = preludeHeader(target).str();
  if (sys::fs::exists(joinPath(*emulation, prelude + ".gch")))
    args.insert(args.end(), {"-include", prelude});
  if (cuda) {
    args.insert(args.end(), {"-x", "c++", harness, host, "-x", "none",
                             joinPath(*emulation, "cuda_emu.o")});
  } else {
    FailureOr<std::vector<std::string>> kernels =
        readKernelNames(loc, joinPath(packageDir, name + ".json"));
    if (failed(kernels))
      return failure();
    std::string registration = "/* The kernels of " + name.str() +
                               ".metal, compiled as C++ and registered. */\n"
                               "#include \"tgc_metal_kernels.h\"\n#include \"" +
                               name.str() + ".metal\"\n";
    for (const std::string &kernel : *kernels)
      registration += "TGC_METAL_KERNEL(" + kernel + ")\n";
    std::string kernelsFile = joinPath(workDir, "kernels.cpp");
    if (failed(writeFile(*loc.getContext(), kernelsFile, registration)))
      return failure();
    args.insert(args.end(), {harness, host, kernelsFile,
                             joinPath(*emulation, "metal_emu.o")});
  }
  args.insert(args.end(), {joinPath(*emulation, "tgc_gpu_emu.o"),
                           weightsObject, "-o", executable});
  if (compileLine)
    *compileLine = join(args, " ");
  return compile(loc, args, log, verbose);
}

} // namespace mlir::tgc
