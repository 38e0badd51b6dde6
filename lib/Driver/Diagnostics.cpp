//===- Diagnostics.cpp - tgc's one-line error messages ---------*- C++ -*-===//

#include "Driver/Diagnostics.h"

#include "IR/TgcOps.h"
#include "mlir/IR/Location.h"

using namespace llvm;

namespace mlir::tgc {
namespace {

/// What a location says about where a problem is.
struct Where {
  std::string file;
  unsigned line = 0, column = 0;
  std::string node;
};

void decompose(Location loc, Where &where) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    if (where.node.empty())
      where.node = name.getName().str();
    decompose(name.getChildLoc(), where);
    return;
  }
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    if (where.file.empty()) {
      where.file = file.getFilename().str();
      where.line = file.getLine();
      where.column = file.getColumn();
    }
    return;
  }
  if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    decompose(call.getCallee(), where);
    return;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      decompose(part, where);
    return;
  }
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    decompose(opaque.getFallbackLocation(), where);
}

StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

} // namespace

DiagnosticPrinter::DiagnosticPrinter(MLIRContext &context, raw_ostream &os,
                                     StringRef fallbackFile)
    : context(context), os(os), fallbackFile(fallbackFile.str()) {
  // "see current operation: <the whole op>" notes would bury the message.
  context.printOpOnDiagnostic(false);
  handlerId = context.getDiagEngine().registerHandler([this](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    this->os << format(d) << "\n";
    for (const Diagnostic &note : d.getNotes())
      this->os << format(note) << "\n";
    this->os.flush();
    return success();
  });
}

DiagnosticPrinter::~DiagnosticPrinter() {
  context.getDiagEngine().eraseHandler(handlerId);
}

void DiagnosticPrinter::recordNodeTypes(ModuleOp module) {
  module.walk([&](OnnxNodeOp node) {
    Where where;
    decompose(node.getLoc(), where);
    if (!where.node.empty())
      nodeTypes[where.node] = node.getOpType().str();
  });
}

std::string DiagnosticPrinter::describeLocation(Location loc,
                                                StringRef message) const {
  Where where;
  decompose(loc, where);
  std::string text;
  raw_string_ostream out(text);
  out << (where.file.empty() ? fallbackFile : where.file);
  if (!where.file.empty() && where.line != 0)
    out << ":" << where.line << ":" << where.column;
  out << ": ";
  // Some messages name their node themselves; say it once.
  bool namesNode = message.starts_with("node '" + where.node + "'");
  if (!where.node.empty() && !namesNode) {
    out << "node '" << where.node << "'";
    auto type = nodeTypes.find(where.node);
    if (type != nodeTypes.end())
      out << " (" << type->second << ")";
    out << ": ";
  }
  return text;
}

std::string DiagnosticPrinter::format(const Diagnostic &diag) const {
  std::string message = diag.str();
  return ("tgc: " + severityName(diag.getSeverity()) + ": " +
          describeLocation(diag.getLocation(), message) + message)
      .str();
}

} // namespace mlir::tgc
