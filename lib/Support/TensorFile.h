//===- TensorFile.h - .npy and .pb tensor files -----------------*- C++ -*-===//
//
// A plain in-memory tensor (HostTensor) and readers/writers for the two tensor
// file formats tgc accepts: NumPy `.npy` and ONNX TensorProto `.pb` (the
// format of the ONNX backend test data).
//
// This library is plain C++17 with no LLVM dependency, because the runtime
// tools and tests use it too. Errors are values, never exceptions: every
// function that can fail returns a Result<T> (or Status) carrying either its
// value or a message that names the file and the problem, e.g.
//   "x.npy: truncated file: header needs 128 bytes, file has 20".
//
//===----------------------------------------------------------------------===//

#ifndef TGC_SUPPORT_TENSORFILE_H
#define TGC_SUPPORT_TENSORFILE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tgc {

/// Element types. The values are those of onnx::TensorProto::DataType, so a
/// DType converts to and from the ONNX enum with a cast.
enum class DType : int32_t {
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  BFloat16 = 16,
};

/// The DType with ONNX data type number `onnxType`, or nullopt when tgc does
/// not support it (STRING, COMPLEX*, UNDEFINED, FLOAT8*, unknown numbers).
std::optional<DType> dtypeFromOnnx(int32_t onnxType);

/// Bytes per element: 1, 2, 4 or 8.
size_t dtypeSize(DType dtype);

/// NumPy-style name: "float32", "float64", "float16", "bfloat16", "int8",
/// ..., "uint64", "bool".
const char *dtypeName(DType dtype);

/// Product of the dimensions; 1 for a 0-d (scalar) shape.
int64_t numElements(const std::vector<int64_t> &shape);

/// "[3,4,5]", or "[]" for a scalar.
std::string shapeString(const std::vector<int64_t> &shape);

/// A dense, row-major tensor in host memory. `data` holds numElements(shape)
/// elements of `dtype` in little-endian byte order (bool is one byte, 0 or 1).
struct HostTensor {
  std::string name; ///< ONNX value name; empty for tensors read from .npy.
  DType dtype = DType::Float;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t numElements() const { return tgc::numElements(shape); }
  /// Whether data.size() matches shape and dtype.
  bool isConsistent() const;
};

/// An error: a message meant for the user, naming the file and the problem.
struct Error {
  std::string message;
};

/// Either a T or an Error. Test it like a pointer (true on success), then use
/// `*r` / `r->` for the value or `r.error()` for the message:
///
///   Result<HostTensor> t = readTensorFile(path);
///   if (!t)
///     return fail(t.error());
///   use(t->shape);
template <typename T> class Result {
public:
  Result(T value) : storage(std::move(value)) {}
  Result(Error error) : storage(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(storage); }
  explicit operator bool() const { return ok(); }

  /// The value; only valid when ok().
  T &operator*() { return std::get<T>(storage); }
  const T &operator*() const { return std::get<T>(storage); }
  T *operator->() { return &std::get<T>(storage); }
  const T *operator->() const { return &std::get<T>(storage); }

  /// The error message; only valid when !ok().
  const std::string &error() const { return std::get<Error>(storage).message; }

private:
  std::variant<T, Error> storage;
};

/// Success, or an Error. Like Result, true on success.
class Status {
public:
  Status() = default; ///< success
  Status(Error error) : err(std::move(error)) {}
  static Status success() { return Status(); }

  bool ok() const { return !err.has_value(); }
  explicit operator bool() const { return ok(); }
  /// The error message; only valid when !ok().
  const std::string &error() const { return err->message; }

private:
  std::optional<Error> err;
};

/// Reads a `.npy` or `.pb` file (chosen by the extension, case-insensitive;
/// anything else is an error).
///  - .npy: format versions 1.0, 2.0 and 3.0; dtypes <f4 <f8 <f2 |i1 <i2 <i4
///    <i8 |u1 <u2 <u4 <u8 |b1; C order only. The tensor's name is empty.
///  - .pb: a serialized onnx::TensorProto with its data in raw_data or in the
///    typed repeated field for its type. External data is an error.
/// Never throws; malformed input of any kind gives an Error.
Result<HostTensor> readTensorFile(const std::string &path);

/// Writes `tensor` as `.npy` (version 1.0; the name is not stored) or `.pb`
/// (TensorProto with name, dims, data_type and raw_data), chosen by the
/// extension. The file is written under a temporary name and renamed, so a
/// failed write leaves no partial file behind. Never throws.
Status writeTensorFile(const std::string &path, const HostTensor &tensor);

/// The in-memory forms of the two formats; `what` names the source in error
/// messages (readTensorFile passes the path).
Result<HostTensor> parseNpy(const std::string &bytes, const std::string &what);
Result<HostTensor> parseTensorProto(const std::string &bytes,
                                    const std::string &what);
Result<std::string> serializeNpy(const HostTensor &tensor,
                                 const std::string &what);
Result<std::string> serializeTensorProto(const HostTensor &tensor,
                                         const std::string &what);

} // namespace tgc

#endif // TGC_SUPPORT_TENSORFILE_H
