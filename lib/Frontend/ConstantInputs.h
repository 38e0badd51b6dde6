//===- ConstantInputs.h - graph inputs needed at compile time --*- C++ -*-===//
//
// Some ONNX operands decide shapes (a Reshape's shape, a Slice's starts, a
// Resize's scales, ...) and tgc needs their values at compile time. Models
// usually hold them as initializers, but a graph input may feed them too
// (the ONNX backend tests do this). When the value is known (`tgc run`,
// `tgc verify`, or `tgc compile --bind-input`), such an input is compiled in
// as a constant and stops being an input of the compiled model.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_CONSTANTINPUTS_H
#define TGC_FRONTEND_CONSTANTINPUTS_H

#include "Support/TensorFile.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace mlir::tgc {

/// Whether ONNX input `slot` of a node of `opType` (default domain) must be a
/// compile-time constant for tgc to decompose the node.
bool isConstantOperand(llvm::StringRef opType, unsigned slot);

/// The names `node` reads in slots that must be constant.
std::vector<std::string> constantOperandsOf(const onnx::NodeProto &node);

/// The graph inputs (not initializers) of `graph` whose values reach one of
/// `values`, directly or through other nodes (not through Shape or Size,
/// which read only the static shape; into an If or Loop through what its
/// subgraphs read from outside), in graph input order.
std::vector<std::string> graphInputsFeeding(const onnx::GraphProto &graph,
                                            llvm::ArrayRef<std::string> values);

/// The graph inputs that reach a constant operand of some node, also of a
/// node inside a subgraph (a Reshape in a Loop body whose target shape is
/// read from the enclosing graph).
std::vector<std::string> findConstantInputs(const onnx::GraphProto &graph);

/// Turns each input of `graph` named in `values` into an initializer with
/// that value (it stays listed as a graph input, which ONNX reads as an
/// initializer with a default: a weight). Checks each tensor against the
/// input's declared element type and static dims; errors are emitted at
/// `loc` and name the input.
LogicalResult
bindConstantInputs(onnx::GraphProto &graph,
                   const std::map<std::string, ::tgc::HostTensor> &values,
                   Location loc);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_CONSTANTINPUTS_H
