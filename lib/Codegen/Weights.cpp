//===- Weights.cpp - the weights of a model as one blob --------*- C++ -*-===//
//
// Copies constant tensors into one aligned blob and writes it out, either
// as a C string literal or behind a safetensors header.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Weights.h"
#include "Codegen/CEmitterSupport.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::tgc;

/// Appends the bytes of `op`'s value as the blob stores them.
static LogicalResult appendBytes(ConstOp op, RankedTensorType type,
                                 std::vector<char> &data) {
  Type element = type.getElementType();
  int64_t count = type.getNumElements();
  int64_t bytes = count * getElementBytes(element);
  Attribute value = op.getValue();

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    DenseResourceElementsHandle handle = resource.getRawHandle();
    AsmResourceBlob *blob = handle.getBlob();
    if (!blob)
      return op.emitOpError("refers to the resource '")
             << handle.getKey() << "', whose data is missing";
    ArrayRef<char> raw = blob->getData();
    if (static_cast<int64_t>(raw.size()) != bytes)
      return op.emitOpError("resource '")
             << handle.getKey() << "' holds " << raw.size()
             << " bytes; the type needs " << bytes;
    data.insert(data.end(), raw.begin(), raw.end());
    return success();
  }

  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return op.emitOpError("has a value whose bytes the package writer "
                          "cannot read: ")
           << value;
  // The attribute packs booleans as bits; buffers hold one byte each.
  if (element.isInteger(1)) {
    for (bool flag : dense.getValues<bool>())
      data.push_back(flag ? 1 : 0);
    return success();
  }
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < count; ++i)
      data.insert(data.end(), raw.begin(), raw.end());
    return success();
  }
  if (static_cast<int64_t>(raw.size()) != bytes)
    return op.emitOpError("holds ")
           << raw.size() << " bytes of data; the type needs " << bytes;
  data.insert(data.end(), raw.begin(), raw.end());
  return success();
}

static std::string getTensorName(ConstOp op, unsigned number) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
    return resource.getRawHandle().getKey().str();
  return "const" + std::to_string(number);
}

FailureOr<WeightsBlob>
mlir::tgc::buildWeightsBlob(ArrayRef<ConstOp> consts,
                            DenseMap<Operation *, unsigned> &tensorOf) {
  WeightsBlob blob;
  DenseMap<Attribute, unsigned> tensorOfValue;
  // Tensors by type and a hash of their bytes: values that are equal but
  // not one attribute (each weight packed for a kernel is its own
  // resource, and an unrolled LSTM packs the same recurrent weight once
  // per step: 600 copies of 36 KB over 300 frames) share one tensor too.
  std::multimap<std::pair<const void *, uint64_t>, unsigned> tensorOfBytes;
  llvm::StringSet<> names;
  for (ConstOp op : consts) {
    if (tensorOf.count(op))
      continue;
    auto [it, inserted] =
        tensorOfValue.try_emplace(op.getValue(), blob.tensors.size());
    tensorOf[op] = it->second;
    if (!inserted)
      continue;

    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape())
      return op.emitOpError("weights must be tensors of a static shape");
    if (failed(getCStorageType(type.getElementType())) ||
        type.getElementType().isIndex())
      return op.emitOpError("has element type ")
             << type.getElementType() << ", which a package cannot hold";

    // The bytes go where a new tensor would start, and are taken back when
    // an equal tensor is already in the blob.
    size_t end = blob.data.size();
    int64_t offset = llvm::alignTo(end, WeightsBlob::kAlign);
    blob.data.resize(offset, 0);
    if (failed(appendBytes(op, type, blob.data)))
      return failure();
    ArrayRef<char> bytes(blob.data.data() + offset, blob.data.size() - offset);
    std::pair<const void *, uint64_t> key{type.getAsOpaquePointer(),
                                          fnv1a64(bytes)};
    auto [first, last] = tensorOfBytes.equal_range(key);
    auto same = std::find_if(first, last, [&](const auto &entry) {
      const WeightTensor &other = blob.tensors[entry.second];
      // One type: as many bytes.
      return std::equal(bytes.begin(), bytes.end(),
                        blob.data.begin() + other.offset);
    });
    if (same != last) {
      blob.data.resize(end);
      tensorOf[op] = it->second = same->second;
      continue;
    }
    tensorOfBytes.insert({key, (unsigned)blob.tensors.size()});

    WeightTensor tensor;
    std::string base = getTensorName(op, blob.tensors.size());
    tensor.name = base;
    for (unsigned n = 2; !names.insert(tensor.name).second; ++n)
      tensor.name = base + "_" + std::to_string(n);
    tensor.type = type;
    tensor.offset = offset;
    tensor.bytes = bytes.size();
    blob.tensors.push_back(std::move(tensor));
  }
  blob.checksum = fnv1a64(blob.data);
  return blob;
}

