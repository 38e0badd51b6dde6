//===- CEmitterMatrix.h - tensor-core ops in CUDA and Metal ----*- C++ -*-===//
//
// The statements for tgc.define_acc, tgc.wmma and tgc.store_acc on each
// target's matrix units (CStyleLanguage::matrixUnit), for the kernel
// renderer's table (CEmitterKernel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TGC_CODEGEN_CEMITTERMATRIX_H
#define TGC_CODEGEN_CEMITTERMATRIX_H

#include "Codegen/CEmitterLanguage.h"
#include "IR/TgcOps.h"

namespace mlir::tgc {

/// Lines of C declaring the zeroed accumulator `name` of `op`; fails with
/// a diagnostic where the target has no matrix units or not this tile.
FailureOr<SmallVector<std::string>>
renderDefineAcc(DefineAccOp op, const CStyleLanguage &language,
                StringRef name);

/// Lines of C for `acc += a * b` (`acc`, `a`, `b` the C names of the
/// operands).
SmallVector<std::string> renderWmma(WmmaOp op, const CStyleLanguage &language,
                                    StringRef acc, StringRef a, StringRef b);

/// Lines of C storing the accumulator `acc` to `dst`, row-major.
SmallVector<std::string> renderStoreAcc(StoreAccOp op,
                                        const CStyleLanguage &language,
                                        StringRef dst, StringRef acc);

} // namespace mlir::tgc

#endif // TGC_CODEGEN_CEMITTERMATRIX_H
