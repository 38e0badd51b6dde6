//===- Images.h - a model compiled for one image of its batch --*- C++ -*-===//
//
// `tgc-image-loop` may rewrite a batched graph to compute one image and set
// the module attribute `tgc.images` to the batch size: the run function
// then loops over the images. The graph's signature is per image; the C
// API, the manifest and the tools that feed a package keep the batch.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_IR_IMAGES_H
#define TGC_IR_IMAGES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include <algorithm>

namespace mlir::tgc {

/// The module attribute that holds the number of images the run function
/// loops over.
inline constexpr llvm::StringLiteral kImagesAttr = "tgc.images";

/// The module attribute that holds how many of those images a run may
/// compute at once, each on a thread of its own with a slice of the arena
/// to itself (absent: 1, one image after another).
inline constexpr llvm::StringLiteral kParallelImagesAttr =
    "tgc.parallel_images";

/// How many images a run computes one after another: 1 unless the graph
/// was rewritten by tgc-image-loop.
inline int64_t getModelImages(ModuleOp module) {
  auto attr = module->getAttrOfType<IntegerAttr>(kImagesAttr);
  return attr ? attr.getInt() : 1;
}

/// How many images a run computes at once (kParallelImagesAttr).
inline int64_t getModelParallelImages(ModuleOp module) {
  auto attr = module->getAttrOfType<IntegerAttr>(kParallelImagesAttr);
  return attr ? attr.getInt() : 1;
}

/// Lets a run compute up to `requested` images at once, the batch at most
/// (kParallelImagesAttr). A model not computed one image at a time has no
/// images to run side by side, and 1 leaves the module as it is.
inline void setModelParallelImages(ModuleOp module, int64_t requested) {
  auto images = module->getAttrOfType<IntegerAttr>(kImagesAttr);
  if (!images || requested < 2)
    return;
  module->setAttr(kParallelImagesAttr,
                  IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                                   std::min(requested, images.getInt())));
}

/// The tensor a model input or output is to its caller: the graph's
/// per-image type with the images along dim 0 (unchanged if that is
/// dynamic: such a graph is never rewritten).
inline RankedTensorType getBatchedType(RankedTensorType perImage,
                                       int64_t images) {
  if (images == 1 || perImage.getRank() == 0 || perImage.isDynamicDim(0))
    return perImage;
  SmallVector<int64_t> shape(perImage.getShape());
  shape[0] *= images;
  return perImage.clone(shape);
}

} // namespace mlir::tgc

#endif // TGC_IR_IMAGES_H
