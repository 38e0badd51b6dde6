//===- KernelChoices.h - what shapes a package's kernels ---*- C++ -*-===//
//
// Beside the model and the target, four choices decide which kernels a
// package gets. Every command that compiles a model (compile, run, verify,
// bench) takes them alike, so that what it runs or checks is the package
// `tgc compile` would ship with the same options.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_KERNELCHOICES_H
#define TGC_DRIVER_KERNELCHOICES_H

#include <string>

namespace mlir::tgc {

struct KernelChoices {
  /// --tuning-db FILE: kernels with an entry get the actions `tgc tune`
  /// found for them (C target).
  std::string tuningDb;
  /// --image-loop: auto, always or never (tgc-image-loop; C target).
  std::string imageLoop = "auto";
  /// --winograd: auto, always, never, 2x2 or 4x4 (tgc-decompose: 3x3
  /// convolutions through Winograd F(m x m, 3x3)).
  std::string winograd = "auto";
  /// --conv-layout: auto, nchw or nhwc (tgc-decompose: the order
  /// convolutions compute and store in).
  std::string convLayout = "auto";
};

} // namespace mlir::tgc

#endif // TGC_DRIVER_KERNELCHOICES_H
