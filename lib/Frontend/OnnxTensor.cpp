//===- OnnxTensor.cpp - ONNX types and tensors as MLIR ----------*- C++ -*-===//
//
// ONNX stores tensor data in one of three places: `raw_data` (little-endian
// bytes), a typed repeated field (`float_data`, `int32_data`, ... with small
// types widened to int32), or an external file. All three are normalized to
// MLIR's raw little-endian layout here.
//
//===----------------------------------------------------------------------===//

#include "Frontend/OnnxTensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SwapByteOrder.h"
#include <cstring>

using namespace mlir;
using namespace mlir::tgc;
using onnx::TensorProto;

Type mlir::tgc::convertOnnxElementType(MLIRContext *context, int32_t dataType) {
  auto sint = [&](unsigned width) {
    return IntegerType::get(context, width, IntegerType::Signed);
  };
  auto uint = [&](unsigned width) {
    return IntegerType::get(context, width, IntegerType::Unsigned);
  };
  switch (dataType) {
  case TensorProto::FLOAT:
    return Float32Type::get(context);
  case TensorProto::DOUBLE:
    return Float64Type::get(context);
  case TensorProto::FLOAT16:
    return Float16Type::get(context);
  case TensorProto::BFLOAT16:
    return BFloat16Type::get(context);
  case TensorProto::BOOL:
    return IntegerType::get(context, 1);
  case TensorProto::INT8:
    return sint(8);
  case TensorProto::INT16:
    return sint(16);
  case TensorProto::INT32:
    return sint(32);
  case TensorProto::INT64:
    return sint(64);
  case TensorProto::UINT8:
    return uint(8);
  case TensorProto::UINT16:
    return uint(16);
  case TensorProto::UINT32:
    return uint(32);
  case TensorProto::UINT64:
    return uint(64);
  default:
    return {};
  }
}

llvm::StringRef mlir::tgc::onnxDataTypeName(int32_t dataType) {
  if (!TensorProto::DataType_IsValid(dataType))
    return "an unknown data type";
  const std::string &name =
      TensorProto::DataType_Name(static_cast<TensorProto::DataType>(dataType));
  return name;
}

