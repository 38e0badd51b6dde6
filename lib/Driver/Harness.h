//===- Harness.h - a C main() around a package, for tgc run ----*- C++ -*-===//
//
// `tgc run` and `tgc verify` execute a compiled model through a small C
// program built next to the package: it reads each input as raw bytes,
// calls the entry point with a malloc'd arena and writes each output as raw
// bytes. The harness is test code; the package itself never allocates.
//
//===----------------------------------------------------------------------===//

#ifndef TGC_DRIVER_HARNESS_H
#define TGC_DRIVER_HARNESS_H

#include "Driver/Model.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tgc {

/// Bytes of a tensor of `spec`'s (static) shape and dtype.
int64_t tensorBytes(const TensorSpec &spec);

// Pieces of C text the harnesses (run, bench, tune, GPU) share.

/// `1, 2, 3` for the body of a C array initializer; `0` for none, as C has
/// no empty initializer lists.
std::string cNumberList(llvm::ArrayRef<int64_t> values);

/// `{array[0], array[1], ...}` for a struct of pointers, each element as
/// `wrap{array[i]}` when `wrap` is given; `{0}` for the placeholder member
/// of an empty struct.
std::string cStructInitializer(llvm::StringRef array, size_t count,
                               llvm::StringRef wrap = "");

/// C text that describes the package `name`'s inputs and outputs to a
/// harness: NUM_IN and NUM_OUT, a compile-time check that the package has
/// that many, and the arrays in_bytes and out_bytes of their byte sizes.
std::string cIoTable(llvm::StringRef name, llvm::ArrayRef<int64_t> inputBytes,
                     llvm::ArrayRef<int64_t> outputBytes);

/// cIoTable of `signature`'s tensors (tensorBytes).
std::string cIoTable(llvm::StringRef name, const ModelSignature &signature);

/// C text of `now_ms()`, CLOCK_MONOTONIC in milliseconds, for the timing
/// harnesses (bench, tune); it needs <time.h> and _POSIX_C_SOURCE.
std::string cNowMsFunction();

/// The times a timing harness (bench, tune) printed to `path`, in ms, one
/// per line; lines that hold no number are skipped. Empty when the file
/// cannot be read.
llvm::SmallVector<double> readHarnessTimes(llvm::StringRef path);

/// The same from the harness's output `text`; with a `label`, the times of
/// its lines "LABEL T" instead (the bench harness's "one T" and
/// "other T").
llvm::SmallVector<double> parseHarnessTimes(llvm::StringRef text,
                                            llvm::StringRef label = "");

/// C text of `read_raw(path, bytes)`, which returns a malloc'd copy of a
/// file that must hold exactly `bytes` bytes, and, with `withWrite`,
/// `write_raw(path, data, bytes)`. Both exit with 2 after a message that
/// starts with `program` (the harness's name in its messages). The text
/// needs <stdio.h> and <stdlib.h>.
std::string cRawFileFunctions(llvm::StringRef program, bool withWrite);

/// The C source of the harness for the package `name` (it includes
/// "<name>.h"), whose inputs and outputs are `signature`'s, every dimension
/// bound. The program's arguments are one raw input file per input, then
/// one output file per output, in signature order. It exits with 0 on
/// success, 2 on bad arguments or files, 3 if the entry point fails. With
/// `threads` above 1 it runs the model on the package's pool (tgc_pool.c
/// must be built with it) of that many threads.
std::string generateHarness(const ModelSignature &signature,
                            llvm::StringRef name, unsigned threads = 1);

} // namespace mlir::tgc

#endif // TGC_DRIVER_HARNESS_H
