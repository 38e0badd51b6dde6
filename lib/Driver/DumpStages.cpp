//===- DumpStages.cpp - which stages --dump-ir names -----------*- C++ -*-===//

#include "Driver/DumpStages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace mlir::tgc {

Expected<SmallVector<StringRef>>
parseDumpStages(StringRef spec, ArrayRef<StringRef> validStages) {
  auto invalid = [&](const Twine &what) {
    return createStringError(
        inconvertibleErrorCode(),
        what + "; valid stages: " + join(validStages, ", ") + ", or all");
  };
  SmallVector<bool> selected(validStages.size(), false);
  if (!spec.trim().empty()) {
    SmallVector<StringRef> names;
    spec.split(names, ',');
    for (StringRef name : names) {
      name = name.trim();
      if (name.empty())
        return invalid("--dump-ir: empty stage name in '" + spec + "'");
      if (name == "all") {
        selected.assign(validStages.size(), true);
        continue;
      }
      const auto *it = find(validStages, name);
      if (it == validStages.end())
        return invalid("--dump-ir: unknown stage '" + name + "'");
      selected[it - validStages.begin()] = true;
    }
  }
  SmallVector<StringRef> result;
  for (auto [stage, isSelected] : zip_equal(validStages, selected))
    if (isSelected)
      result.push_back(stage);
  return result;
}

std::string dumpFileName(StringRef stage, ArrayRef<StringRef> validStages) {
  size_t position = find(validStages, stage) - validStages.begin();
  return formatv("ir/{0:d2}-{1}.mlir", position + 1, stage).str();
}

} // namespace mlir::tgc