uint64_t mlir::tgc::fnv1a64(ArrayRef<char> data) {
  uint64_t hash = 14695981039346656037ull;
  for (char c : data) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

void mlir::tgc::writeCStringLiteral(ArrayRef<char> data, raw_ostream &os) {
  // Lines of 64 input bytes keep the file readable by editors and diffs.
  constexpr size_t kBytesPerLine = 64;
  if (data.empty()) {
    os << "\"\"";
    return;
  }
  for (size_t start = 0; start < data.size(); start += kBytesPerLine) {
    os << "\"";
    size_t end = std::min(data.size(), start + kBytesPerLine);
    for (size_t i = start; i < end; ++i) {
      auto byte = static_cast<unsigned char>(data[i]);
      // '?' is escaped too: "??=" and friends are trigraphs in C99.
      bool plain = byte >= 0x20 && byte < 0x7f && byte != '"' && byte != '\\' &&
                   byte != '?';
      if (plain)
        os << static_cast<char>(byte);
      else
        // Always three digits, so that a following digit is not read as
        // part of the escape.
        os << '\\' << static_cast<char>('0' + (byte >> 6))
           << static_cast<char>('0' + ((byte >> 3) & 7))
           << static_cast<char>('0' + (byte & 7));
    }
    os << "\"";
    if (end < data.size())
      os << "\n";
  }
}

static const char *getSafetensorsDtype(Type element) {
  if (element.isF32())
    return "F32";
  if (element.isF64())
    return "F64";
  if (element.isF16())
    return "F16";
  if (element.isBF16())
    return "BF16";
  if (element.isInteger(1))
    return "BOOL";
  auto integer = cast<IntegerType>(element);
  switch (integer.getWidth()) {
  case 8:
    return integer.isUnsigned() ? "U8" : "I8";
  case 16:
    return integer.isUnsigned() ? "U16" : "I16";
  case 32:
    return integer.isUnsigned() ? "U32" : "I32";
  default:
    return integer.isUnsigned() ? "U64" : "I64";
  }
}

std::string mlir::tgc::getSafetensorsHeader(const WeightsBlob &blob,
                                            StringRef modelName) {
  using Json = nlohmann::ordered_json;
  Json header = Json::object();
  std::string checksum;
  llvm::raw_string_ostream(checksum) << llvm::format(
      "0x%016llx", static_cast<unsigned long long>(blob.checksum));
  header["__metadata__"] = {{"format", "tgc"},
                            {"model", modelName.str()},
                            {"align", std::to_string(WeightsBlob::kAlign)},
                            {"fnv1a64", checksum}};
  int64_t end = 0;
  unsigned pads = 0;
  for (const WeightTensor &tensor : blob.tensors) {
    if (tensor.offset > end)
      header["__tgc_pad" + std::to_string(pads++)] = {
          {"dtype", "U8"},
          {"shape", Json::array({tensor.offset - end})},
          {"data_offsets", Json::array({end, tensor.offset})}};
    header[tensor.name] = {
        {"dtype", getSafetensorsDtype(tensor.type.getElementType())},
        {"shape", std::vector<int64_t>(tensor.type.getShape())},
        {"data_offsets",
         Json::array({tensor.offset, tensor.offset + tensor.bytes})}};
    end = tensor.offset + tensor.bytes;
  }
  std::string text =
      header.dump(-1, ' ', false, Json::error_handler_t::replace);
  // Pad with spaces (JSON whitespace) so that 8 + length is aligned.
  size_t total = llvm::alignTo(8 + text.size(), WeightsBlob::kAlign);
  text.resize(total - 8, ' ');
  std::string result(8, '\0');
  uint64_t length = text.size();
  for (int i = 0; i < 8; ++i)
    result[i] = static_cast<char>((length >> (8 * i)) & 0xff);
  return result + text;
}
