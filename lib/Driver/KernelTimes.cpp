//===- KernelTimes.cpp - each kernel's time with its costs ------*- C++ -*-===//
//
// See KernelTimes.h.
//
//===----------------------------------------------------------------------===//

#include "Driver/KernelTimes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace mlir::tgc {
namespace {

/// "XxYxZ" of a manifest's [x, y, z], or "?" when it has none.
std::string formatDims(const json::Array *dims) {
  if (!dims)
    return "?";
  SmallVector<std::string> parts;
  for (const json::Value &dim : *dims)
    parts.push_back(std::to_string(dim.getAsInteger().value_or(0)));
  return join(parts, "x");
}

/// The manifest's "opts" of a kernel, space-separated.
std::string formatOpts(const json::Array *opts) {
  if (!opts)
    return "";
  SmallVector<std::string> words;
  for (const json::Value &opt : *opts)
    if (std::optional<StringRef> word = opt.getAsString())
      words.push_back(word->str());
  return join(words, " ");
}

/// The "kernels" list of a parsed manifest, or null.
const json::Array *manifestKernels(const json::Value &manifest) {
  const json::Object *root = manifest.getAsObject();
  return root ? root->getArray("kernels") : nullptr;
}

} // namespace

std::vector<std::vector<double>> parseKernelRows(StringRef text) {
  std::vector<std::vector<double>> rows;
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [word, rest] = line.trim().split(' ');
    if (word != "kernels")
      continue;
    SmallVector<StringRef> fields;
    rest.split(fields, ' ', -1, /*KeepEmpty=*/false);
    std::vector<double> row;
    for (StringRef field : fields) {
      double ms;
      if (!field.getAsDouble(ms))
        row.push_back(ms);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

unsigned countManifestKernels(StringRef manifestText) {
  Expected<json::Value> parsed = json::parse(manifestText);
  if (!parsed) {
    consumeError(parsed.takeError());
    return 0;
  }
  const json::Array *kernels = manifestKernels(*parsed);
  return kernels ? kernels->size() : 0;
}

std::vector<std::string> manifestKernelChoices(StringRef manifestText) {
  std::vector<std::string> choices;
  Expected<json::Value> parsed = json::parse(manifestText);
  if (!parsed) {
    consumeError(parsed.takeError());
    return choices;
  }
  if (const json::Array *kernels = manifestKernels(*parsed))
    for (const json::Value &value : *kernels)
      if (const json::Object *kernel = value.getAsObject()) {
        std::string choice = kernel->getString("name").value_or("").str();
        if (std::string opts = formatOpts(kernel->getArray("opts"));
            !opts.empty())
          choice += " " + opts;
        choices.push_back(std::move(choice));
      }
  return choices;
}

FailureOr<std::vector<KernelRate>>
computeKernelRates(Location loc, StringRef manifestText,
                   ArrayRef<std::vector<double>> kernelTimes) {
  Expected<json::Value> parsed = json::parse(manifestText);
  if (!parsed) {
    consumeError(parsed.takeError());
    return emitError(loc) << "the package's manifest is not JSON";
  }
  const json::Array *kernels = manifestKernels(*parsed);
  if (!kernels)
    return emitError(loc) << "the package's manifest lists no kernels";
  // A batch computed one image at a time calls every kernel once per image,
  // and the timing program adds up the calls.
  int64_t calls = parsed->getAsObject()->getInteger("images").value_or(1);
  std::vector<KernelRate> rates;
  for (const json::Value &value : *kernels) {
    const json::Object *kernel = value.getAsObject();
    std::optional<StringRef> function =
        kernel ? kernel->getString("function") : std::nullopt;
    if (!function)
      return emitError(loc) << "a kernel of the manifest has no function";
    KernelRate rate;
    rate.function = function->str();
    rate.calls = calls;
    rate.flops = calls * kernel->getInteger("flops").value_or(0);
    rate.bytes = calls * kernel->getInteger("bytes").value_or(0);
    rate.grid = formatDims(kernel->getArray("grid"));
    rate.block = formatDims(kernel->getArray("block"));
    rate.opts = formatOpts(kernel->getArray("opts"));
    rates.push_back(std::move(rate));
  }
  if (kernelTimes.empty())
    return emitError(loc) << "the timing program reported no kernel times";
  for (auto [run, row] : enumerate(kernelTimes))
    if (row.size() != rates.size())
      return emitError(loc)
             << "timed run " << run << " reported " << row.size()
             << " kernel times for " << rates.size() << " kernels";
  for (auto [k, rate] : enumerate(rates)) {
    SmallVector<double> times;
    for (const std::vector<double> &row : kernelTimes)
      times.push_back(row[k]);
    rate.time = summarizeLatencies(times);
    double seconds = rate.time.medianMs * 1e-3;
    if (seconds > 0) {
      rate.gbPerS = rate.bytes / seconds * 1e-9;
      rate.gflopPerS = rate.flops / seconds * 1e-9;
    }
  }
  return rates;
}

double sumKernelMedians(ArrayRef<KernelRate> rates) {
  double sum = 0;
  for (const KernelRate &rate : rates)
    sum += rate.time.medianMs;
  return sum;
}

json::Array kernelRatesToJson(ArrayRef<KernelRate> rates, bool gpu) {
  json::Array kernels;
  for (const KernelRate &rate : rates) {
    json::Object kernel{
        {"function", rate.function}, {"calls", rate.calls},
        {"min_ms", rate.time.minMs}, {"median_ms", rate.time.medianMs},
        {"bytes", rate.bytes},       {"flops", rate.flops},
        {"gb_per_s", rate.gbPerS},   {"gflop_per_s", rate.gflopPerS}};
    if (gpu) {
      kernel["grid"] = rate.grid;
      kernel["block"] = rate.block;
    } else {
      kernel["opts"] = rate.opts;
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

void printKernelTable(raw_ostream &out, ArrayRef<KernelRate> rates,
                      StringRef timedBy, bool gpu) {
  double sum = sumKernelMedians(rates);
  size_t width = StringRef("all kernels").size();
  for (const KernelRate &rate : rates)
    width = std::max(width, rate.function.size());
  int64_t calls = rates.empty() ? 1 : rates.front().calls;
  out << "per kernel (median of "
      << (rates.empty() ? 0 : rates.front().time.iterations) << " runs of "
      << timedBy << "; GB/s and GFLOP/s from the manifest's bytes and FLOPs";
  if (calls > 1)
    out << "; each kernel called once per image, " << calls
        << " times a run, its time and costs summed";
  out << "):\n";
  auto where = [&](StringRef grid, StringRef block) {
    return gpu ? formatv("{0,-12} {1,-12} ", grid, block).str() : std::string();
  };
  out << formatv("  {0}  {1}{2,10} {3,6} {4,10} {5,10}{6}\n",
                 left_justify("kernel", width), where("grid", "block"), "ms",
                 "share", "GB/s", "GFLOP/s", gpu ? "" : "  opts");
  for (const KernelRate &rate : rates)
    out << formatv("  {0}  {1}{2,10:f4} {3,5:f1}% {4,10:f2} {5,10:f2}{6}\n",
                   left_justify(rate.function, width),
                   where(rate.grid, rate.block), rate.time.medianMs,
                   sum > 0 ? 100 * rate.time.medianMs / sum : 0.0, rate.gbPerS,
                   rate.gflopPerS,
                   gpu || rate.opts.empty() ? "" : "  " + rate.opts);
  out << formatv("  {0}  {1}{2,10:f4}\n", left_justify("all kernels", width),
                 where("", ""), sum);
}

} // namespace mlir::tgc