/// Bytes per element in MLIR's raw layout (bool takes a whole byte in ONNX;
/// it is packed to bits only when the attribute is built).
static int64_t elementBytes(Type element) {
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

/// Appends the low `size` bytes of each value, little-endian.
template <typename T>
static void appendTruncated(const google::protobuf::RepeatedField<T> &values,
                            int64_t size, std::vector<char> &bytes) {
  for (T value : values) {
    uint64_t wide = static_cast<uint64_t>(value);
    for (int64_t i = 0; i < size; ++i)
      bytes.push_back(static_cast<char>((wide >> (8 * i)) & 0xff));
  }
}

template <typename T>
static void appendRaw(const google::protobuf::RepeatedField<T> &values,
                      std::vector<char> &bytes) {
  size_t old = bytes.size();
  bytes.resize(old + values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(bytes.data() + old, values.data(), values.size() * sizeof(T));
}

/// The value of `key` in the external data entries of `tensor`, if any.
static std::optional<std::string> externalEntry(const TensorProto &tensor,
                                                llvm::StringRef key) {
  for (const auto &entry : tensor.external_data())
    if (entry.key() == key)
      return entry.value();
  return std::nullopt;
}

FailureOr<std::string>
TensorConverter::resolveExternalPath(const TensorProto &tensor, Location loc) {
  std::string location = externalEntry(tensor, "location").value_or("");
  if (location.empty())
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': external data without a location";

  // The file must lie inside the model's folder: a model must not make the
  // compiler read arbitrary files. Symlinks and `..` are resolved first.
  auto refuse = [&](const llvm::Twine &why) {
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': external data path '" << location << "' "
                          << why;
  };
  if (llvm::sys::path::is_absolute(location) ||
      llvm::sys::path::has_root_name(location))
    return refuse("is absolute; it must be relative to the model's folder");
  // `..` first, on the absolute path, so that a path that leaves is
  // refused whether or not its target exists; then symlinks, through the
  // real paths.
  auto inside = [](llvm::StringRef file, llvm::StringRef dir) {
    return file.starts_with(dir) && file.size() > dir.size() &&
           llvm::sys::path::is_separator(file[dir.size()]);
  };
  llvm::SmallString<256> dirAbs(modelDir);
  llvm::sys::fs::make_absolute(dirAbs);
  llvm::sys::path::remove_dots(dirAbs, /*remove_dot_dot=*/true);
  llvm::SmallString<256> lexical(dirAbs);
  llvm::sys::path::append(lexical, location);
  llvm::sys::path::remove_dots(lexical, /*remove_dot_dot=*/true);
  if (!inside(lexical, dirAbs))
    return refuse("leaves the model's folder");
  llvm::SmallString<256> dirReal, fileReal, joined(modelDir);
  llvm::sys::path::append(joined, location);
  if (llvm::sys::fs::real_path(modelDir, dirReal))
    return refuse("cannot be resolved: the model's folder is not readable");
  if (std::error_code ec = llvm::sys::fs::real_path(joined, fileReal))
    return refuse("cannot be opened: " + ec.message());
  if (!inside(fileReal, dirReal))
    return refuse("leaves the model's folder (through a symbolic link)");
  if (!llvm::sys::fs::is_regular_file(fileReal))
    return refuse("is not a regular file");
  return std::string(fileReal);
}

LogicalResult TensorConverter::readExternal(const TensorProto &tensor,
                                            Location loc,
                                            std::vector<char> &bytes) {
  FailureOr<std::string> file = resolveExternalPath(tensor, loc);
  if (failed(file))
    return failure();
  std::string location = externalEntry(tensor, "location").value_or("");
  uint64_t range[2] = {0, 0};
  bool hasLength = false;
  const char *keys[] = {"offset", "length"};
  for (auto [i, key] : llvm::enumerate(keys)) {
    std::optional<std::string> text = externalEntry(tensor, key);
    if (!text)
      continue;
    if (llvm::StringRef(*text).getAsInteger(10, range[i]))
      return emitError(loc)
             << "tensor '" << tensor.name() << "': external data " << key
             << " '" << *text << "' is not a number";
    hasLength |= i == 1;
  }
  uint64_t offset = range[0];

  uint64_t fileSize;
  if (std::error_code ec = llvm::sys::fs::file_size(*file, fileSize))
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': cannot read external data '" << location
                          << "': " << ec.message();
  if (offset > fileSize || (hasLength && range[1] > fileSize - offset))
    return emitError(loc) << "tensor '" << tensor.name() << "': external data ["
                          << offset << ", " << offset + range[1] << ") of '"
                          << location << "' lies beyond its end (" << fileSize
                          << " bytes)";
  uint64_t size = hasLength ? range[1] : fileSize - offset;
  auto buffer = llvm::MemoryBuffer::getFileSlice(*file, size, offset,
                                                 /*IsVolatile=*/false);
  if (!buffer)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "': cannot read external data '" << location
                          << "': " << buffer.getError().message();
  bytes.assign((*buffer)->getBufferStart(), (*buffer)->getBufferEnd());
  return success();
}

LogicalResult TensorConverter::readBytes(const TensorProto &tensor,
                                         RankedTensorType type, Location loc,
                                         std::vector<char> &storage,
                                         ArrayRef<char> &bytes) {
  Type element = type.getElementType();
  int64_t size = elementBytes(element);
  int64_t count = type.getNumElements();
  storage.clear();

  if (tensor.data_location() == TensorProto::EXTERNAL) {
    if (failed(readExternal(tensor, loc, storage)))
      return failure();
    bytes = storage;
  } else if (tensor.has_raw_data()) {
    // Weights are mostly raw data: used in place, not copied.
    bytes = ArrayRef<char>(tensor.raw_data().data(), tensor.raw_data().size());
  } else {
    switch (tensor.data_type()) {
    case TensorProto::FLOAT:
      appendRaw(tensor.float_data(), storage);
      break;
    case TensorProto::DOUBLE:
      appendRaw(tensor.double_data(), storage);
      break;
    case TensorProto::INT64:
      appendRaw(tensor.int64_data(), storage);
      break;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      appendTruncated(tensor.uint64_data(), size, storage);
      break;
    default:
      // INT32 and everything narrower (bool, 8/16-bit integers, and the bit
      // patterns of FLOAT16/BFLOAT16) live in int32_data.
      appendTruncated(tensor.int32_data(), size, storage);
      break;
    }
    bytes = storage;
  }

  if (static_cast<int64_t>(bytes.size()) != count * size)
    return emitError(loc) << "tensor '" << tensor.name() << "' has "
                          << bytes.size() << " bytes of data; its shape "
                          << type << " needs " << count * size;
  return success();
}

/// A name usable as a bare identifier in `dense_resource<...>`.
static std::string blobNameFor(llvm::StringRef tensorName) {
  std::string name;
  for (char c : tensorName)
    name.push_back(llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_');
  if (name.empty() || llvm::isDigit(name[0]) || name[0] == '.')
    name.insert(name.begin(), '_');
  return name;
}

FailureOr<ElementsAttr> TensorConverter::convert(const TensorProto &tensor,
                                                 Location loc,
                                                 bool allowResource) {
  if (llvm::sys::IsBigEndianHost)
    return emitError(loc, "ONNX import needs a little-endian host");
  Type element = convertOnnxElementType(context, tensor.data_type());
  if (!element)
    return emitError(loc) << "tensor '" << tensor.name() << "' has type "
                          << onnxDataTypeName(tensor.data_type())
                          << ", which tgc does not support";
  SmallVector<int64_t> shape;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0)
      return emitError(loc) << "tensor '" << tensor.name()
                            << "' has a negative dimension " << dim;
    shape.push_back(dim);
  }
  auto type = RankedTensorType::get(shape, element);

  std::vector<char> storage;
  ArrayRef<char> bytes;
  if (failed(readBytes(tensor, type, loc, storage, bytes)))
    return failure();
  return fromBytes(type, tensor.name(), bytes, loc, allowResource);
}

FailureOr<ElementsAttr> TensorConverter::fromBytes(RankedTensorType type,
                                                   llvm::StringRef name,
                                                   ArrayRef<char> bytes,
                                                   Location loc,
                                                   bool allowResource) {
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    SmallVector<bool> values;
    for (char byte : bytes)
      values.push_back(byte != 0);
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  if (allowResource && isa<FloatType>(element) &&
      type.getNumElements() > kMaxInlineFloatElements) {
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        bytes, elementBytes(element), /*dataIsMutable=*/false);
    return cast<ElementsAttr>(DenseResourceElementsAttr::get(
        type, blobNameFor(name), std::move(blob)));
  }
  bool detectedSplat = false;
  if (!DenseElementsAttr::isValidRawBuffer(type, bytes, detectedSplat))
    return emitError(loc) << "tensor '" << name
                          << "' has data of the wrong size for " << type;
  return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(type, bytes));
}
