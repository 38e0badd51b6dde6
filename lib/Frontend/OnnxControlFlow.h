//===- OnnxControlFlow.h - static control flow and sequences --*- C++ -*-===//
//
// tgc compiles a static dataflow graph. ONNX control flow and sequences
// often are static once shapes and shape arithmetic are known: an If whose
// condition is a constant, a Loop with a constant trip count that never
// exits early, a Scan over a static length, sequence ops at constant
// positions. These are rewritten here, on the protobuf graph before import,
// into plain nodes (the taken branch inlined, loop bodies unrolled,
// sequences tracked as lists of tensors). An If on a run-time condition
// whose branches agree on their outputs' types and shapes becomes both
// branches and a Where per output. Whatever stays dynamic is left for the
// importer to report.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXCONTROLFLOW_H
#define TGC_FRONTEND_ONNXCONTROLFLOW_H

#include <cstdint>
#include <string>
#include <onnx/onnx_pb.h>

namespace mlir::tgc {

/// Rewrites the static If, Loop and Scan nodes of `graph` (opset `opset` of
/// the default domain) and, when every sequence op of the graph can be, its
/// sequence ops. Uses the constants (initializers, Constant nodes) and the
/// static shapes in the graph's inputs, value_info and outputs. Returns the
/// number of nodes rewritten; shape inference must run again after any.
///
/// With `selectDynamicIf`, an If whose condition is not a constant is
/// rewritten too when its branches agree (branchMismatch is empty): both
/// are inlined and Where picks each output, so both always run. Callers
/// ask for this only once folding has nothing left to do, so that a
/// condition that folds to a constant still takes the cheap path.
int lowerControlFlow(onnx::GraphProto &graph, int64_t opset,
                     bool selectDynamicIf = false);

/// Why the If `node` cannot become a select between its branches: an
/// output whose element type or static shape differs between them (as
/// shape inference left them), or lacks a static shape; empty when they
/// agree. With `symbolicDims` (before input shapes are bound), a dim not
/// known yet matches any dim of the other branch.
std::string branchMismatch(const onnx::NodeProto &node,
                           bool symbolicDims = false);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_ONNXCONTROLFLOW_H
