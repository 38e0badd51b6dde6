//===- OnnxContainerInputs.h - sequence and optional graph inputs -*- C++ -*-===//
//
// A graph input that is a sequence or an optional becomes the tensor inputs
// it holds (named as in Support/ValueFile.h) and the nodes that rebuild it
// from them (SequenceConstruct, SequenceEmpty, Optional). Import lowers those
// with the rest of the sequence ops (OnnxControlFlow.cpp), which also turns
// sequence and optional graph outputs into the tensors they hold.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_FRONTEND_ONNXCONTAINERINPUTS_H
#define TGC_FRONTEND_ONNXCONTAINERINPUTS_H

#include <cstdint>
#include <map>
#include <onnx/onnx_pb.h>
#include <string>

namespace mlir::tgc {

/// Replaces the sequence and optional inputs of `graph` by the tensors they
/// hold; `counts` says how many elements each container has (by the
/// container's name: "x" -> 3, "x[0]" -> 2, an empty optional -> 0).
/// Returns an error message (naming the input) or "".
std::string flattenContainerInputs(onnx::GraphProto &graph,
                                   const std::map<std::string, int64_t> &counts);

} // namespace mlir::tgc

#endif // TGC_FRONTEND_ONNXCONTAINERINPUTS_H
