//===- OnnxShapeFold.h - fold shape arithmetic in an ONNX graph -*- C++ -*-===//
//
// Exporters compute reshape targets and slice bounds at run time
// (Shape -> Gather -> Div -> Slice). ONNX shape inference cannot see through
// such chains, so tgc evaluates them once every input shape is static: each
// node whose integer result can be computed from constants becomes a
// Constant node, and shape inference runs again.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXSHAPEFOLD_H
#define TGC_FRONTEND_ONNXSHAPEFOLD_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <onnx/onnx_pb.h>

namespace mlir::tgc {

/// Replaces every top-level node of `graph` whose outputs are small integer
/// or bool tensors (or float ones holding whole numbers) computable from
/// constants (initializers, Constant nodes, Shape of statically shaped
/// values) by a Constant node of the same name. Float values with a
/// fraction take part in the computation but are not written back. Uses
/// the shapes in the graph's inputs, value_info and outputs. Returns the
/// number of nodes replaced.
int foldShapeArithmetic(onnx::GraphProto &graph);

/// The values of `name` as integers, if an initializer or a Constant node of
/// `graph` defines it as a small INT32, INT64 or BOOL tensor (or a float one
/// holding whole numbers).
std::optional<llvm::SmallVector<int64_t>>
constantValues(const onnx::GraphProto &graph, llvm::StringRef name);

/// Removes Constant nodes whose outputs nothing reads (left behind by
/// folding), looking into subgraphs for uses.
void removeDeadConstants(onnx::GraphProto &graph);

/// Adds to `used` every name that a node of `graph` (or of its subgraphs)
/// reads, and the graph's outputs.
void collectUsedNames(const onnx::GraphProto &graph, llvm::StringSet<> &used);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_ONNXSHAPEFOLD_H
